import {
  CodeSource,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  cloudAccount,
  entityNaming,
  errorResponse,
  list,
  now,
  renderEntityContent,
  setupInfraDeliveryServer,
  stack,
  stackList,
} from '../../__testUtils__/infraDeliveryTestKit';
import { StacksContent } from './StacksContent';

jest.setTimeout(20_000);

function codeSource(id: string, repoName: string): CodeSource {
  return {
    id,
    organizationId: 'org-1',
    type: 'HOSTED_FORGE',
    visibility: 'PUBLIC',
    accessLost: false,
    auth: { kind: 'installation', forgeInstallationId: '77' },
    defaultBranch: 'main',
    gitRepositoryId: id,
    repoName,
    repoUrl: `https://github.com/${repoName}`,
    createdAt: now,
    updatedAt: now,
  };
}

const networkRepository = codeSource('cs-network', 'acme/network-infra');
const platformRepository = codeSource('cs-platform', 'acme/platform');
const production = cloudAccount({ id: 'ca-prod', name: 'Production' });
const staging = cloudAccount({ id: 'ca-staging', name: 'Staging' });

describe('a stack’s settings in its drawer', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  let current: Stack;

  beforeEach(() => {
    // Created by the template with a typo in its working directory: every run fails.
    current = stack({
      id: 'stack-network',
      name: 'Network',
      description: 'VPC and subnets',
      codeSourceId: networkRepository.id,
      path: 'infra/netwrk',
      cloudAccountId: production.id,
      driftCheckIntervalHours: 24,
    });
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
      stackList(() => [current]),
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/iac-resources`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list([networkRepository, platformRepository])),
      ),
      http.get(`${baseUrl}/cloud-accounts`, () =>
        HttpResponse.json(list([production, staging])),
      ),
      http.patch(`${baseUrl}/stacks/:id`, async ({ request }) => {
        const { data } = (await request.json()) as {
          data: Record<string, unknown>;
        };
        const patched: Record<string, unknown> = { ...current, ...data };
        for (const key of Object.keys(data)) {
          if (data[key] === null) delete patched[key];
        }
        current = patched as Stack;
        return HttpResponse.json({ data: current });
      }),
    );
  });

  /** Opens the stack's drawer from its row, as it first shows. */
  const showDrawer = async () => {
    renderEntityContent(<StacksContent />, entityNaming(current.id));
    await userEvent.click(
      within((await screen.findByText('Network')).closest('tr')!).getByRole(
        'button',
        { name: /^Details of / },
      ),
    );
    return screen.findByRole('dialog', { name: 'Network' });
  };

  const openDrawer = async () => {
    const drawer = await showDrawer();
    // Its buttons are greyed until the caller's permissions are read.
    await waitFor(() =>
      expect(
        within(drawer).getByRole('button', { name: 'Edit settings' }),
      ).toBeEnabled(),
    );
    return drawer;
  };

  it('keeps the place of its buttons while the caller’s role is read: greyed, then offered', async () => {
    let answerMe: () => void = () => {};
    const meAnswered = new Promise<void>(resolve => {
      answerMe = resolve;
    });
    server.use(
      http.get(`${baseUrl}/me`, async () => {
        await meAnswered;
        return HttpResponse.json({
          data: { organizationId: 'org-1', role: 'OWNER' },
        });
      }),
    );
    const drawer = await showDrawer();

    // Drawn with the drawer, not a moment after it, pushing what is under them down.
    for (const name of [
      'Edit settings',
      'Follow a repository',
      'Check for drift',
    ]) {
      expect(
        await within(drawer).findByRole('button', { name }),
      ).toBeDisabled();
    }
    await userEvent.hover(
      within(drawer).getByRole('button', { name: 'Edit settings' })
        .parentElement!,
    );
    expect(
      await screen.findByRole('tooltip', {
        name: 'Checking your permissions…',
      }),
    ).toBeInTheDocument();

    answerMe();
    await waitFor(() =>
      expect(
        within(drawer).getByRole('button', { name: 'Edit settings' }),
      ).toBeEnabled(),
    );
    expect(
      within(drawer).getByRole('button', { name: 'Follow a repository' }),
    ).toBeEnabled();
  });

  /** Opens the settings dialog from the drawer, opening the drawer first without one. */
  const openSettings = async (opened?: HTMLElement) => {
    const drawer = opened ?? (await openDrawer());
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'Edit settings' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Settings of Network',
    });
    // The choices are read when the dialog opens.
    await within(dialog).findByLabelText(/^Code source/);
    return { drawer, dialog };
  };

  /** Picks an option of one of the dialog's selects. */
  async function choose(dialog: HTMLElement, label: RegExp, option: string) {
    await userEvent.click(within(dialog).getByLabelText(label));
    const listbox = await screen.findByRole('listbox');
    await userEvent.click(
      within(listbox).getByRole('option', { name: option }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument(),
    );
  }

  /** The helper text said under a field. */
  const helpOf = (field: HTMLElement) =>
    document.getElementById(field.getAttribute('aria-describedby')!);

  it('shows the working directory, and corrects it, sending only what changed', async () => {
    const drawer = await openDrawer();
    const settings = within(drawer).getByRole('region', { name: 'Settings' });
    expect(within(settings).getByText('infra/netwrk')).toBeInTheDocument();
    expect(
      within(settings).getByText(/Plans apply after an approval/),
    ).toBeInTheDocument();

    const { dialog } = await openSettings(drawer);
    // Pre-filled with the stack's settings; nothing to save yet.
    expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('Network');
    expect(within(dialog).getByLabelText('Description')).toHaveValue(
      'VPC and subnets',
    );
    expect(within(dialog).getByLabelText(/^Code source/)).toHaveTextContent(
      'acme/network-infra',
    );
    expect(within(dialog).getByLabelText(/^Cloud account/)).toHaveTextContent(
      'Production',
    );
    expect(
      within(dialog).getByLabelText('Hours between drift checks'),
    ).toHaveValue('24');
    expect(
      within(dialog).getByRole('checkbox', {
        name: 'Apply plans without approval',
      }),
    ).not.toBeChecked();
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    const path = within(dialog).getByLabelText('Working directory');
    expect(path).toHaveValue('infra/netwrk');
    await userEvent.clear(path);
    await userEvent.type(path, 'infra/network');
    await userEvent.click(
      within(dialog).getByRole('checkbox', {
        name: 'Apply plans without approval',
      }),
    );
    await userEvent.click(save);

    await waitFor(() =>
      expect(requestsTo('PATCH', `/stacks/${current.id}`)).toHaveLength(1),
    );
    expect(requestsTo('PATCH', `/stacks/${current.id}`)[0].body).toEqual({
      data: { path: 'infra/network', autoApprove: true },
    });
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Settings of Network' }),
      ).not.toBeInTheDocument(),
    );
    const drawerAgain = await screen.findByRole('dialog', { name: 'Network' });
    expect(
      await within(drawerAgain).findByText(
        'Network: working directory and approval changed.',
      ),
    ).toBeInTheDocument();
    // The drawer shows the stack as the table read it again.
    const settingsAgain = within(drawerAgain).getByRole('region', {
      name: 'Settings',
    });
    expect(
      await within(settingsAgain).findByText('infra/network'),
    ).toBeInTheDocument();
    expect(
      within(settingsAgain).getByText(/Plans apply without approval/),
    ).toBeInTheDocument();
  });

  it('shows which runners may plan the stack, and requires runner labels of them', async () => {
    const drawer = await openDrawer();
    const settings = within(drawer).getByRole('region', { name: 'Settings' });
    expect(within(settings).getByText(/Any runner/)).toBeInTheDocument();

    const { dialog } = await openSettings(drawer);
    const labels = within(dialog).getByLabelText('Runner labels');
    expect(labels).toHaveValue('');
    await userEvent.type(labels, 'env=prod, -x');
    expect(helpOf(labels)).toHaveTextContent('"-x" is not a label');
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.clear(labels);
    await userEvent.type(labels, 'region=eu env=prod');
    await userEvent.click(save);

    await waitFor(() =>
      expect(requestsTo('PATCH', `/stacks/${current.id}`)).toHaveLength(1),
    );
    expect(requestsTo('PATCH', `/stacks/${current.id}`)[0].body).toEqual({
      data: { runnerLabels: ['env=prod', 'region=eu'] },
    });
    const drawerAgain = await screen.findByRole('dialog', { name: 'Network' });
    expect(
      await within(drawerAgain).findByText('Network: runner labels changed.'),
    ).toBeInTheDocument();
    expect(
      await within(drawerAgain).findByText('env=prod, region=eu'),
    ).toBeInTheDocument();
  });

  it('moves a stack to another repository, detaches its account and stops scheduled drift checks', async () => {
    const { dialog } = await openSettings();
    // The service cannot take a code source away: no None once the stack has one.
    await userEvent.click(within(dialog).getByLabelText(/^Code source/));
    const sources = await screen.findByRole('listbox');
    expect(
      within(sources).queryByRole('option', { name: 'None' }),
    ).not.toBeInTheDocument();
    await userEvent.click(
      within(sources).getByRole('option', { name: 'acme/platform' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument(),
    );
    await choose(dialog, /^Cloud account/, 'None');
    await userEvent.clear(
      within(dialog).getByLabelText('Hours between drift checks'),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(requestsTo('PATCH', `/stacks/${current.id}`)).toHaveLength(1),
    );
    expect(requestsTo('PATCH', `/stacks/${current.id}`)[0].body).toEqual({
      data: {
        codeSourceId: platformRepository.id,
        cloudAccountId: null,
        driftCheckIntervalHours: null,
      },
    });
    const drawer = await screen.findByRole('dialog', { name: 'Network' });
    expect(
      await within(drawer).findByText(
        'Network: code source, cloud account and drift check schedule changed.',
      ),
    ).toBeInTheDocument();
  });

  it('says beside the field what the service refuses, and keeps what was typed', async () => {
    server.use(
      http.patch(`${baseUrl}/stacks/:id`, () =>
        errorResponse(400, {
          code: 'InfraDelivery:Request:VALIDATION_FAILED',
          message: 'The request body is not valid',
          details: [
            {
              title: 'Validation issues',
              render: 'list',
              items: [
                'body.data.path: must be a directory inside the repository (no `.` or `..` segments)',
              ],
            },
          ],
          requestId: 'req-1',
        }),
      ),
    );
    const { dialog } = await openSettings();
    const path = within(dialog).getByLabelText('Working directory');
    await userEvent.clear(path);
    await userEvent.type(path, '../shared{Enter}');

    await waitFor(() => expect(path).toHaveAttribute('aria-invalid', 'true'));
    expect(helpOf(path)).toHaveTextContent(
      'must be a directory inside the repository',
    );
    expect(path).toHaveValue('../shared');
    // Said once, where it is: no panel of codes and request ids.
    expect(
      within(dialog).queryByText(/VALIDATION_FAILED/),
    ).not.toBeInTheDocument();
  });

  it('shows a refusal that names no field with the service’s message', async () => {
    server.use(
      http.patch(`${baseUrl}/stacks/:id`, () =>
        errorResponse(404, {
          code: 'InfraDelivery:CodeSource:NOT_FOUND',
          message: 'CodeSource cs-platform was not found',
          requestId: 'req-2',
        }),
      ),
    );
    const { dialog } = await openSettings();
    await choose(dialog, /^Code source/, 'acme/platform');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(
      await within(dialog).findByText('Error: The settings could not be saved'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('CodeSource cs-platform was not found'),
    ).toBeInTheDocument();
  });

  it('says at once that drift check hours must be whole, and saves nothing until they are', async () => {
    const { dialog } = await openSettings();
    const hours = within(dialog).getByLabelText('Hours between drift checks');
    await userEvent.clear(hours);
    await userEvent.type(hours, '1.5');

    expect(hours).toHaveAttribute('aria-invalid', 'true');
    expect(helpOf(hours)).toHaveTextContent(/^Whole hours from 1 to 744/);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(hours, '{Enter}');
    expect(requestsTo('PATCH', `/stacks/${current.id}`)).toHaveLength(0);
  });

  it('offers None for the code source of a stack without one, whose code is in the runner’s source root', async () => {
    current = { ...current, codeSourceId: undefined, path: undefined };
    const drawer = await openDrawer();
    expect(
      within(
        within(drawer).getByRole('region', { name: 'Settings' }),
      ).getByText(/the runner’s source root/),
    ).toBeInTheDocument();
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Edit settings' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Settings of Network',
    });
    const source = await within(dialog).findByLabelText(/^Code source/);
    expect(source).toHaveTextContent('None');
    await userEvent.click(source);
    expect(
      within(await screen.findByRole('listbox')).getAllByRole('option'),
    ).toHaveLength(3);
  });
});
