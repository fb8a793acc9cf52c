import { Entity } from '@backstage/catalog-model';
import { ExternalRouteRef } from '@backstage/frontend-plugin-api';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import {
  ANNOTATION_CLOUD_ACCOUNT,
  CloudAccount,
} from '@infra-delivery/plugin-infra-delivery-common';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { infraDeliveryApiRef } from '../../api';
import { createStackRouteRef } from '../../routes';
import {
  baseUrl,
  client,
  errorResponse,
  list,
  now,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { CloudAccountsPage, roleNameOf } from './CloudAccountsPage';
import { fakeContainerWidth } from '../../__testUtils__/containerWidth';

function cloudAccount(
  overrides: Partial<CloudAccount> & Pick<CloudAccount, 'id' | 'name'>,
): CloudAccount {
  return {
    createdAt: now,
    updatedAt: now,
    givenId: overrides.id,
    organizationId: 'org-1',
    status: 'AWAITING_CONNECTION',
    cloudId: '111122223333',
    latestRoleVersion: 'v3',
    latestRoleVersionDescription: 'Adds CloudWatch read access',
    ...overrides,
  };
}

const roleArn = (cloudId: string) =>
  `arn:aws:iam::${cloudId}:role/infra-delivery-portal`;

const awaiting = cloudAccount({
  id: 'ca-awaiting',
  name: 'Sandbox',
  cloudId: '111111111111',
});
const connected = cloudAccount({
  id: 'ca-connected',
  name: 'Production',
  cloudId: '222222222222',
  status: 'CONNECTED',
  roleVersion: 'v3',
  cloudRef: roleArn('222222222222'),
  templateStackId: 'stack/prod',
});
const outdated = cloudAccount({
  id: 'ca-outdated',
  name: 'Staging',
  cloudId: '333333333333',
  status: 'CONNECTED',
  roleVersion: 'v2',
  cloudRef: roleArn('333333333333'),
  templateStackId: 'stack/staging',
});

/** The account created by the form in these tests. */
const created = cloudAccount({
  id: 'ca-new',
  name: 'Analytics',
  givenId: 'analytics',
  cloudId: '444455556666',
});
const connectedCreated: CloudAccount = {
  ...created,
  status: 'CONNECTED',
  roleVersion: 'v3',
  cloudRef: roleArn('444455556666'),
  templateStackId: 'stack/analytics',
};

const templateUrl = (id: string) =>
  `${baseUrl}/cloud-accounts/${id}/onboarding-template?version=v3&expires=1768474800&signature=sig-${id}`;
const quickCreateUrl = (id: string) =>
  `https://console.aws.amazon.com/cloudformation/home#/stacks/quickcreate?stackName=infra-delivery-${id}&templateURL=${encodeURIComponent(
    templateUrl(id),
  )}`;

describe('CloudAccountsPage', () => {
  const { server, requests, requestsTo } = setupInfraDeliveryServer();

  /** The accounts the list answers with; tests add to it. */
  let accounts: CloudAccount[];

  beforeEach(() => {
    accounts = [awaiting, connected, outdated];
    server.use(
      http.get(`${baseUrl}/cloud-accounts`, () =>
        HttpResponse.json(list(accounts)),
      ),
      http.get<{ id: string }>(
        `${baseUrl}/cloud-accounts/:id/template-url`,
        ({ params }) =>
          HttpResponse.json({
            data: {
              templateUrl: templateUrl(params.id),
              version: 'v3',
              quickCreateUrl: quickCreateUrl(params.id),
            },
          }),
      ),
      http.post(`${baseUrl}/cloud-accounts`, () => {
        accounts = [created, ...accounts];
        return HttpResponse.json({ data: created }, { status: 201 });
      }),
    );
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  /**
   * Puts only `setInterval` on a fake clock, so that the test decides when the dialog polls
   * while fetches, transitions and user-event keep real timeouts. Testing Library's `waitFor`
   * polls with `setInterval` too, so the waits on requests below use `eventually`.
   */
  function fakeIntervals() {
    jest.useFakeTimers({
      doNotFake: [
        'Date',
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
      ],
    });
  }

  /** Retries an assertion on the real clock until it holds, letting React settle in between. */
  async function eventually(assertion: () => void, timeoutMs = 2000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        assertion();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      await act(() => new Promise<void>(resolve => setTimeout(resolve, 20)));
    }
  }

  /** Lets requests in flight reach the fake service and their answers render. */
  async function settle() {
    await act(() => new Promise<void>(resolve => setTimeout(resolve, 100)));
  }

  /** Moves the fake clock of the intervals on. */
  function advance(ms: number) {
    act(() => {
      jest.advanceTimersByTime(ms);
    });
  }

  const renderPage = (
    /** The app's pages by path, such as the stack template's. */
    mountedRoutes?: Record<string, ExternalRouteRef>,
  ) =>
    renderInTestApp(<CloudAccountsPage />, {
      apis: [[infraDeliveryApiRef, client]],
      mountedRoutes,
    });

  async function rowOf(name: string) {
    const cell = await screen.findByText(name);
    return cell.closest('tr')!;
  }

  /** Opens the Add an AWS account dialog from the card's header and returns it. */
  async function openAddDialog(user: ReturnType<typeof userEvent.setup>) {
    await user.click(screen.getByRole('button', { name: 'Add AWS account' }));
    return screen.findByRole('dialog', { name: 'Add an AWS account' });
  }

  async function fillForm(
    user: ReturnType<typeof userEvent.setup>,
    values: { name: string; givenId: string; cloudId: string },
  ) {
    await user.type(screen.getByLabelText(/^Name/), values.name);
    // The id the form proposed from the name gives way to the one given.
    await user.clear(screen.getByLabelText(/^Id/));
    await user.type(screen.getByLabelText(/^Id/), values.givenId);
    await user.type(screen.getByLabelText(/^AWS account id/), values.cloudId);
  }

  /** Renders the page and sends the Add dialog filled in for "Analytics"; returns the dialog. */
  async function submitAnalytics(user: ReturnType<typeof userEvent.setup>) {
    await renderPage();
    await rowOf('Sandbox');
    const dialog = await openAddDialog(user);
    await fillForm(user, {
      name: 'Analytics',
      givenId: 'analytics',
      cloudId: '444455556666',
    });
    await user.click(
      within(dialog).getByRole('button', { name: 'Add and connect' }),
    );
    return dialog;
  }

  /** Creates the "Analytics" account through the Add dialog and returns the connect dialog. */
  async function createAnalytics(user: ReturnType<typeof userEvent.setup>) {
    await rowOf('Sandbox');
    const addDialog = await openAddDialog(user);
    await fillForm(user, {
      name: 'Analytics',
      givenId: 'analytics',
      cloudId: '444455556666',
    });
    await user.click(
      within(addDialog).getByRole('button', { name: 'Add and connect' }),
    );
    // On the real clock: findBy would move the fake one of the tests that watch the polling.
    await eventually(() =>
      expect(screen.getByText('Connect Analytics')).toBeInTheDocument(),
    );
    // The Add dialog has closed: the one open is the connect dialog.
    return screen.getByRole('dialog');
  }

  it('says so when the organization has no cloud account', async () => {
    accounts = [];
    await renderPage();
    expect(
      await screen.findByText(
        'No cloud account yet: add the first one with Add AWS account.',
      ),
    ).toBeInTheDocument();
  });

  it('shows the ErrorBody message and request id when the list fails', async () => {
    server.use(
      http.get(`${baseUrl}/cloud-accounts`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          message: 'This needs the VIEWER role',
          requestId: 'req-accounts-403',
        }),
      ),
    );
    await renderPage();
    expect(
      await screen.findByText('This needs the VIEWER role'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'InfraDelivery:Auth:INSUFFICIENT_ROLE · Request id: req-accounts-403',
      ),
    ).toBeInTheDocument();
  });

  it('lists the accounts with their connection status', async () => {
    await renderPage();

    const awaitingRow = await rowOf('Sandbox');
    expect(
      within(awaitingRow).getByText('Awaiting connection'),
    ).toBeInTheDocument();
    expect(within(awaitingRow).getByText('111111111111')).toBeInTheDocument();
    expect(within(awaitingRow).getByText('—')).toBeInTheDocument();
    expect(
      within(awaitingRow).getByRole('button', { name: 'Connect Sandbox' }),
    ).toBeInTheDocument();

    const connectedRow = await rowOf('Production');
    expect(within(connectedRow).getByText('Connected')).toBeInTheDocument();
    // The role by its name, its ARN on hover.
    expect(
      within(connectedRow)
        .getByText('infra-delivery-portal')
        .closest('[title]'),
    ).toHaveAttribute('title', roleArn('222222222222'));
    // With the version of its policy, which the Overview and Upgrade speak of.
    expect(within(connectedRow).getByText('policy version v3')).toBeVisible();
    // Nothing to connect: only an admin's Remove.
    expect(
      within(connectedRow)
        .getAllByRole('button')
        .map(button => button.getAttribute('aria-label') ?? button.textContent),
    ).toEqual(['Remove Production']);

    const outdatedRow = await rowOf('Staging');
    expect(within(outdatedRow).getByText('Upgrade available')).toBeVisible();
    expect(
      within(outdatedRow).getByText('policy version v2 of v3'),
    ).toBeVisible();
    expect(
      within(outdatedRow).queryByText('Connected'),
    ).not.toBeInTheDocument();
    expect(
      within(outdatedRow).getByRole('button', { name: 'Upgrade Staging' }),
    ).toBeInTheDocument();

    const [listRequest] = requestsTo('GET', '/cloud-accounts');
    expect(listRequest.query.get('limit')).toBe('500');
    // Nothing is fetched for a dialog that is not open.
    expect(
      requests()
        .map(r => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(['GET /cloud-accounts', 'GET /me']);
  });

  it('links each account that the catalog has to its entity page', async () => {
    // The catalog module's Resource of Production (its name cut and hashed where the id is
    // long: found by its annotation, not by a name built here); Sandbox is not in the catalog
    // yet.
    const productionEntity: Entity = {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name: 'cloud-account-production',
        namespace: 'default',
        annotations: { [ANNOTATION_CLOUD_ACCOUNT]: connected.id },
      },
      spec: { type: 'cloud-account', owner: 'group:default/guests' },
    };
    const render = () =>
      renderInTestApp(<CloudAccountsPage />, {
        apis: [
          [infraDeliveryApiRef, client],
          [catalogApiRef, catalogApiMock({ entities: [productionEntity] })],
        ],
        mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
      });
    const linkHref = '/catalog/default/resource/cloud-account-production';

    await render();
    const production = await screen.findByRole('link', { name: 'Production' });
    expect(production).toHaveAttribute('href', linkHref);
    const sandboxRow = await rowOf('Sandbox');
    expect(within(sandboxRow).queryByRole('link')).not.toBeInTheDocument();
  });

  it('fits a 1,024 px screen: text wraps between words, actions stack, labels stay whole', async () => {
    await renderPage();
    const row = await rowOf('Sandbox');
    const cells = within(row).getAllByRole('cell');
    const cellOf = (text: string) =>
      cells.find(cell => within(cell).queryByText(text))!;
    // Kept on one line, name, status and role made the table 1,092 px wide.
    for (const text of ['Sandbox', 'Awaiting connection']) {
      expect(cellOf(text)).not.toHaveStyle({ whiteSpace: 'nowrap' });
    }
    expect(cellOf('Sandbox')).toHaveStyle({ wordBreak: 'normal' });
    const connect = within(row).getByRole('button', { name: /^Connect / });
    const actions = connect.parentElement!;
    expect(actions).toHaveStyle({ flexWrap: 'wrap', whiteSpace: 'nowrap' });
    expect(
      within(row).getByRole('button', { name: 'Remove Sandbox' }),
    ).toHaveStyle({ whiteSpace: 'nowrap' });
  });

  it('folds into three columns where the table has less than 700 px, so that it does not scroll sideways', async () => {
    const restore = fakeContainerWidth(430);
    try {
      await renderPage();
      const row = await rowOf('Production');
      // A 700 px window beside the sidebar: five columns were 580 px in 430.
      expect(
        screen.getAllByRole('columnheader').map(header => header.textContent),
      ).toEqual(['Name', 'Status', 'Actions']);
      const [name, status, actions] = within(row).getAllByRole('cell');
      expect(name).toHaveTextContent('ProductionAWS account 222222222222');
      expect(status).toHaveTextContent(
        'ConnectedRole infra-delivery-portal, policy version v3',
      );
      expect(
        within(status).getByText(/^Role infra-delivery-portal/),
      ).toHaveAttribute('title', roleArn('222222222222'));
      expect(
        within(actions).getByRole('button', { name: 'Remove Production' }),
      ).toBeInTheDocument();
    } finally {
      restore();
    }
  });

  it('keeps its five columns where the table has room', async () => {
    const restore = fakeContainerWidth(1008);
    try {
      await renderPage();
      await rowOf('Production');
      expect(
        screen.getAllByRole('columnheader').map(header => header.textContent),
      ).toEqual(['Name', 'AWS account', 'Status', 'Role', 'Actions']);
    } finally {
      restore();
    }
  });

  it('removes an account after a confirmation that says what happens to its stacks', async () => {
    const user = userEvent.setup();
    server.use(
      http.delete(`${baseUrl}/cloud-accounts/:id`, ({ params }) => {
        accounts = accounts.filter(a => a.id !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await renderPage();
    const sandbox = await rowOf('Sandbox');
    await user.click(
      within(sandbox).getByRole('button', { name: 'Remove Sandbox' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        /Stacks that deploy into it are detached from it and keep their resources/,
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'An account that deployments were made with is kept: their history and rollbacks need it.',
      ),
    ).toBeInTheDocument();
    expect(requestsTo('DELETE', `/cloud-accounts/${awaiting.id}`)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(screen.queryByText('Sandbox')).not.toBeInTheDocument(),
    );
    expect(requestsTo('DELETE', `/cloud-accounts/${awaiting.id}`)).toHaveLength(
      1,
    );
  });

  it('keeps the dialog open with the reason when the service refuses to remove an account with deployments', async () => {
    const user = userEvent.setup();
    server.use(
      http.delete(`${baseUrl}/cloud-accounts/:id`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:CloudAccount:IN_USE',
          message:
            '2 deployments were made with this cloud account (1 of them still in progress); their history and rollbacks need it, so it cannot be removed',
          description:
            'Deployments keep the cloud account they were made with: their rollbacks, redeploys and events need it.',
          requestId: 'req-remove-409',
        }),
      ),
    );
    await renderPage();
    const production = await rowOf('Production');
    await user.click(
      within(production).getByRole('button', { name: 'Remove Production' }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(await within(dialog).findByText(/Remove failed/)).toBeVisible();
    expect(
      within(dialog).getByText(
        '2 deployments were made with this cloud account (1 of them still in progress); their history and rollbacks need it, so it cannot be removed',
      ),
    ).toBeVisible();
    expect(
      within(dialog).getByText(
        'Deployments keep the cloud account they were made with: their rollbacks, redeploys and events need it.',
      ),
    ).toBeVisible();
    expect(
      within(dialog).getByText(
        'InfraDelivery:CloudAccount:IN_USE · Request id: req-remove-409',
      ),
    ).toBeInTheDocument();
    // The account is still listed; the dialog closes only when asked.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(await rowOf('Production')).toBeInTheDocument();
  });

  it('names the connect dialog by its title, as a screen reader announces it', async () => {
    const user = userEvent.setup();
    await renderPage();

    const row = await rowOf('Sandbox');
    const opener = within(row).getByRole('button', { name: 'Connect Sandbox' });
    await user.click(opener);

    // Unnamed, it was announced only as "dialog" (axe-core: aria-dialog-name, serious).
    const dialog = await screen.findByRole('dialog', {
      name: 'Connect Sandbox',
    });
    expect(
      await within(dialog).findByRole('link', {
        name: 'Download the template',
      }),
    ).toBeVisible();
  });

  it('opens the upgrade of an outdated account with the latest template', async () => {
    const user = userEvent.setup();
    await renderPage();

    const row = await rowOf('Staging');
    await user.click(within(row).getByRole('button', { name: /^Upgrade / }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Connect Staging')).toBeInTheDocument();
    expect(
      await within(dialog).findByRole('link', {
        name: 'Launch in the AWS console',
      }),
    ).toHaveAttribute('href', quickCreateUrl('ca-outdated'));
    // Connected with v2, the account waits for the stack of v3.
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Once the stack has created the role, it reports back and this says so.',
    );
    expect(
      requestsTo('GET', '/cloud-accounts/ca-outdated/template-url'),
    ).toHaveLength(1);
  });

  it('says an upgraded account runs the new policy version, with nothing else to do', async () => {
    server.use(
      http.post(`${baseUrl}/cloud-accounts/ca-outdated/connect-local`, () =>
        HttpResponse.json({ data: { ...outdated, roleVersion: 'v3' } }),
      ),
    );
    const user = userEvent.setup();
    await renderPage({
      '/create/templates/:namespace/:templateName': createStackRouteRef,
    });

    const row = await rowOf('Staging');
    await user.click(within(row).getByRole('button', { name: /^Upgrade / }));
    const dialog = await screen.findByRole('dialog');
    await user.click(
      await within(dialog).findByRole('button', {
        name: 'Connect with the local driver',
      }),
    );

    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent(
        `Staging runs policy version v3 now, with role ${roleArn(
          '333333333333',
        )}.`,
      ),
    );
    // Its stacks deploy into it already: no new stack offered.
    expect(
      within(dialog).queryByText(/Stacks deploy into it/),
    ).not.toBeInTheDocument();
    expect(
      within(dialog).queryByRole('button', { name: /Create a stack/ }),
    ).not.toBeInTheDocument();
  });

  it('has Add AWS account in the header of the Cloud accounts card, opening a dialog named for it', async () => {
    const user = userEvent.setup();
    await renderPage();
    await rowOf('Sandbox');
    // No form of its own above the table any more: its fields are in the dialog.
    expect(screen.queryByLabelText('AWS account id')).not.toBeInTheDocument();
    expect(screen.queryByText('Add an AWS account')).not.toBeInTheDocument();

    const add = screen.getByRole('button', { name: 'Add AWS account' });
    const header = add.closest('.MuiCardHeader-root')!;
    expect(header).not.toBeNull();
    expect(
      within(header as HTMLElement).getByText('Cloud accounts'),
    ).toBeInTheDocument();
    // The table is in the same card as the button.
    expect(
      header.closest('.MuiCard-root')!.querySelector('table'),
    ).not.toBeNull();

    const dialog = await openAddDialog(user);
    // Every field says what it wants.
    for (const [label, help] of [
      ['Name', 'What people call it: Production'],
      [
        'Id',
        'Lowercase letters, digits and inner dashes, unique here: production',
      ],
      [
        'AWS account id',
        'The 12 digits the AWS console shows in its account menu, top right',
      ],
    ]) {
      // Required, as every create dialog's Name and Id (NameAndIdFields).
      const field = within(dialog).getByRole('textbox', {
        name: new RegExp(`^${label}`),
      });
      expect(field).toBeRequired();
      expect(field).toHaveAccessibleDescription(help);
    }
    expect(
      within(dialog).getByText(/a CloudFormation stack you launch in it/),
    ).toBeInTheDocument();

    // Cancel closes it and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(requestsTo('POST', '/cloud-accounts')).toHaveLength(0);
  });

  it('creates an account and shows how to connect it', async () => {
    const user = userEvent.setup();
    await renderPage();

    await rowOf('Sandbox');
    const addDialog = await openAddDialog(user);
    expect(
      within(addDialog).getByRole('button', { name: 'Add and connect' }),
    ).toBeDisabled();
    await user.click(within(addDialog).getByRole('button', { name: 'Cancel' }));

    const dialog = await createAnalytics(user);

    expect(requestsTo('POST', '/cloud-accounts')).toHaveLength(1);
    expect(requestsTo('POST', '/cloud-accounts')[0].body).toEqual({
      data: {
        name: 'Analytics',
        givenId: 'analytics',
        cloudId: '444455556666',
      },
    });

    expect(within(dialog).getByText('Connect Analytics')).toBeInTheDocument();
    const launch = await within(dialog).findByRole('link', {
      name: 'Launch in the AWS console',
    });
    expect(launch).toHaveAttribute('href', quickCreateUrl('ca-new'));
    expect(launch).toHaveAttribute('target', '_blank');
    expect(
      within(dialog).getByRole('link', { name: 'Download the template' }),
    ).toHaveAttribute('href', templateUrl('ca-new'));
    expect(
      within(dialog).getByText(
        /Launch the CloudFormation stack in AWS account 444455556666/,
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/policy version v3/)).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Once the stack has created the role, it reports back and this says so.',
    );
    expect(
      requestsTo('GET', '/cloud-accounts/ca-new/template-url'),
    ).toHaveLength(1);

    // The list shows the new account behind the dialog.
    await waitFor(() =>
      expect(requestsTo('GET', '/cloud-accounts')).toHaveLength(2),
    );
    // The next account starts from empty fields.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    await openAddDialog(user);
    expect(screen.getByLabelText(/^Name/)).toHaveValue('');
    expect(screen.getByLabelText(/^Id/)).toHaveValue('');
    expect(screen.getByLabelText(/^AWS account id/)).toHaveValue('');
  });

  it('proposes an id from the name and says what is wrong while the person types', async () => {
    const user = userEvent.setup();
    await renderPage();
    await rowOf('Sandbox');
    await openAddDialog(user);
    // Read anew each time: greyed, the button hangs in the wrapper that carries its reason.
    const addButton = () =>
      screen.getByRole('button', { name: 'Add and connect' });
    const givenId = screen.getByLabelText(/^Id/);

    await user.type(screen.getByLabelText(/^Name/), 'Data Lake (EU)');
    expect(givenId).toHaveValue('data-lake-eu');

    await user.type(screen.getByLabelText(/^AWS account id/), '12345678901');
    // Said as a sentence, as every help line is.
    expect(screen.getByText('A 12-digit AWS account id')).toBeInTheDocument();
    expect(addButton()).toBeDisabled();
    await user.type(screen.getByLabelText(/^AWS account id/), '2');
    expect(
      screen.queryByText('A 12-digit AWS account id'),
    ).not.toBeInTheDocument();
    expect(addButton()).toBeEnabled();

    // An id of the person's own is checked too, and no longer follows the name.
    await user.clear(givenId);
    await user.type(givenId, 'Lake');
    expect(
      screen.getByText('Lowercase letters, digits and inner dashes'),
    ).toBeInTheDocument();
    expect(addButton()).toBeDisabled();
    await user.type(screen.getByLabelText(/^Name/), ' 2');
    expect(givenId).toHaveValue('Lake');
    expect(requestsTo('POST', '/cloud-accounts')).toHaveLength(0);
  });

  it('says why Add and connect is greyed', async () => {
    const user = userEvent.setup();
    await renderPage();
    await rowOf('Sandbox');
    await openAddDialog(user);
    const addButton = screen.getByRole('button', { name: 'Add and connect' });
    const reasonOnHover = async (reason: string) => {
      expect(addButton).toBeDisabled();
      await user.hover(addButton.parentElement!);
      expect(
        await screen.findByRole('tooltip', { name: reason }),
      ).toBeInTheDocument();
      await user.unhover(addButton.parentElement!);
    };

    await reasonOnHover('Fill in first: Name, Id, AWS account id.');
    await user.type(screen.getByLabelText(/^Name/), 'Data Lake');
    await reasonOnHover('Fill in first: AWS account id.');
    await user.type(screen.getByLabelText(/^AWS account id/), '1234');
    await reasonOnHover('Correct the fields marked in red first.');
  });

  it('offers the template download alone when the service has no quick-create link', async () => {
    server.use(
      http.get<{ id: string }>(
        `${baseUrl}/cloud-accounts/:id/template-url`,
        ({ params }) =>
          HttpResponse.json({
            data: { templateUrl: templateUrl(params.id), version: 'v3' },
          }),
      ),
    );
    const user = userEvent.setup();
    await renderPage();

    const dialog = await createAnalytics(user);

    expect(
      await within(dialog).findByRole('link', {
        name: 'Download the template',
      }),
    ).toHaveAttribute('href', templateUrl('ca-new'));
    expect(
      within(dialog).queryByRole('link', { name: 'Launch in the AWS console' }),
    ).not.toBeInTheDocument();
    // What to do with the file, in the person's words, not the portal's configuration.
    expect(
      within(dialog).getByText(
        /in the AWS console open CloudFormation, choose Create stack and upload it/,
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).queryByText(/template bucket/),
    ).not.toBeInTheDocument();
  });

  it('connects with the local driver', async () => {
    server.use(
      http.post(`${baseUrl}/cloud-accounts/ca-new/connect-local`, () => {
        accounts = accounts.map(a =>
          a.id === created.id ? connectedCreated : a,
        );
        return HttpResponse.json({ data: connectedCreated });
      }),
    );
    const user = userEvent.setup();
    await renderPage();

    const dialog = await createAnalytics(user);
    const connectLocally = await within(dialog).findByRole('button', {
      name: 'Connect with the local driver',
    });
    expect(requestsTo('POST', '/cloud-accounts/ca-new/connect-local')).toEqual(
      [],
    );

    await user.click(connectLocally);

    await waitFor(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent(
        `Analytics is connected with role ${roleArn(
          '444455556666',
        )} (policy version v3).`,
      ),
    );
    expect(
      requestsTo('POST', '/cloud-accounts/ca-new/connect-local'),
    ).toHaveLength(1);
    // The launch instructions go; what comes next is said instead (no stack template in
    // this app: where a stack names the account).
    expect(connectLocally).not.toBeInTheDocument();
    expect(
      within(dialog).queryByText(/Launch the CloudFormation stack/),
    ).not.toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'Stacks deploy into it once they name it as their cloud account: choose it when you create a stack, or in an existing stack’s settings (its Stacks tab).',
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).queryByRole('button', { name: /Create a stack/ }),
    ).not.toBeInTheDocument();

    // The list behind the dialog shows the account connected at once: it said CONNECT, under
    // a dialog saying the account was connected, until Done was pressed.
    const analyticsRow = () => screen.getByText('Analytics').closest('tr')!;
    await waitFor(() =>
      expect(within(analyticsRow()).getByText('Connected')).toBeInTheDocument(),
    );
    expect(
      within(analyticsRow()).queryByRole('button', {
        name: /^Connect /,
        hidden: true,
      }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    // Done closes the dialog; the account stays connected.
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(within(analyticsRow()).getByText('Connected')).toBeInTheDocument();
  });

  it('offers a stack in the account once connected, where the app has the stack template', async () => {
    server.use(
      http.post(`${baseUrl}/cloud-accounts/ca-new/connect-local`, () =>
        HttpResponse.json({ data: connectedCreated }),
      ),
    );
    const user = userEvent.setup();
    await renderPage({
      '/create/templates/:namespace/:templateName': createStackRouteRef,
    });

    const dialog = await createAnalytics(user);
    await user.click(
      await within(dialog).findByRole('button', {
        name: 'Connect with the local driver',
      }),
    );

    const next = await within(dialog).findByRole('button', {
      name: 'Create a stack in Analytics',
    });
    const href = new URL(next.getAttribute('href')!, 'http://localhost');
    expect(href.pathname).toBe(
      '/create/templates/default/infra-delivery-stack',
    );
    // The template's cloud account field, as its picker fills it in.
    expect(JSON.parse(href.searchParams.get('formData')!)).toEqual({
      cloudAccount: { id: 'ca-new', name: 'Analytics · 444455556666' },
    });
  });

  it('shows the ErrorBody when the local driver refuses', async () => {
    server.use(
      http.post(`${baseUrl}/cloud-accounts/ca-new/connect-local`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:CloudAccount:LOCAL_DRIVER_DISABLED',
          message: 'The local cloud driver is not enabled',
          requestId: 'req-local-409',
        }),
      ),
    );
    const user = userEvent.setup();
    await renderPage();

    const dialog = await createAnalytics(user);
    await user.click(
      await within(dialog).findByRole('button', {
        name: 'Connect with the local driver',
      }),
    );

    expect(
      await within(dialog).findByText('The local cloud driver is not enabled'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'InfraDelivery:CloudAccount:LOCAL_DRIVER_DISABLED · Request id: req-local-409',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Once the stack has created the role, it reports back and this says so.',
    );
  });

  it('watches the account every 3 s until the stack has connected it', async () => {
    fakeIntervals();
    let answers = 0;
    server.use(
      http.get(`${baseUrl}/cloud-accounts/ca-new`, () => {
        answers += 1;
        // The stack reports back between the second and the third look.
        return HttpResponse.json({
          data: answers < 3 ? created : connectedCreated,
        });
      }),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await renderPage();

    const dialog = await createAnalytics(user);
    await within(dialog).findByRole('link', {
      name: 'Launch in the AWS console',
    });
    const polls = () => requestsTo('GET', '/cloud-accounts/ca-new');
    expect(polls()).toEqual([]);

    // Nothing before the first 3 s have passed.
    advance(2999);
    await settle();
    expect(polls()).toEqual([]);

    advance(1);
    await eventually(() => expect(polls()).toHaveLength(1));
    await settle();
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Once the stack has created the role, it reports back and this says so.',
    );

    advance(3000);
    await eventually(() => expect(polls()).toHaveLength(2));
    await settle();
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Once the stack has created the role, it reports back and this says so.',
    );

    advance(3000);
    await eventually(() =>
      expect(within(dialog).getByRole('status')).toHaveTextContent(
        `Analytics is connected with role ${roleArn(
          '444455556666',
        )} (policy version v3).`,
      ),
    );
    expect(polls()).toHaveLength(3);
    expect(
      within(dialog).queryByRole('button', {
        name: 'Connect with the local driver',
      }),
    ).not.toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Done' }),
    ).toBeInTheDocument();

    // Once connected, it stops asking.
    advance(30_000);
    await settle();
    expect(polls()).toHaveLength(3);
  });

  it('stops watching when the dialog is closed', async () => {
    fakeIntervals();
    server.use(
      http.get(`${baseUrl}/cloud-accounts/ca-awaiting`, () =>
        HttpResponse.json({ data: awaiting }),
      ),
    );
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await renderPage();

    const row = await rowOf('Sandbox');
    await user.click(within(row).getByRole('button', { name: /^Connect / }));
    const dialog = await screen.findByRole('dialog');
    advance(3000);
    await eventually(() =>
      expect(requestsTo('GET', '/cloud-accounts/ca-awaiting')).toHaveLength(1),
    );
    await settle();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    advance(30_000);
    await settle();
    expect(requestsTo('GET', '/cloud-accounts/ca-awaiting')).toHaveLength(1);
  });

  it('says a name the service refuses beside the Name field', async () => {
    server.use(
      http.post(`${baseUrl}/cloud-accounts`, () =>
        errorResponse(400, {
          code: 'InfraDelivery:Request:VALIDATION_FAILED',
          message: 'The request body is not valid',
          details: [
            {
              title: 'Validation issues',
              render: 'list',
              items: [
                'body.data.name: Too big: expected string to have <=100 characters',
              ],
            },
          ],
          requestId: 'req-1',
        }),
      ),
    );
    const dialog = await submitAnalytics(userEvent.setup());

    const name = within(dialog).getByLabelText(/^Name/);
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription('At most 100 characters');
    expect(screen.queryByText(/VALIDATION_FAILED/)).not.toBeInTheDocument();
  });

  it('shows the ErrorBody when the account cannot be created', async () => {
    server.use(
      http.post(`${baseUrl}/cloud-accounts`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:CloudAccount:ALREADY_EXISTS',
          message: 'A cloud account with id analytics already exists',
          requestId: 'req-create-409',
        }),
      ),
    );
    const dialog = await submitAnalytics(userEvent.setup());

    expect(
      await within(dialog).findByText(
        'A cloud account with id analytics already exists',
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'InfraDelivery:CloudAccount:ALREADY_EXISTS · Request id: req-create-409',
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('Error: The account could not be added'),
    ).toBeInTheDocument();
    // The Add dialog stays open, and no connect dialog opens.
    expect(screen.getAllByRole('dialog')).toEqual([dialog]);
    // What was typed stays, to correct it.
    expect(screen.getByLabelText(/^Id/)).toHaveValue('analytics');
    expect(requestsTo('POST', '/cloud-accounts')).toHaveLength(1);
    expect(requests().filter(r => r.path.includes('template-url'))).toEqual([]);
  });
});

describe('roleNameOf', () => {
  it('names a role by its name, without its path', () => {
    expect(
      roleNameOf('arn:aws:iam::111111111111:role/infra-delivery/deployer'),
    ).toBe('deployer');
    expect(roleNameOf('arn:aws:iam::111111111111:role/deployer')).toBe(
      'deployer',
    );
    expect(roleNameOf('not-an-arn')).toBe('not-an-arn');
  });
});
