import { ExternalRouteRef, RouteRef } from '@backstage/frontend-plugin-api';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import { signalApiRef } from '@backstage/plugin-signals-react';
import {
  CloudAccount,
  Deployment,
  PipelineRun,
  RUN_SIGNAL_CHANNEL,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { infraDeliveryApiRef } from '../../api';
import {
  baseUrl,
  client,
  cloudAccount,
  errorResponse,
  fakeSignals,
  list,
  pipeline,
  pipelineRun,
  setupInfraDeliveryServer,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  annotatedServiceEntity,
  deploymentFixture,
} from '../../__testUtils__/deploymentFixtures';
import {
  movableClock,
  saysNoAnswerAfterWaiting,
} from '../../__testUtils__/unansweredService';
import { createStackRouteRef } from '../../routes';
import { InfrastructureHomePage } from './InfrastructureHomePage';
import {
  leasedPlanHeard,
  pastSilenceOfRunnerHeard10sBefore,
} from '../../__testUtils__/runnerSilence';

// Four cards with their tables render in every test.
jest.setTimeout(20_000);

const ago = (hours: number) =>
  new Date(Date.now() - hours * 3_600_000).toISOString();

const network = stack({ id: 'net', name: 'Network', givenId: 'network' });
const database = stack({ id: 'db', name: 'Database', givenId: 'database' });
const cache = stack({ id: 'cache', name: 'Cache', givenId: 'cache' });
/** A run of Network that waits for approval. */
const openPort443 = pipelineRun({
  id: 'run-8',
  status: 'WAITING_FOR_APPROVAL',
  pipelineId: network.changePipelineId,
  attachedEntityId: 'net',
  description: 'Open port 443',
});

/** What the fake service holds; each test changes what it needs. */
interface Service {
  stacks: Stack[];
  waiting: PipelineRun[];
  failed: PipelineRun[];
  latestPerStack: PipelineRun[];
  accounts: CloudAccount[];
  failedDeployments: Deployment[];
}

describe('InfrastructureHomePage', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  let service: Service;

  beforeEach(() => {
    service = {
      stacks: [network, database, cache],
      waiting: [],
      failed: [],
      latestPerStack: [],
      accounts: [],
      failedDeployments: [],
    };
    server.use(
      http.get(`${baseUrl}/stacks`, () =>
        HttpResponse.json(list(service.stacks)),
      ),
      http.get(`${baseUrl}/pipelines`, () =>
        HttpResponse.json(
          list([pipeline({ id: 'drift', name: 'Nightly drift check' })]),
        ),
      ),
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        if (query.get('status') === 'WAITING_FOR_APPROVAL') {
          return HttpResponse.json(list(service.waiting));
        }
        if (query.get('status') === 'FAILED') {
          return HttpResponse.json(list(service.failed));
        }
        const stackIds = query.getAll('attachedEntityId');
        return HttpResponse.json(
          list(
            service.latestPerStack.filter(run =>
              stackIds.includes(run.attachedEntityId ?? ''),
            ),
          ),
        );
      }),
      http.get(`${baseUrl}/cloud-accounts`, () =>
        HttpResponse.json(list(service.accounts)),
      ),
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(service.failedDeployments)),
      ),
    );
  });

  /** Renders the page and waits until every card has loaded. */
  const renderPage = async (
    signals = fakeSignals(),
    path = '/',
    /** The app's other pages besides the catalog's, such as the stack template. */
    mountedRoutes: Record<string, RouteRef | ExternalRouteRef> = {},
  ) => {
    const rendered = await renderInTestApp(<InfrastructureHomePage />, {
      initialRouteEntries: [path],
      apis: [
        [infraDeliveryApiRef, client],
        [signalApiRef, signals.api],
        // The component that names payments/payments-api in its annotation.
        [
          catalogApiRef,
          catalogApiMock({ entities: [annotatedServiceEntity()] }),
        ],
      ],
      mountedRoutes: {
        '/catalog/:namespace/:kind/:name': entityRouteRef,
        ...mountedRoutes,
      },
    });
    await waitFor(
      () => expect(screen.queryByTestId('progress')).not.toBeInTheDocument(),
      { timeout: 10_000 },
    );
    return rendered;
  };

  /** The card with this title. */
  const card = async (title: string) =>
    (await screen.findByText(title)).closest('.MuiCard-root') as HTMLElement;

  /** The row of a card's table that shows `text`. */
  const rowOf = async (cardElement: HTMLElement, text: string) =>
    (await within(cardElement).findByText(text)).closest('tr') as HTMLElement;

  it('lists the runs waiting for approval by what they do, each linked to its own page', async () => {
    service.waiting = [
      pipelineRun({
        id: 'run-1',
        status: 'WAITING_FOR_APPROVAL',
        pipelineId: network.changePipelineId,
        attachedEntityId: 'net',
        updatedAt: ago(2),
      }),
      pipelineRun({
        id: 'run-2',
        status: 'WAITING_FOR_APPROVAL',
        pipelineId: database.destroyPipelineId,
        attachedEntityId: 'db',
        description: 'Tear down the old replica',
        updatedAt: ago(5),
      }),
    ];
    await renderPage();

    const waiting = await card('Waiting for approval');
    const change = await rowOf(waiting, 'Plan & apply');
    expect(within(change).getByText('Network')).toBeInTheDocument();
    expect(within(change).getByText('2 hours ago')).toBeInTheDocument();
    expect(
      within(change).getByRole('link', { name: 'Plan & apply' }),
    ).toHaveAttribute('href', '/infra-delivery/runs/run-1');

    const destroy = await rowOf(waiting, 'Tear down the old replica');
    expect(within(destroy).getByText('Database')).toBeInTheDocument();
    expect(
      within(destroy).getByRole('link', { name: 'Tear down the old replica' }),
    ).toHaveAttribute('href', '/infra-delivery/runs/run-2');
    // The card leads to the Runs tab, filtered to the runs it lists.
    expect(
      within(waiting).getByRole('link', {
        name: /All runs waiting for approval/,
      }),
    ).toHaveAttribute(
      'href',
      '/infra-delivery/runs?status=WAITING_FOR_APPROVAL',
    );

    const [request] = requestsTo('GET', '/pipeline-runs').filter(
      r => r.query.get('status') === 'WAITING_FOR_APPROVAL',
    );
    expect(request.query.getAll('status')).toEqual(['WAITING_FOR_APPROVAL']);
  });

  it('lists the runs that failed in the last week with why, and leaves older failures out', async () => {
    service.failed = [
      pipelineRun({
        id: 'run-3',
        status: 'FAILED',
        pipelineId: cache.changePipelineId,
        attachedEntityId: 'cache',
        completedAt: ago(1),
        error: {
          code: 'InfraDelivery:Step:FAILED',
          message: 'tofu apply exited with 1',
          requestId: 'req-1',
        },
      }),
      pipelineRun({
        id: 'run-4',
        status: 'FAILED',
        pipelineId: 'drift',
        completedAt: ago(30),
      }),
      pipelineRun({
        id: 'run-5',
        status: 'FAILED',
        pipelineId: network.changePipelineId,
        attachedEntityId: 'net',
        description: 'A failure of last month',
        completedAt: ago(24 * 30),
      }),
      pipelineRun({
        id: 'run-6',
        status: 'FAILED',
        pipelineId: network.changePipelineId,
        attachedEntityId: 'net',
        description: 'A plan someone rejected',
        completedAt: ago(2),
        error: {
          code: 'InfraDelivery:Approval:REJECTED',
          message: 'The approval was rejected: not now',
        },
      }),
    ];
    await renderPage();

    const failed = await card('Failed lately');
    const apply = await rowOf(failed, 'Plan & apply');
    expect(within(apply).getByText('Cache')).toBeInTheDocument();
    // Why, cut to three lines with the whole reason on hover.
    expect(within(apply).getByText('tofu apply exited with 1')).toHaveAttribute(
      'title',
      'tofu apply exited with 1',
    );
    expect(within(apply).getByText('1 hour ago')).toBeInTheDocument();

    // A pipeline of no stack is named after the pipeline; it still has its run page.
    const drift = await rowOf(failed, 'Nightly drift check');
    expect(within(drift).getByRole('link')).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/infra-delivery\/runs\//),
    );
    expect(within(drift).getByText('—')).toBeInTheDocument();

    expect(
      within(failed).queryByText('A failure of last month'),
    ).not.toBeInTheDocument();
    // A rejected plan was a person's decision, not a failure.
    expect(
      within(failed).queryByText('A plan someone rejected'),
    ).not.toBeInTheDocument();
    // Older failures are one link away.
    expect(
      within(failed).getByRole('link', { name: /All failed runs/ }),
    ).toHaveAttribute('href', '/infra-delivery/runs?status=FAILED');
  });

  it('shows every stack with its last run, the most recently run first and linked to its page', async () => {
    service.latestPerStack = [
      pipelineRun({
        id: 'run-6',
        status: 'SUCCEEDED',
        attachedEntityId: 'db',
        startedAt: ago(48),
      }),
      pipelineRun({
        id: 'run-7',
        description: 'Widen the subnets',
        status: 'FAILED',
        attachedEntityId: 'net',
        startedAt: ago(1),
      }),
    ];
    await renderPage();

    const stacks = await card('Stacks');
    await within(stacks).findByText('Failed');
    const rows = within(stacks)
      .getAllByRole('row')
      .filter(row => within(row).queryAllByRole('cell').length > 0);
    expect(
      rows.map(row => within(row).getAllByRole('link')[0].textContent),
    ).toEqual(['Network', 'Database', 'Cache']);
    // Which run, linked to its own page.
    expect(
      within(rows[0]).getByRole('link', { name: 'Widen the subnets' }),
    ).toHaveAttribute('href', '/infra-delivery/runs/run-7');
    expect(within(rows[0]).getByText('Failed')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Succeeded')).toBeInTheDocument();
    expect(within(rows[1]).getByText('2 days ago')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Never run')).toBeInTheDocument();
    expect(within(rows[0]).getAllByRole('link')[0]).toHaveAttribute(
      'href',
      '/catalog/default/resource/stack-net/infra-stacks',
    );

    const [request] = requestsTo('GET', '/pipeline-runs').filter(r =>
      r.query.has('attachedEntityId'),
    );
    expect(request.query.getAll('attachedEntityId')).toEqual([
      'net',
      'db',
      'cache',
    ]);
    expect(request.query.get('latestPerEntity')).toBe('1');
  });

  it("says why a stack's last run waits, also when it is running with its next step waiting for a runner", async () => {
    service.latestPerStack = [
      pipelineRun({
        id: 'run-9',
        status: 'RUNNING',
        attachedEntityId: 'net',
        startedAt: ago(1),
        queueState: {
          preflightBlockedByAdmissionCondition: false,
          stackRunPreflightPending: false,
          waitingForRunner: true,
          reason: 'No runner is connected to this organization',
        },
      }),
    ];
    await renderPage();

    const stacks = await card('Stacks');
    const row = await rowOf(stacks, 'Network');
    expect(within(row).getByText('Waiting for a runner')).toBeInTheDocument();
    expect(
      within(row).getByText('No runner is connected to this organization'),
    ).toBeInTheDocument();
  });

  it('lists the connected cloud accounts on an older role version, linking to the Cloud accounts tab', async () => {
    service.accounts = [
      cloudAccount({ id: 'prod', name: 'Production' }),
      cloudAccount({
        id: 'staging',
        name: 'Staging',
        cloudId: '210987654321',
        roleVersion: '2',
      }),
      cloudAccount({
        id: 'sandbox',
        name: 'Sandbox',
        status: 'AWAITING_CONNECTION',
        roleVersion: undefined,
      }),
    ];
    await renderPage();

    const accounts = await card('Cloud accounts needing an upgrade');
    const staging = await rowOf(accounts, 'Staging');
    expect(within(staging).getByText('210987654321')).toBeInTheDocument();
    expect(within(staging).getByText('2 → 3')).toBeInTheDocument();
    expect(
      within(staging).getByRole('link', { name: 'Upgrade Staging' }),
    ).toHaveAttribute('href', '/infra-delivery/cloud-accounts');
    expect(within(accounts).queryByText('Production')).not.toBeInTheDocument();
    expect(within(accounts).queryByText('Sandbox')).not.toBeInTheDocument();
  });

  it('lists the deployments that failed in the last week with why, each linked to its details and its service to its Deployments tab', async () => {
    service.failedDeployments = [
      {
        ...deploymentFixture('d45', 'FAILED', 'app:45'),
        description: 'Release 1.2.0',
        completedAt: ago(2),
        error: {
          code: 'InfraDelivery:Deployment:TASKS_FAILED_TO_START',
          message: 'Tasks of the new revision failed to start',
          requestId: 'r1',
        },
      },
      {
        ...deploymentFixture('d12', 'FAILED', 'app:12'),
        description: 'Release 0.9.0',
        completedAt: ago(24 * 9),
      },
    ];
    await renderPage();

    const failed = await card('Deployments that failed lately');
    const row = await rowOf(failed, 'Release 1.2.0');
    expect(within(row).getByText('payments:45')).toBeInTheDocument();
    expect(
      within(row).getByText('Tasks of the new revision failed to start'),
    ).toBeInTheDocument();
    expect(
      await within(row).findByRole('link', { name: 'payments-api' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/payments-api/infra-deployments',
    );
    expect(
      within(row).getByRole('link', { name: 'Release 1.2.0' }),
    ).toHaveAttribute(
      'href',
      '/catalog/default/component/payments-api/infra-deployments?deployment=d45',
    );
    // Older than a week: left out.
    expect(within(failed).queryByText('Release 0.9.0')).toBeNull();
    expect(requestsTo('GET', '/deployments')[0].query.get('status')).toBe(
      'FAILED',
    );
  });

  it('says so in each card when there is nothing to show', async () => {
    service.stacks = [];
    await renderPage();

    expect(
      await screen.findByText('No run waits for approval.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('No run failed in the last 7 days.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('The organization has no stack yet.'),
    ).toBeInTheDocument();
    // The app has no stack template: where stacks go instead.
    expect(
      screen.getByText(
        'Stacks are created in an environment of a project: see the Projects tab.',
      ),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Every connected cloud account runs the latest role version.',
      ),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('No deployment failed in the last 7 days.'),
    ).toBeInTheDocument();
    // Without stacks there is no run of theirs to ask for.
    expect(
      requestsTo('GET', '/pipeline-runs').filter(r =>
        r.query.has('attachedEntityId'),
      ),
    ).toHaveLength(0);
  });

  it('offers the stack template where the organization has no stack yet', async () => {
    service.stacks = [];
    await renderPage(fakeSignals(), '/', {
      '/create/templates/:namespace/:templateName': createStackRouteRef,
    });

    const stacks = await card('Stacks');
    expect(
      await within(stacks).findByText('The organization has no stack yet.'),
    ).toBeInTheDocument();
    expect(
      within(stacks).getByRole('button', {
        name: 'Create a stack from the template',
      }),
    ).toHaveAttribute('href', '/create/templates/default/infra-delivery-stack');
  });

  it('explains a failed load in its own card and shows the others', async () => {
    server.use(
      http.get(`${baseUrl}/cloud-accounts`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Authorization:FORBIDDEN',
          message: 'Reading cloud accounts needs the VIEWER role',
          requestId: 'req-42',
        }),
      ),
    );
    await renderPage();

    const accounts = await card('Cloud accounts needing an upgrade');
    expect(
      await within(accounts).findByText(
        'Reading cloud accounts needs the VIEWER role',
      ),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('No run waits for approval.'),
    ).toBeInTheDocument();
  });

  it('says so when the stack a link opens cannot be read, and closes it', async () => {
    server.use(
      http.get(`${baseUrl}/stacks/gone`, () =>
        errorResponse(404, {
          code: 'InfraDelivery:Stack:NOT_FOUND',
          message: 'Stack gone not found',
          requestId: 'r1',
        }),
      ),
    );
    await renderPage(fakeSignals(), '/?stack=gone');

    const drawer = await screen.findByRole('dialog', { name: 'Stack' });
    expect(
      await within(drawer).findByText('Stack gone not found'),
    ).toBeInTheDocument();
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Close' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
  });

  it('offers Plan & apply in the drawer a link opens (where the stack template leads), and follows the run it starts', async () => {
    let started = pipelineRun({
      id: 'run-9',
      status: 'RUNNING',
      pipelineId: network.changePipelineId,
      attachedEntityId: 'net',
    });
    server.use(
      http.get(`${baseUrl}/pipeline-runs/run-9`, () =>
        HttpResponse.json({ data: started }),
      ),
      http.get(`${baseUrl}/stacks/net`, () =>
        HttpResponse.json({ data: network }),
      ),
      http.get(`${baseUrl}/iac-resources`, () => HttpResponse.json(list([]))),
      http.post(`${baseUrl}/pipelines/${network.changePipelineId}/runs`, () =>
        HttpResponse.json({ data: started }, { status: 201 }),
      ),
    );
    const signals = fakeSignals();
    await renderPage(signals, '/?stack=net');

    const drawer = await screen.findByRole('dialog', { name: 'Network' });
    await userEvent.click(
      await within(drawer).findByRole('button', {
        name: 'Plan & apply Network',
      }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: 'Plan and apply Network?',
    });
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Plan & apply' }),
    );
    await waitFor(() =>
      expect(
        requestsTo('POST', `/pipelines/${network.changePipelineId}/runs`),
      ).toHaveLength(1),
    );
    const message = await within(drawer).findByRole('status');
    expect(message).toHaveTextContent('A plan of Network has started.');
    expect(
      within(message).getByRole('link', { name: 'Follow the run' }),
    ).toHaveAttribute('href', '/infra-delivery/runs/run-9');

    // The plan waits for approval: the message says so, with the way to Approve.
    started = { ...started, status: 'WAITING_FOR_APPROVAL' };
    act(() => signals.announce(RUN_SIGNAL_CHANNEL, { runId: 'run-9' }));
    await waitFor(() =>
      expect(within(drawer).getByRole('status')).toHaveTextContent(
        'A plan of Network waits for your approval.',
      ),
    );
    expect(
      within(drawer).getByRole('link', { name: 'Review the plan and approve' }),
    ).toHaveAttribute('href', '/infra-delivery/runs/run-9');
  });

  it('lists a run as soon as the service announces that it waits', async () => {
    const signals = fakeSignals();
    await renderPage(signals);
    await screen.findByText('No run waits for approval.');

    service.waiting = [openPort443];
    await waitFor(() =>
      expect(signals.subscriberCount(RUN_SIGNAL_CHANNEL)).toBeGreaterThan(0),
    );
    act(() => signals.announce(RUN_SIGNAL_CHANNEL, { runId: 'run-8' }));

    const waiting = await card('Waiting for approval');
    expect(
      await within(waiting).findByText('Open port 443'),
    ).toBeInTheDocument();
  });

  it('does not count the silence of a running run’s runner on while the service answers the Stacks card’s reads with errors', async () => {
    // Heard from 10 s before the card's read, six seconds short of silent; then the backend
    // goes away.
    service.latestPerStack = [
      pipelineRun({
        id: 'run-9',
        status: 'RUNNING',
        attachedEntityId: 'net',
        startedAt: ago(1),
        leasedStep: leasedPlanHeard(10),
      }),
    ];
    const signals = fakeSignals();
    await renderPage(signals);
    const row = await rowOf(await card('Stacks'), 'Network');
    expect(row).toHaveTextContent('Plan on Build hosts (worker-1)');

    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.error()),
    );
    const reads = requestsTo('GET', '/pipeline-runs').length;
    act(() => signals.announce(RUN_SIGNAL_CHANNEL, { runId: 'run-9' }));
    await act(pastSilenceOfRunnerHeard10sBefore);
    expect(requestsTo('GET', '/pipeline-runs').length).toBeGreaterThan(reads);
    expect(row).not.toHaveTextContent(/heard from/);
    expect(row).toHaveTextContent('Plan on Build hosts (worker-1)');
  });

  it('keeps a card’s runs when its reload gets no answer, and says that they may be out of date', async () => {
    const time = movableClock();
    try {
      service.waiting = [openPort443];
      const signals = fakeSignals();
      await renderPage(signals);
      const waiting = await card('Waiting for approval');
      await within(waiting).findByText('Open port 443');

      // The backend stops; an announcement that reached the page before it did reads again.
      server.use(
        http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.error()),
      );
      const reads = requestsTo('GET', '/pipeline-runs').length;
      act(() => signals.announce(RUN_SIGNAL_CHANNEL, { runId: 'run-9' }));
      await waitFor(() =>
        expect(requestsTo('GET', '/pipeline-runs').length).toBeGreaterThan(
          reads,
        ),
      );
      expect(waiting).toContainElement(
        await saysNoAnswerAfterWaiting(time.later),
      );
      expect(within(waiting).getByText('Open port 443')).toBeInTheDocument();
      expect(
        within(waiting).queryByText(
          'Could not reach the infrastructure service',
        ),
      ).not.toBeInTheDocument();
    } finally {
      time.restore();
    }
  });
});
