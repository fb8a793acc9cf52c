import {
  CodeSource,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  list,
  now,
  renderEntityContent,
  renderWithService,
  setupInfraDeliveryServer,
  stackList,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import { StacksContent } from '../StacksContent';
import { GitTriggerDialog, parsePathFilters } from './GitTriggerDialog';
import { rootRouteRef } from '../../routes';
import { StackGitTriggerSection } from './StackGitTriggerSection';

jest.setTimeout(20_000);

const repository: CodeSource = {
  id: 'cs-network',
  organizationId: 'org-1',
  type: 'HOSTED_FORGE',
  visibility: 'PUBLIC',
  accessLost: false,
  auth: { kind: 'installation', forgeInstallationId: '77' },
  defaultBranch: 'trunk',
  gitRepositoryId: '1001',
  repoName: 'acme/network-infra',
  repoUrl: 'https://github.com/acme/network-infra',
  createdAt: now,
  updatedAt: now,
};

describe('a stack’s trigger rules in its drawer', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  let current: Stack;

  beforeEach(() => {
    current = stack({ id: 'stack-network', name: 'Network', path: 'network' });
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
      stackList(() => [current]),
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/iac-resources`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list([repository])),
      ),
      http.patch(`${baseUrl}/stacks/:id`, async ({ request }) => {
        const { data } = (await request.json()) as {
          data: Partial<Stack> & { gitTrigger?: Stack['gitTrigger'] | null };
        };
        current = {
          ...current,
          codeSourceId: data.codeSourceId ?? current.codeSourceId,
          gitTrigger: data.gitTrigger ?? undefined,
        };
        return HttpResponse.json({ data: current });
      }),
    );
  });

  const openDrawer = async () => {
    renderEntityContent(<StacksContent />, entityNaming(current.id));
    await userEvent.click(
      within((await screen.findByText('Network')).closest('tr')!).getByRole(
        'button',
        { name: /^Details of / },
      ),
    );
    return screen.findByRole('dialog', { name: 'Network' });
  };

  it('makes a stack follow a repository, and says so', async () => {
    const drawer = await openDrawer();
    const rules = within(drawer).getByRole('region', { name: 'Trigger rules' });
    expect(within(rules).getByText(/Runs start by hand/)).toBeInTheDocument();
    await userEvent.click(
      await within(rules).findByRole('button', { name: 'Follow a repository' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Trigger rules of Network',
    });
    // The repository's default branch is offered.
    const branch = within(dialog).getByLabelText('Branch');
    expect(branch).toHaveValue('trunk');
    await userEvent.clear(branch);
    await userEvent.type(branch, 'main');
    await userEvent.type(
      within(dialog).getByLabelText(/Path filters/),
      'infra/network/**, modules/*.tf',
    );
    await userEvent.click(
      within(dialog).getByLabelText(/and a comment with the plan/),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(requestsTo('PATCH', `/stacks/${current.id}`)).toHaveLength(1),
    );
    expect(requestsTo('PATCH', `/stacks/${current.id}`)[0].body).toEqual({
      data: {
        codeSourceId: repository.id,
        gitTrigger: {
          branch: 'main',
          pathFilters: ['infra/network/**', 'modules/*.tf'],
          pushRuns: true,
          pullRequestPlans: true,
          pullRequestComments: true,
        },
      },
    });
    const drawerAgain = await screen.findByRole('dialog', { name: 'Network' });
    expect(
      await within(drawerAgain).findByText(
        /Network follows main of acme\/network-infra/,
      ),
    ).toBeInTheDocument();
    expect(
      await within(drawerAgain).findByRole('link', {
        name: /^acme\/network-infra/,
      }),
    ).toHaveAttribute('href', repository.repoUrl);
  });

  it('stops following, back to runs by hand, once the person confirms what stops', async () => {
    current = {
      ...current,
      codeSourceId: repository.id,
      gitTrigger: {
        branch: 'main',
        pushRuns: true,
        pullRequestPlans: false,
        pullRequestComments: false,
      },
    };
    const drawer = await openDrawer();
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'Edit trigger rules' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Trigger rules of Network',
    });
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Stop following' }),
    );
    // It asked first, saying what stops happening; nothing changed yet.
    const confirm = await screen.findByRole('dialog', {
      name: 'Stop following main?',
    });
    expect(
      within(confirm).getByText(
        'Pushes to main of acme/network-infra no longer start runs of Network.',
      ),
    ).toBeInTheDocument();
    expect(within(confirm).getByText('Runs start by hand only.')).toBeVisible();
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Keep following' }),
    );
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Stop following main?' }),
      ).not.toBeInTheDocument(),
    );
    expect(requestsTo('PATCH', `/stacks/${current.id}`)).toHaveLength(0);

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Stop following' }),
    );
    await userEvent.click(
      within(
        await screen.findByRole('dialog', { name: 'Stop following main?' }),
      ).getByRole('button', { name: 'Stop following' }),
    );
    await waitFor(() =>
      expect(requestsTo('PATCH', `/stacks/${current.id}`)).toHaveLength(1),
    );
    expect(requestsTo('PATCH', `/stacks/${current.id}`)[0].body).toEqual({
      data: { gitTrigger: null },
    });
    expect(
      await screen.findAllByText(/no longer follows a repository/),
    ).not.toHaveLength(0);
  });
});

describe('StackGitTriggerSection', () => {
  const { server } = setupInfraDeliveryServer();
  const network = { name: 'Network', path: 'infra/network' } as Stack;
  beforeEach(() => {
    server.use(
      http.get(`${baseUrl}/code-sources`, () => HttpResponse.json(list([]))),
    );
  });

  it('shows the branch, the path and what starts runs', async () => {
    await renderWithService(
      <StackGitTriggerSection
        stack={{
          ...network,
          gitTrigger: {
            branch: 'main',
            pushRuns: true,
            pullRequestPlans: true,
            pullRequestComments: false,
          },
        }}
      />,
    );
    expect(
      screen.getByText(
        'Pushes to main start the change pipeline · Pull requests into main get a plan and a check run',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('infra/network')).toBeInTheDocument();
  });

  it('shows path filters instead of the path, and says when runs start by hand', async () => {
    const { unmount } = await renderWithService(
      <StackGitTriggerSection
        stack={{
          ...network,
          gitTrigger: {
            branch: 'trunk',
            pathFilters: ['modules/**'],
            pushRuns: false,
            pullRequestPlans: true,
            pullRequestComments: true,
          },
        }}
      />,
    );
    expect(screen.getByText('modules/**')).toBeInTheDocument();
    unmount();
    await renderWithService(<StackGitTriggerSection stack={network} />);
    expect(
      screen.getByText(
        'Runs start by hand: the stack does not follow a repository.',
      ),
    ).toBeInTheDocument();
  });
});

describe('GitTriggerDialog without code sources', () => {
  setupInfraDeliveryServer();
  const network = { id: 's1', name: 'Network', path: 'infra/network' } as Stack;

  it('points to the Code sources card, where repositories are connected', async () => {
    await renderWithService(
      <GitTriggerDialog
        stack={network}
        codeSources={[]}
        onClose={() => {}}
        onSaved={() => {}}
      />,
      { mountedRoutes: { '/infra-delivery': rootRouteRef } },
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Trigger rules of Network',
    });
    expect(
      within(dialog).getByRole('link', {
        name: 'Code sources on the Organization page',
      }),
    ).toHaveAttribute('href', '/infra-delivery/organization#code-sources');
  });
});

describe('parsePathFilters', () => {
  it('takes one filter per line or comma, trimmed, without empty ones', () => {
    expect(parsePathFilters(' a/** ,\nb/*.tf\n\n, ')).toEqual([
      'a/**',
      'b/*.tf',
    ]);
  });
});
