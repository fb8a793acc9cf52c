import { renderInTestApp } from '@backstage/frontend-test-utils';
import { Runner } from '@infra-delivery/plugin-infra-delivery-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { infraDeliveryApiRef } from '../../api';
import {
  baseUrl,
  client,
  gitSelfHostedServer,
  errorResponse,
  list,
  now,
  runner,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  ownerMembership as membership,
  runnerServiceAccount as account,
} from '../../__testUtils__/organizationFixtures';
import { repository } from '../../__testUtils__/moduleFixtures';
import {
  movableClock,
  saysNoAnswerAfterWaiting,
} from '../../__testUtils__/unansweredService';
import { OrganizationSettingsPage } from './OrganizationSettingsPage';

const developer = {
  ...membership,
  id: 'm2',
  email: 'dev@example.com',
  role: 'MEMBER',
  userId: 'u2',
};
const apiKey = {
  id: 'k1',
  organizationId: 'o1',
  name: 'laptop',
  keySuffix: 'AbCd',
  ownerType: 'MEMBERSHIP',
  ownerId: 'm1',
  createdById: 'm1',
  createdAt: now,
  updatedAt: now,
};

const gitServer = gitSelfHostedServer();

// Five cards with their tables render for every test, then a dialog opens: about 9 s on a
// quiet 2-core machine, and twice that beside other test files on a loaded one.
jest.setTimeout(60_000);

describe('OrganizationSettingsPage', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/memberships`, () =>
        HttpResponse.json(list([membership, developer])),
      ),
      http.get(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(list([account])),
      ),
      http.get(`${baseUrl}/api-keys`, () => HttpResponse.json(list([apiKey]))),
      http.get(`${baseUrl}/gitforge/self-hosted`, () =>
        HttpResponse.json(list([gitServer])),
      ),
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list([repository])),
      ),
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([runner({ runnerId: 'runner-ci-1', hostname: 'build-1' })]),
        ),
      ),
    );
  });

  const renderPage = () =>
    renderInTestApp(<OrganizationSettingsPage />, {
      apis: [[infraDeliveryApiRef, client]],
    });

  /** Presses a card's header button (Invite member, Create API key…); the dialog it opens. */
  const openDialog = async (button: string) => {
    await userEvent.click(await screen.findByRole('button', { name: button }));
    return screen.findByRole('dialog');
  };

  it('lists members, service accounts and keys without their secrets', async () => {
    await renderPage();
    expect(
      (await screen.findAllByText('owner@example.com'))[0],
    ).toBeInTheDocument();
    expect(screen.getAllByText('ci-runner').length).toBeGreaterThan(0);
    // A member who signed up has joined, whatever their role.
    const developerRow = screen
      .getAllByText('dev@example.com')[0]
      .closest('tr') as HTMLElement;
    expect(within(developerRow).getByText('Joined')).toBeInTheDocument();
    expect(screen.getByText('…AbCd')).toBeInTheDocument();
    // Never used, and never expires.
    expect(
      within(
        screen.getByText('…AbCd').closest('tr') as HTMLElement,
      ).getAllByText('never'),
    ).toHaveLength(2);
    // A member's key is named after its member.
    const keyRow = screen.getByText('laptop').closest('tr') as HTMLElement;
    expect(
      await within(keyRow).findByText('owner@example.com'),
    ).toBeInTheDocument();
    // Every card offers what the caller's role allows: they ask for it once, together.
    expect(
      await screen.findByRole('button', { name: 'Connect a runner' }),
    ).toBeInTheDocument();
    expect(requestsTo('GET', '/me')).toHaveLength(1);
    // The members are read once for the page: their card and the keys' owners.
    expect(requestsTo('GET', '/memberships')).toHaveLength(1);
  });

  it("lists the organization's runners in a card of their own", async () => {
    await renderPage();
    const card = (await screen.findByText('Runners')).closest(
      '.MuiCard-root',
    ) as HTMLElement;
    const row = (await within(card).findByText('runner-ci-1')).closest('tr')!;
    expect(within(row).getByText('Online')).toBeInTheDocument();
    expect(within(row).getByText('on build-1')).toBeInTheDocument();
    expect(
      await within(card).findByRole('button', { name: 'Connect a runner' }),
    ).toBeInTheDocument();
  });

  it('lists self-hosted git servers with the caller’s login and a link to log in, and the callback to register', async () => {
    await renderPage();
    const card = (await screen.findByText('Self-hosted git servers')).closest(
      '.MuiCard-root',
    ) as HTMLElement;
    const row = (await within(card).findByText('Corporate GitHub')).closest(
      'tr',
    )!;
    expect(within(row).getByText('Not logged in')).toBeInTheDocument();
    const logIn = within(row).getByText('Log in').closest('a')!;
    expect(logIn).toHaveAttribute('href', '/infra-delivery/gitforge/gs1/login');
    expect(logIn).toHaveAccessibleName('Log in to Corporate GitHub');
    // The callback URL to give the OAuth app, where a server is registered.
    await userEvent.click(
      within(card).getByRole('button', { name: 'Register server' }),
    );
    expect(
      within(await screen.findByRole('dialog')).getByText(
        `${window.location.origin}/infra-delivery/gitforge/callback`,
      ),
    ).toBeInTheDocument();
  });

  it('lists the connected repositories in a card of their own, beside the self-hosted servers', async () => {
    await renderPage();
    const card = (await screen.findByText('Code sources')).closest(
      '.MuiCard-root',
    ) as HTMLElement;
    const row = (await within(card).findByText('acme/modules')).closest('tr')!;
    expect(within(row).getByText('main')).toBeInTheDocument();
    expect(card.closest('#code-sources')).not.toBeNull();
    expect(card.closest('#code-sources')!.nextElementSibling?.id).toBe(
      'self-hosted-servers',
    );
  });

  it('keeps the self-hosted servers’ button labels whole, stacking them where the row is narrow', async () => {
    await renderPage();
    const card = (await screen.findByText('Self-hosted git servers')).closest(
      '.MuiCard-root',
    ) as HTMLElement;
    const row = (await within(card).findByText('Corporate GitHub')).closest(
      'tr',
    )!;
    // At 1,024 px they read "LOG / IN" and "REMOV / E / SERVE / R".
    const actions = within(row).getByText('Log in').closest('a')!
      .parentElement!;
    expect(actions).toHaveStyle({ flexWrap: 'wrap', whiteSpace: 'nowrap' });
    expect(
      within(row).getByRole('button', {
        name: 'Remove server Corporate GitHub',
      }),
    ).toHaveStyle({
      whiteSpace: 'nowrap',
    });
  });

  it('shows a new API key once, for a chosen service account', async () => {
    server.use(
      http.post(`${baseUrl}/api-keys`, () =>
        HttpResponse.json(
          {
            data: {
              ...apiKey,
              id: 'k2',
              name: 'runner',
              key: 'idk_secretvalue1234',
            },
          },
          { status: 201 },
        ),
      ),
    );
    await renderPage();
    await screen.findByText('…AbCd');
    const form = await openDialog('Create API key');
    await userEvent.click(within(form).getByLabelText('For'));
    await userEvent.click(
      await screen.findByRole('option', { name: 'ci-runner' }),
    );
    // Enter in the name creates the key, as the button does.
    await userEvent.type(within(form).getByLabelText(/^Name/), 'runner{Enter}');

    const dialog = await screen.findByRole('dialog', { name: 'New API key' });
    expect(within(dialog).getByLabelText('secret value')).toHaveValue(
      'idk_secretvalue1234',
    );
    // What the key is for: the API the portal calls, and runners.
    expect(
      await within(dialog).findByText(
        /^curl -H "Authorization: Bearer \$KEY" http:\/\/\S+\/api\/infra-delivery\/stacks$/,
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('INFRA_DELIVERY_RUNNER_TOKEN'),
    ).toBeInTheDocument();
    // A key expires after 90 days unless the person chooses otherwise.
    const [created] = requestsTo('POST', '/api-keys');
    expect(created.body).toEqual({
      data: {
        name: 'runner',
        expiresAt: expect.any(String),
        ownerType: 'SERVICE_ACCOUNT',
        ownerId: 'sa1',
      },
    });
    const days =
      (Date.parse(
        (created.body as { data: { expiresAt: string } }).data.expiresAt,
      ) -
        Date.now()) /
      86_400_000;
    expect(Math.round(days)).toBe(90);

    // Escape does not close it: the key could not be read again.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText },
      configurable: true,
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('idk_secretvalue1234');
    expect(
      within(dialog).getByText('Copied to the clipboard.'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Copied' }),
    ).toBeInTheDocument();
    Object.defineProperty(navigator, 'clipboard', {
      value: undefined,
      configurable: true,
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(
        screen.queryByDisplayValue('idk_secretvalue1234'),
      ).not.toBeInTheDocument(),
    );
  });

  it('creates a key that never expires on request, and says which keys expired', async () => {
    server.use(
      http.get(`${baseUrl}/api-keys`, () =>
        HttpResponse.json(
          list([
            apiKey,
            {
              ...apiKey,
              id: 'k-old',
              name: 'old-ci',
              keySuffix: 'Zz99',
              expiresAt: '2026-01-01T00:00:00.000Z',
            },
          ]),
        ),
      ),
      http.post(`${baseUrl}/api-keys`, () =>
        HttpResponse.json(
          { data: { ...apiKey, id: 'k2', name: 'forever', key: 'idk_x' } },
          { status: 201 },
        ),
      ),
    );
    await renderPage();
    const card = (await screen.findByText('…Zz99')).closest(
      '.MuiCard-root',
    ) as HTMLElement;
    const oldRow = within(card).getByText('…Zz99').closest('tr') as HTMLElement;
    expect(within(oldRow).getByText(/^expired/)).toBeInTheDocument();

    const form = await openDialog('Create API key');
    await userEvent.click(within(form).getByLabelText('Expires after'));
    await userEvent.click(await screen.findByRole('option', { name: 'Never' }));
    await userEvent.type(
      within(form).getByLabelText(/^Name/),
      'forever{Enter}',
    );
    await screen.findByRole('dialog', { name: 'New API key' });
    expect(requestsTo('POST', '/api-keys')[0].body).toEqual({
      data: { name: 'forever' },
    });
  });

  it('invites a member and shows the invitation token once', async () => {
    server.use(
      http.post(`${baseUrl}/memberships`, () =>
        HttpResponse.json(
          {
            data: {
              ...membership,
              id: 'm2',
              email: 'new@example.com',
              role: 'VIEWER',
              userId: undefined,
              invitationToken: 'idi_token123',
            },
          },
          { status: 201 },
        ),
      ),
    );
    await renderPage();
    await screen.findAllByText('owner@example.com');
    const form = await openDialog('Invite member');
    await userEvent.type(
      within(form).getByLabelText(/^Email/),
      'new@example.com',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Invitation token',
    });
    expect(within(dialog).getByLabelText('secret value')).toHaveValue(
      'idi_token123',
    );
    expect(requestsTo('POST', '/memberships')[0].body).toEqual({
      data: { email: 'new@example.com', role: 'MEMBER' },
    });
  });

  it('shows what the service refuses beside the field it names', async () => {
    server.use(
      http.post(`${baseUrl}/memberships`, () =>
        HttpResponse.json(
          {
            code: 'InfraDelivery:Request:VALIDATION_FAILED',
            message: 'The request body is not valid',
            details: [
              {
                title: 'Validation issues',
                render: 'list',
                items: ['body.data.email: Invalid email address'],
              },
            ],
            requestId: 'req-1',
          },
          { status: 400 },
        ),
      ),
    );
    await renderPage();
    await screen.findAllByText('owner@example.com');
    const email = within(await openDialog('Invite member')).getByLabelText(
      /^Email/,
    );
    await userEvent.type(email, 'not-an-email{Enter}');

    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(
      document.getElementById(email.getAttribute('aria-describedby')!),
    ).toHaveTextContent('Invalid email address');
    // Said once, where it is: no panel of codes and request ids under the row.
    expect(screen.queryByText(/VALIDATION_FAILED/)).not.toBeInTheDocument();
    expect(email).toHaveValue('not-an-email');
  });

  it('lists the service account and key a connected runner got once its dialog closes', async () => {
    server.use(
      http.post(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(
          { data: { ...account, id: 'sa9', name: 'Runner' } },
          { status: 201 },
        ),
      ),
      http.post(`${baseUrl}/api-keys`, () =>
        HttpResponse.json(
          { data: { ...apiKey, id: 'k9', key: 'idk_runnerkey' } },
          { status: 201 },
        ),
      ),
    );
    await renderPage();
    await screen.findByText('runner-ci-1');
    const accountLoads = requestsTo('GET', '/service-accounts').length;
    const keyLoads = requestsTo('GET', '/api-keys').length;

    await userEvent.click(
      screen.getByRole('button', { name: 'Connect a runner' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Create the key' }),
    );
    await userEvent.click(
      await within(dialog).findByRole('button', { name: 'Done' }),
    );

    await waitFor(() =>
      expect(requestsTo('GET', '/service-accounts').length).toBeGreaterThan(
        accountLoads,
      ),
    );
    await waitFor(() =>
      expect(requestsTo('GET', '/api-keys').length).toBeGreaterThan(keyLoads),
    );
  });

  it('revokes a key only after confirmation', async () => {
    server.use(
      http.delete(
        `${baseUrl}/api-keys/k1`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    await renderPage();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Revoke laptop' }),
    );
    expect(requestsTo('DELETE', '/api-keys/k1')).toHaveLength(0);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Revoke' }),
    );
    await waitFor(() =>
      expect(requestsTo('DELETE', '/api-keys/k1')).toHaveLength(1),
    );
  });

  it('keeps the keys when their reload after a revocation gets no answer, and says so', async () => {
    const time = movableClock();
    try {
      server.use(
        http.delete(`${baseUrl}/api-keys/k1`, () => {
          // The key is revoked just before the backend stops.
          server.use(
            http.get(`${baseUrl}/api-keys`, () => HttpResponse.error()),
          );
          return new HttpResponse(null, { status: 204 });
        }),
      );
      await renderPage();
      await userEvent.click(
        await screen.findByRole('button', { name: 'Revoke laptop' }),
      );
      const dialog = await screen.findByRole('dialog');
      await userEvent.click(
        within(dialog).getByRole('button', { name: 'Revoke' }),
      );
      await waitFor(() =>
        expect(requestsTo('GET', '/api-keys').length).toBeGreaterThan(1),
      );

      await saysNoAnswerAfterWaiting(time.later);
      expect(screen.getByText('laptop')).toBeInTheDocument();
      expect(
        screen.queryByText('Could not reach the infrastructure service'),
      ).not.toBeInTheDocument();
    } finally {
      time.restore();
    }
  });

  it('shows the ErrorBody when the service refuses', async () => {
    server.use(
      http.post(`${baseUrl}/service-accounts`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          message: 'This needs the ADMIN role; the caller is MEMBER',
          requestId: 'req-777',
        }),
      ),
    );
    await renderPage();
    await screen.findAllByText('owner@example.com');
    const form = await openDialog('Create service account');
    await userEvent.type(within(form).getByLabelText(/^Name/), 'deployer');
    await userEvent.click(within(form).getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText(
        'This needs the ADMIN role; the caller is MEMBER',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/req-777/)).toBeInTheDocument();
  });
  it('says so when there are no service accounts or API keys yet', async () => {
    server.use(
      http.get(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(list([])),
      ),
      http.get(`${baseUrl}/api-keys`, () => HttpResponse.json(list([]))),
    );
    await renderPage();
    expect(
      await screen.findByText(
        'No service accounts yet: create one for a runner or for automation.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
  });

  it('shows the ErrorBody when a list cannot be read', async () => {
    server.use(
      http.get(`${baseUrl}/memberships`, () =>
        errorResponse(500, {
          code: 'InfraDelivery:Membership:INTERNAL',
          message: 'The membership store does not answer',
          requestId: 'req-members-500',
        }),
      ),
    );
    await renderPage();
    expect(
      await screen.findByText('The membership store does not answer'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'InfraDelivery:Membership:INTERNAL · Request id: req-members-500',
      ),
    ).toBeInTheDocument();
    // The other cards still work.
    expect(await screen.findByText('…AbCd')).toBeInTheDocument();
  });

  it('creates a service account with the chosen name and role', async () => {
    server.use(
      http.post(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(
          { data: { ...account, id: 'sa2', name: 'deployer' } },
          { status: 201 },
        ),
      ),
    );
    await renderPage();
    await screen.findAllByText('owner@example.com');
    const loads = requestsTo('GET', '/service-accounts').length;
    const form = await openDialog('Create service account');
    await userEvent.type(within(form).getByLabelText(/^Name/), 'deployer');
    await userEvent.click(within(form).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(requestsTo('POST', '/service-accounts')).toHaveLength(1),
    );
    expect(requestsTo('POST', '/service-accounts')[0].body).toEqual({
      data: { name: 'deployer', role: 'MEMBER' },
    });
    // The list is read again.
    await waitFor(() =>
      expect(requestsTo('GET', '/service-accounts').length).toBeGreaterThan(
        loads,
      ),
    );
  });

  it('deletes a service account only after confirmation', async () => {
    server.use(
      http.delete(
        `${baseUrl}/service-accounts/sa1`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    await renderPage();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete ci-runner' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        'Its API keys are revoked; runners using them stop.',
      ),
    ).toBeInTheDocument();
    // The online runner signs in with another account.
    await waitFor(() =>
      expect(requestsTo('GET', '/runners').length).toBeGreaterThan(1),
    );
    expect(within(dialog).queryByText(/is online/)).not.toBeInTheDocument();
    expect(requestsTo('DELETE', '/service-accounts/sa1')).toHaveLength(0);
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() =>
      expect(requestsTo('DELETE', '/service-accounts/sa1')).toHaveLength(1),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      /is deleted\.$/,
    );
  });

  it('changes a member’s role from the Role column, and shows why when the service refuses', async () => {
    server.use(
      http.patch(`${baseUrl}/memberships/m2`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          message: 'This needs the ADMIN role; the caller is MEMBER',
          requestId: 'r9',
        }),
      ),
    );
    await renderPage();
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Role of dev@example.com: Member',
      }),
    );
    await userEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    await waitFor(() =>
      expect(requestsTo('PATCH', '/memberships/m2')).toHaveLength(1),
    );
    expect(requestsTo('PATCH', '/memberships/m2')[0].body).toEqual({
      data: { role: 'ADMIN' },
    });
    // The reason is in view, not folded away.
    expect(
      await screen.findByText(
        'This needs the ADMIN role; the caller is MEMBER',
      ),
    ).toBeVisible();
    expect(screen.getByText(/The role was not changed/)).toBeVisible();
  });

  it('offers neither to remove nor to demote the last owner, which the service would refuse', async () => {
    await renderPage();
    const ownerRow = (
      await screen.findAllByText('owner@example.com')
    )[0].closest('tr') as HTMLElement;
    expect(
      within(ownerRow).getByText(
        'The last owner: make another member Owner first',
      ),
    ).toBeInTheDocument();
    expect(
      within(ownerRow).queryByRole('button', { name: /^Remove/ }),
    ).not.toBeInTheDocument();
    expect(
      within(ownerRow).getByRole('button', {
        name: 'Role of owner@example.com: Owner',
      }),
    ).toHaveAttribute('aria-disabled', 'true');
    // Another member stays removable.
    const developerRow = screen
      .getByText('dev@example.com')
      .closest('tr') as HTMLElement;
    expect(
      within(developerRow).getByRole('button', {
        name: 'Remove dev@example.com',
      }),
    ).toBeEnabled();
  });

  it('offers to remove an owner while another owner who signed up remains', async () => {
    server.use(
      http.get(`${baseUrl}/memberships`, () =>
        HttpResponse.json(list([membership, { ...developer, role: 'OWNER' }])),
      ),
    );
    await renderPage();
    const ownerRow = (
      await screen.findAllByText('owner@example.com')
    )[0].closest('tr') as HTMLElement;
    expect(
      within(ownerRow).getByRole('button', {
        name: 'Remove owner@example.com',
      }),
    ).toBeEnabled();
    expect(
      screen.queryByText('The last owner: make another member Owner first'),
    ).not.toBeInTheDocument();
  });

  it('removes a member only after confirmation', async () => {
    server.use(
      http.delete(
        `${baseUrl}/memberships/m2`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    await renderPage();
    const developerRow = (await screen.findByText('dev@example.com')).closest(
      'tr',
    ) as HTMLElement;
    await userEvent.click(
      within(developerRow).getByRole('button', {
        name: 'Remove dev@example.com',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Remove dev@example.com?'),
    ).toBeInTheDocument();
    expect(requestsTo('DELETE', '/memberships/m2')).toHaveLength(0);
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() =>
      expect(requestsTo('DELETE', '/memberships/m2')).toHaveLength(1),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'dev@example.com is no longer a member.',
    );
  });

  it('names each row’s action after its row, keeping the visible label', async () => {
    server.use(
      http.get(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(
          list([account, { ...account, id: 'sa2', name: 'deployer' }]),
        ),
      ),
      http.get(`${baseUrl}/api-keys`, () =>
        HttpResponse.json(
          list([apiKey, { ...apiKey, id: 'k2', name: 'ci key' }]),
        ),
      ),
    );
    await renderPage();

    // "Delete" ×2 and "Revoke" ×2 told a screen reader nothing of what they act on.
    for (const name of ['Delete ci-runner', 'Delete deployer']) {
      expect(await screen.findByRole('button', { name })).toHaveTextContent(
        /^Delete$/,
      );
    }
    for (const name of ['Revoke laptop', 'Revoke ci key']) {
      expect(await screen.findByRole('button', { name })).toHaveTextContent(
        /^Revoke$/,
      );
    }
    expect(
      screen.getByRole('button', { name: 'Remove dev@example.com' }),
    ).toHaveTextContent(/^Remove$/);
    expect(
      await screen.findByRole('button', {
        name: 'Remove server Corporate GitHub',
      }),
    ).toHaveTextContent(/^Remove server$/);
  });

  it('withdraws an invitation with words for an invitee, who has no tokens or keys', async () => {
    const invitee = {
      ...developer,
      id: 'm3',
      email: 'dana@example.com',
      userId: undefined,
    };
    server.use(
      http.get(`${baseUrl}/memberships`, () =>
        HttpResponse.json(list([membership, invitee])),
      ),
      http.delete(
        `${baseUrl}/memberships/m3`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    await renderPage();
    const row = (await screen.findByText('dana@example.com')).closest(
      'tr',
    ) as HTMLElement;
    await userEvent.click(
      within(row).getByRole('button', {
        name: 'Withdraw the invitation of dana@example.com',
      }),
    );

    const dialog = await screen.findByRole('dialog', {
      name: 'Withdraw the invitation of dana@example.com?',
    });
    expect(
      within(dialog).getByText('The invitation token stops working.'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/API keys/)).not.toBeInTheDocument();
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Withdraw' }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'The invitation of dana@example.com is withdrawn.',
    );
  });

  it('says what an invitee does with the invitation token', async () => {
    server.use(
      http.post(`${baseUrl}/memberships`, () =>
        HttpResponse.json(
          {
            data: {
              ...developer,
              id: 'm4',
              email: 'new@example.com',
              userId: undefined,
              invitationToken: 'idi_token123',
            },
          },
          { status: 201 },
        ),
      ),
    );
    await renderPage();
    await screen.findAllByText('owner@example.com');
    const form = await openDialog('Invite member');
    await userEvent.type(
      within(form).getByLabelText(/^Email/),
      'new@example.com',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Invite' }));

    const dialog = await screen.findByRole('dialog', {
      name: 'Invitation token',
    });
    expect(dialog).toHaveTextContent(
      'The invitee signs up with it through the API: POST /auth/signup with their email, a password and this token as invitationToken.',
    );
    expect(dialog).toHaveTextContent(
      'People who use the portal need no invitation: infraDelivery.roleMappings gives them their role.',
    );
  });

  it('keeps one action’s outcome on the page: a later action in another card takes it away', async () => {
    server.use(
      http.delete(
        `${baseUrl}/service-accounts/sa1`,
        () => new HttpResponse(null, { status: 204 }),
      ),
      http.post(`${baseUrl}/memberships`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:Membership:ALREADY_EXISTS',
          message: 'dup@example.com is a member or invited already',
          requestId: 'req-dup',
        }),
      ),
    );
    await renderPage();
    const accountsCard = (await screen.findByText('Service accounts')).closest(
      '.MuiCard-root',
    ) as HTMLElement;
    await userEvent.click(
      await within(accountsCard).findByRole('button', {
        name: 'Delete ci-runner',
      }),
    );
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await within(accountsCard).findByRole('status')).toHaveTextContent(
      'ci-runner is deleted.',
    );

    const form = await openDialog('Invite member');
    await userEvent.type(
      within(form).getByLabelText(/^Email/),
      'dup@example.com',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Invite' }));

    // The refusal is said in the dialog, which stays open with what was typed.
    expect(
      await within(form).findByText(
        'dup@example.com is a member or invited already',
      ),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Email/)).toHaveValue(
      'dup@example.com',
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByText('ci-runner is deleted.')).not.toBeInTheDocument();
  });

  /**
   * The page with service account sa1's key "runner key" and `runners`, and that key's revoke
   * dialog open.
   */
  async function openRevokeOfRunnerKey(runners: Runner[]) {
    server.use(
      http.get(`${baseUrl}/api-keys`, () =>
        HttpResponse.json(
          list([
            {
              ...apiKey,
              name: 'runner key',
              ownerType: 'SERVICE_ACCOUNT',
              ownerId: 'sa1',
            },
          ]),
        ),
      ),
      http.get(`${baseUrl}/runners`, () => HttpResponse.json(list(runners))),
    );
    await renderPage();
    await screen.findByText('…AbCd');
    await userEvent.click(
      screen.getByRole('button', { name: 'Revoke runner key' }),
    );
    return screen.findByRole('dialog');
  }

  it('warns that runs wait for a runner when the key or account of the only online runner goes', async () => {
    const revoke = await openRevokeOfRunnerKey([
      runner({ runnerId: 'runner-ci-1', serviceAccountId: 'sa1' }),
      runner({
        runnerId: 'runner-old',
        serviceAccountId: 'sa-other',
        status: 'OFFLINE',
      }),
    ]);
    expect(
      await within(revoke).findByText(
        'Runner runner-ci-1 is online and signs in with this key: it stops, and runs wait until another runner connects.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(
      within(revoke).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );

    const accountsCard = screen
      .getByText('Service accounts')
      .closest('.MuiCard-root') as HTMLElement;
    await userEvent.click(
      within(accountsCard).getByRole('button', { name: 'Delete ci-runner' }),
    );
    const remove = await screen.findByRole('dialog');
    expect(
      await within(remove).findByText(
        'Runner runner-ci-1 is online and signs in with this account: it stops, and runs wait until another runner connects.',
      ),
    ).toBeInTheDocument();
  });

  it('says that the step a runner of the key executes is queued again at once', async () => {
    const revoke = await openRevokeOfRunnerKey([
      runner({
        runnerId: 'runner-ci-1',
        serviceAccountId: 'sa1',
        currentStepExecutionId: 'step-1',
        currentPipelineRunId: 'run-1',
        currentStepName: 'Plan of Network',
      }),
    ]);
    expect(
      await within(revoke).findByText(
        'Runner runner-ci-1 is online and signs in with this key: it stops, and runs wait until another runner connects. Plan of Network is cut short and queued again at once, to start over on the next runner.',
      ),
    ).toBeInTheDocument();
  });

  it('says what a role change did', async () => {
    server.use(
      http.patch(`${baseUrl}/memberships/m2`, () =>
        HttpResponse.json({ data: {} }),
      ),
    );
    await renderPage();
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Role of dev@example.com: Member',
      }),
    );
    await userEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'dev@example.com is now Admin.',
    );
  });
});
