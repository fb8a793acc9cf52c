import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  errorResponse,
  fakeSignals,
  iacExecutionSummary,
  iacResource,
  list,
  now,
  pipelineRun,
  renderEntityContent,
  setupInfraDeliveryServer,
  stackList,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  findWaitingForRunnerNotice,
  queryWaitingForRunnerNotice,
} from '../../__testUtils__/waitingForRunnerNotice';
import { afterUnderWayMessageMinimum } from '../../__testUtils__/actionMessageClock';
import { createStackRouteRef } from '../../routes';
import { StacksContent } from './StacksContent';
import {
  answeredStarting,
  leasedPlanHeard,
  pastSilenceOfRunnerHeard10sBefore,
} from '../../__testUtils__/runnerSilence';
import { absoluteTime } from '../common/time';

const network = stack({
  id: 'stack-network',
  name: 'Network',
  givenId: 'network',
  changePipelineId: 'pipe-change-network',
  destroyPipelineId: 'pipe-destroy-network',
  autoApprove: false,
  output: { vpc_id: 'vpc-0abc', subnet_ids: ['subnet-a', 'subnet-b'] },
});
const database = stack({
  id: 'stack-database',
  name: 'Database',
  givenId: 'database',
  changePipelineId: 'pipe-change-database',
  destroyPipelineId: 'pipe-destroy-database',
  autoApprove: true,
});
const stacksById: Record<string, Stack> = {
  [network.id]: network,
  [database.id]: database,
};

const latestRuns = [
  pipelineRun({
    id: 'run-network-2',
    attachedEntityId: network.id,
    pipelineId: network.changePipelineId,
    status: 'SUCCEEDED',
  }),
  pipelineRun({
    id: 'run-database-7',
    attachedEntityId: database.id,
    pipelineId: database.changePipelineId,
    status: 'WAITING_FOR_APPROVAL',
  }),
];

describe('StacksContent', () => {
  const { server, requests, requestsTo } = setupInfraDeliveryServer();

  /** Network's latest run is a new, running one (with `extra` on it). */
  function serveRunningNetworkRun(extra: Partial<PipelineRun> = {}) {
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(
          list([
            pipelineRun({
              id: 'run-network-3',
              attachedEntityId: network.id,
              status: 'RUNNING',
              ...extra,
            }),
          ]),
        ),
      ),
    );
  }

  /** A new run of Network starts, and the backend says so. */
  function announceRunningNetworkRun(signals: ReturnType<typeof fakeSignals>) {
    serveRunningNetworkRun();
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', {
        runId: 'run-network-3',
      }),
    );
  }

  /** The service as the table and the drawer read it; tests override single endpoints. */
  /**
   * What a triggered run is at once: RUNNING when the stack is free, QUEUED behind its run, or
   * RUNNING with its first step waiting for a runner (`NO_RUNNER`).
   */
  function serveStacks(
    triggered: 'RUNNING' | 'QUEUED' | 'NO_RUNNER' | 'FOR_RUNNER' = 'RUNNING',
  ) {
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, ({ request }) => {
        const ids = new URL(request.url).searchParams.getAll('stackId');
        const counts = [
          { stackId: network.id, count: 12 },
          { stackId: database.id, count: 3 },
        ].filter(c => ids.includes(c.stackId));
        return HttpResponse.json({ data: { counts } });
      }),
      stackList(Object.values(stacksById)),
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        const ids = query.getAll('attachedEntityId');
        if (query.has('latestPerEntity')) {
          return HttpResponse.json(
            list(latestRuns.filter(r => ids.includes(r.attachedEntityId!))),
          );
        }
        // The run history of the stack the drawer shows.
        return HttpResponse.json(
          list([
            pipelineRun({
              id: 'run-network-2',
              attachedEntityId: network.id,
              pipelineId: network.changePipelineId,
              status: 'SUCCEEDED',
            }),
            pipelineRun({
              id: 'run-network-1',
              attachedEntityId: network.id,
              pipelineId: network.destroyPipelineId,
              status: 'FAILED',
            }),
          ]),
        );
      }),
      http.get(`${baseUrl}/iac-resources`, () =>
        HttpResponse.json(
          list([
            iacResource({ id: 'res-1', address: 'aws_vpc.main' }),
            iacResource({
              id: 'res-2',
              address: 'aws_subnet.private["a"]',
              resourceType: 'aws_subnet',
              resourceName: 'private',
              provider: 'terraform.io/builtin/terraform',
            }),
          ]),
        ),
      ),
      http.post<{ id: string }>(`${baseUrl}/pipelines/:id/runs`, ({ params }) =>
        HttpResponse.json(
          {
            data: pipelineRun({
              id: 'run-new',
              pipelineId: params.id,
              status: triggered === 'QUEUED' ? 'QUEUED' : 'RUNNING',
              ...(triggered === 'NO_RUNNER' && {
                queueState: {
                  preflightBlockedByAdmissionCondition: false,
                  stackRunPreflightPending: false,
                  waitingForRunner: true,
                  reason: 'No runner is connected to this organization',
                },
              }),
              // A runner counts as connected (it may have died without signing off), and
              // has not claimed the step yet.
              ...(triggered === 'FOR_RUNNER' && {
                queueState: {
                  preflightBlockedByAdmissionCondition: false,
                  stackRunPreflightPending: false,
                  waitingForRunner: false,
                  reason:
                    'Queued for a runner: the one connected runner is free and takes it next',
                },
              }),
            }),
          },
          { status: 201 },
        ),
      ),
    );
  }

  const posts = () => requests().filter(r => r.method === 'POST');

  async function rowOf(text: string) {
    const cell = await screen.findByText(text);
    return cell.closest('tr')!;
  }

  /** Presses Network's Plan & apply, and confirms. */
  async function planAndApplyNetwork() {
    await userEvent.click(
      within(await rowOf('Network')).getByRole('button', {
        name: /^Plan & apply /,
      }),
    );
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Plan & apply',
      }),
    );
  }

  it('asks for the annotation when the entity names no stack', async () => {
    renderEntityContent(<StacksContent />, entityNaming());

    expect(await screen.findByText('Missing Annotation')).toBeInTheDocument();
    expect(
      screen.getAllByText(/infra-delivery\.io\/stacks/).length,
    ).toBeGreaterThan(0);
    expect(requests()).toEqual([]);
  });

  it('treats an annotation without ids as missing', async () => {
    renderEntityContent(<StacksContent />, entityNaming(' , '));

    expect(await screen.findByText('Missing Annotation')).toBeInTheDocument();
    expect(requests()).toEqual([]);
  });

  it("says when each stack's latest run started, in full on hover", async () => {
    serveStacks();
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
    );

    // As the Overview's Started column: the relative time, the exact one on hover.
    const when = (await rowOf('Network')).querySelector('time');
    expect(when).toHaveAttribute('datetime', now);
    expect(when).toHaveAttribute('title', absoluteTime(now));
    expect(when).toHaveTextContent(/ago$/);
  });

  it('shows progress until the service answers', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    serveStacks();
    server.use(
      http.get(`${baseUrl}/stacks`, async () => {
        await answered;
        return HttpResponse.json(list([network]));
      }),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id));

    expect(
      await screen.findByRole('progressbar', { name: 'Loading' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Network')).not.toBeInTheDocument();

    answer();

    expect(await screen.findByText('Network')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('lists each stack with its latest run, resource count and outputs', async () => {
    serveStacks();

    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id}, ${database.id}`),
    );

    const networkRow = await rowOf('Network');
    // A stack's name is never broken inside a word beside wide columns.
    expect(within(networkRow).getByText('Network').parentElement).toHaveStyle({
      whiteSpace: 'nowrap',
    });
    expect(within(networkRow).getByText('network')).toBeInTheDocument();
    expect(within(networkRow).getByText('Succeeded')).toBeInTheDocument();
    expect(within(networkRow).getByText('12')).toBeInTheDocument();
    // Each output on lines of its own, cut at two with the whole value in the tooltip.
    expect(within(networkRow).getByTitle('vpc_id = vpc-0abc')).toHaveStyle({
      overflow: 'hidden',
    });
    expect(
      within(networkRow).getByTitle('subnet_ids = ["subnet-a","subnet-b"]'),
    ).toHaveTextContent('subnet_ids = subnet-a, subnet-b');

    const databaseRow = await rowOf('Database');
    expect(within(databaseRow).getByText('database')).toBeInTheDocument();
    expect(
      within(databaseRow).getByText('Waiting for approval'),
    ).toBeInTheDocument();
    // The run is named by what it does (the row names its stack) and leads to its page,
    // where it is approved.
    expect(
      within(databaseRow).getByRole('link', {
        name: 'Plan & apply',
      }),
    ).toHaveAttribute(
      'href',
      expect.stringMatching(/\/infra-runs\/run-database-7$/),
    );
    expect(
      within(networkRow).getByRole('link', { name: 'Plan & apply' }),
    ).toHaveAttribute(
      'href',
      expect.stringMatching(/\/infra-runs\/run-network-2$/),
    );
    expect(within(databaseRow).getByText('3')).toBeInTheDocument();
    expect(within(databaseRow).getByText('—')).toBeInTheDocument();
    // No latest run waits for a runner.
    expect(queryWaitingForRunnerNotice()).toBeNull();

    // One request for the stacks, one for the newest run of each, one for their counts.
    expect(
      requestsTo('GET', '/stacks').map(request => request.query.getAll('id')),
    ).toEqual([[network.id, database.id]]);
    const [runsRequest] = requestsTo('GET', '/pipeline-runs');
    expect(runsRequest.query.getAll('attachedEntityId')).toEqual([
      network.id,
      database.id,
    ]);
    expect(runsRequest.query.get('latestPerEntity')).toBe('1');
    const [countRequest] = requestsTo('GET', '/stacks/resource-count');
    expect(countRequest.query.getAll('stackId')).toEqual([
      network.id,
      database.id,
    ]);
  });

  it("says so when a stack's latest run waits for a runner", async () => {
    serveStacks();
    serveRunningNetworkRun({
      queueState: {
        preflightBlockedByAdmissionCondition: false,
        stackRunPreflightPending: false,
        waitingForRunner: true,
        reason: 'No runner is connected to this organization',
      },
    });

    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
    );

    const notice = await findWaitingForRunnerNotice();
    expect(notice).toHaveTextContent(
      'No runner is connected to this organization.',
    );
    const command = within(notice).getByLabelText(
      'Command that starts a runner',
    ) as HTMLTextAreaElement;
    expect(command.value).toContain(
      "INFRA_DELIVERY_RUNNER_TOKEN='<api key of a runner service account>' npx @infra-delivery/runner --url ",
    );
    expect(
      await within(notice).findByRole('button', { name: 'Connect a runner' }),
    ).toBeInTheDocument();
    // The row's status says it too: the run is Running, but nothing runs it.
    const row = await rowOf('Network');
    expect(within(row).getByText('Waiting for a runner')).toBeInTheDocument();
    expect(within(row).queryByText('Running')).not.toBeInTheDocument();
  });

  it('does not count the silence of a running run’s runner on while the service answers the table’s reads with errors', async () => {
    // Heard from 10 s before each read, six seconds short of silent; then the backend goes away.
    serveStacks();
    serveRunningNetworkRun({ leasedStep: leasedPlanHeard(10) });
    const signals = fakeSignals();
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
      { signals: signals.api },
    );
    expect(await rowOf('Network')).toHaveTextContent(
      'Plan on Build hosts (worker-1)',
    );

    server.use(answeredStarting('/pipeline-runs'));
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', {
        runId: 'run-network-3',
      }),
    );
    // Six and a half seconds on, the runner would be unheard for more than 16 s: the Stacks
    // tab read "has not been heard from" for as long as a restarting backend was down.
    await act(pastSilenceOfRunnerHeard10sBefore);
    const row = await rowOf('Network');
    expect(row).not.toHaveTextContent(/heard from/);
    expect(row).toHaveTextContent('Plan on Build hosts (worker-1)');
  });

  it('names the run that holds the stack of a queued run, and what keeps it', async () => {
    serveStacks();
    const held = pipelineRun({
      id: 'run-network-3',
      attachedEntityId: network.id,
      status: 'QUEUED',
      queueState: {
        preflightBlockedByAdmissionCondition: true,
        stackRunPreflightPending: false,
        blockingRunId: 'run-network-2',
        blockingEntityId: network.id,
      },
    });
    const holder = pipelineRun({
      id: 'run-network-2',
      attachedEntityId: network.id,
      description: 'Widen the subnets',
      status: 'WAITING_FOR_APPROVAL',
    });
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) => {
        const ids = new URL(request.url).searchParams.getAll('id');
        return HttpResponse.json(list(ids.length ? [holder] : [held]));
      }),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id));

    const row = await rowOf('Network');
    await waitFor(() =>
      expect(row).toHaveTextContent(
        'Waits for Widen the subnets, which waits for approval',
      ),
    );
    expect(
      within(row).getByRole('link', { name: 'Widen the subnets' }),
    ).toHaveAttribute('href', expect.stringContaining('run-network-2'));

    // A run pressed now waits behind both, and the dialog names the holder.
    await userEvent.click(
      within(row).getByRole('button', { name: /^Plan & apply / }),
    );
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      /The stack is busy: “Widen the subnets” waits for approval, and “.+” is queued behind it\. This run is queued after them and starts when they are done\./,
    );
  });

  it('says why a queued run waits: the run that holds its stack', async () => {
    serveStacks();
    serveRunningNetworkRun({
      status: 'QUEUED',
      queueState: {
        preflightBlockedByAdmissionCondition: true,
        stackRunPreflightPending: false,
        waitingForRunner: false,
        blockingRunId: 'run-network-2',
        blockingEntityId: network.id,
      },
    });

    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
    );

    const row = await rowOf('Network');
    expect(within(row).getByText('Queued')).toBeInTheDocument();
    await waitFor(() =>
      expect(row).toHaveTextContent('Held: the stack is busy with another run'),
    );
    expect(
      within(row).getByRole('link', { name: 'another run' }),
    ).toHaveAttribute('href', expect.stringContaining('run-network-2'));

    // A run pressed now waits behind both: the holder is not the held run.
    await userEvent.click(
      within(row).getByRole('button', { name: /^Plan & apply / }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      /The stack is busy with another run, and “.+” is queued behind it\. This run is queued after them and starts when they are done\./,
    );
    expect(dialog).not.toHaveTextContent('is queued already');
  });

  it('shows "Never run" and no resources for a stack without runs or state', async () => {
    serveStacks();
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id));

    const row = await rowOf('Network');
    expect(within(row).getByText('Never run')).toBeInTheDocument();
    expect(within(row).getByText('0')).toBeInTheDocument();
  });

  it('lists only the stacks the service has, and names the others the catalog-info.yaml still lists', async () => {
    serveStacks();

    renderEntityContent(
      <StacksContent />,
      entityNaming(`stack-gone,${network.id}`),
    );

    const networkRow = await rowOf('Network');
    expect(
      within(networkRow).getByRole('button', { name: /^Details of / }),
    ).toBeInTheDocument();
    // A deleted stack came back after a reload as a row reading "not found" and "Never run".
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(screen.queryByText(/was not found/)).not.toBeInTheDocument();
    expect(
      screen.getByText(
        /annotation of payments also names a stack the infrastructure service does not have \(deleted, or never created\)/,
      ),
    ).toHaveTextContent('stack-gone. Remove it from the entity');
    // Both stacks were asked for in one request.
    expect(requestsTo('GET', '/stacks').map(r => r.query.getAll('id'))).toEqual(
      [['stack-gone', network.id]],
    );
  });

  it('leaves a deleted stack out without a word on an entity the catalog module keeps current', async () => {
    serveStacks();
    const entity = entityNaming(`stack-gone,${network.id}`);
    entity.metadata.annotations!['backstage.io/managed-by-location'] =
      'url:infra-delivery:portal-organization';

    renderEntityContent(<StacksContent />, entity);

    await rowOf('Network');
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(screen.queryByText(/stack-gone/)).not.toBeInTheDocument();
  });

  it('says a stack’s own entity outlives the deleted stack until the catalog’s next refresh', async () => {
    serveStacks();
    const entity = entityNaming('stack-gone');
    entity.kind = 'Resource';
    entity.spec = { type: 'iac-stack', owner: 'team-a' };

    renderEntityContent(<StacksContent />, entity);

    expect(
      await screen.findByText(
        'This stack is no longer in the infrastructure service: it was deleted. Its catalog entry goes at the catalog’s next refresh.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /^Plan & apply/ }),
    ).not.toBeInTheDocument();
    // The app has no stack template to offer instead.
    expect(
      screen.queryByRole('button', {
        name: 'Create a stack from the template',
      }),
    ).not.toBeInTheDocument();
  });

  it('offers the stack template where the entity’s stacks are gone', async () => {
    serveStacks();
    const entity = entityNaming('stack-gone');

    renderEntityContent(<StacksContent />, entity, {
      mountedRoutes: {
        '/create/templates/:namespace/:templateName': createStackRouteRef,
      },
    });

    expect(
      await screen.findByText(
        `None of the stacks ${entity.metadata.name} names is in the infrastructure service.`,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Create a stack from the template' }),
    ).toHaveAttribute('href', '/create/templates/default/infra-delivery-stack');
  });

  it('shows the ErrorBody message and request id when the count endpoint fails', async () => {
    serveStacks();
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        errorResponse(500, {
          code: 'InfraDelivery:Stack:INTERNAL',
          message: 'The state store does not answer',
          requestId: 'req-5005',
        }),
      ),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id));

    expect(
      await screen.findByText('The state store does not answer'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('InfraDelivery:Stack:INTERNAL · Request id: req-5005'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Network')).not.toBeInTheDocument();
  });

  it('shows a stack error other than 404 instead of the table', async () => {
    serveStacks();
    server.use(
      http.get(`${baseUrl}/stacks`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:Stack:FORBIDDEN',
          message: 'You may not read this stack',
          requestId: 'req-403',
        }),
      ),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id));

    expect(
      await screen.findByText('You may not read this stack'),
    ).toBeInTheDocument();
    expect(screen.getByText(/Request id: req-403/)).toBeInTheDocument();
    expect(screen.queryByText(/was not found/)).not.toBeInTheDocument();
  });

  it.each([
    ['without a runner', 'NO_RUNNER' as const],
    // Its step unclaimed with a runner counted as connected: one killed without signing off
    // counts for about 20 s.
    [
      'while its step is unclaimed, even with one connected',
      'FOR_RUNNER' as const,
    ],
  ])(
    'says that a run pressed %s waits for a runner, not that it started',
    async (_case, triggered) => {
      serveStacks(triggered);
      renderEntityContent(<StacksContent />, entityNaming(network.id));

      await planAndApplyNetwork();

      const message = await screen.findByRole('status');
      expect(message).toHaveTextContent(
        'A plan of Network is waiting for a runner.',
      );
      expect(message).not.toHaveTextContent(/started/);
    },
  );

  it('says in the dialog that the stack is busy, and until when the new run waits', async () => {
    serveStacks('QUEUED');
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
    );

    // Database's latest run waits for approval: a run pressed now is held behind it.
    await userEvent.click(
      within(await rowOf('Database')).getByRole('button', {
        name: /^Plan & apply /,
      }),
    );
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      'The stack is busy: “Plan & apply · Database” waits for approval. This run is queued behind it and starts once someone approves, rejects or cancels it.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Plan & apply' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    // Held behind that run, the new one says so.
    expect(await screen.findByRole('status')).toHaveTextContent(
      'A plan of Database is queued behind the stack’s current run.',
    );

    // Network's latest run is done: nothing to wait for.
    await userEvent.click(
      within(await rowOf('Network')).getByRole('button', { name: /^Destroy / }),
    );
    expect(await screen.findByRole('dialog')).not.toHaveTextContent(
      'The stack is busy',
    );
  });

  /**
   * Network's run `run-new` now has `status`, as a signal announces: the stacks' message says
   * `text` and links the run's page under `link`.
   */
  const runNewIs = async (
    signals: ReturnType<typeof fakeSignals>,
    status: PipelineRun['status'],
    text: string,
    link: string,
  ) => {
    serveRunningNetworkRun({ id: 'run-new', status });
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: 'run-new' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(text),
    );
    expect(
      within(screen.getByRole('status')).getByRole('link', { name: link }),
    ).toHaveAttribute('href', expect.stringMatching(/\/infra-runs\/run-new$/));
  };

  it('plans and applies a stack after confirmation, then reloads', async () => {
    serveStacks();
    const signals = fakeSignals();
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
      { signals: signals.api },
    );

    const row = await rowOf('Network');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Plan & apply / }),
    );

    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Plan and apply Network?'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        "This queues a run of the stack's change pipeline: a plan, an approval, then the apply. A plan that changes nothing ends the run.",
      ),
    ).toBeInTheDocument();
    // Nothing is queued before the person confirms.
    expect(posts()).toEqual([]);
    const overviewLoads = requestsTo('GET', '/stacks/resource-count').length;
    // What the run is for names it in the runs list.
    await userEvent.type(
      within(dialog).getByLabelText('What is this run for? (optional)'),
      '  Widen the private subnets ',
    );

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Plan & apply' }),
    );

    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(posts()).toHaveLength(1);
    expect(posts()[0].path).toBe('/pipelines/pipe-change-network/runs');
    expect(posts()[0].body).toEqual({
      data: { description: 'Widen the private subnets' },
    });
    // The table loads again to show the queued run, and says what was started.
    await waitFor(() =>
      expect(
        requestsTo('GET', '/stacks/resource-count').length,
      ).toBeGreaterThan(overviewLoads),
    );
    expect(await screen.findByText('Network')).toBeInTheDocument();
    const message = await screen.findByRole('status');
    expect(message).toHaveTextContent('A plan of Network has started.');
    expect(
      within(message).getByRole('link', { name: 'Follow the run' }),
    ).toHaveAttribute('href', expect.stringMatching(/\/infra-runs\/run-new$/));

    // The plan ends and the run waits for approval, as the stack's row says: the message
    // follows it at once ("has started" stood above "Waiting for approval"), and leads to the
    // plan and its Approve button.
    await runNewIs(
      signals,
      'WAITING_FOR_APPROVAL',
      'A plan of Network waits for your approval.',
      'Review the plan and approve',
    );
    // Someone must act on it: it stays, however long it has stood.
    const restoreClock = afterUnderWayMessageMinimum();
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: 'run-new' }),
    );
    await waitFor(() =>
      expect(
        requestsTo('GET', '/stacks/resource-count').length,
      ).toBeGreaterThan(overviewLoads + 2),
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'A plan of Network waits for your approval.',
    );

    // Approved and applied: nothing more to say.
    serveRunningNetworkRun({ id: 'run-new', status: 'SUCCEEDED' });
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: 'run-new' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('status')).not.toBeInTheDocument(),
    );
    restoreClock();
  });

  it.each([
    {
      plan: 'changed nothing',
      applyable: false,
      said: 'A plan of Network has finished. No changes: nothing to apply.',
    },
    {
      plan: 'was applied',
      applyable: true,
      said: 'A plan of Network has finished.',
    },
  ])(
    'says a run that ended has ended, not that it started (its plan $plan)',
    async ({ applyable, said }) => {
      serveStacks();
      server.use(
        http.get(`${baseUrl}/iac-execution-summaries`, ({ request }) =>
          HttpResponse.json(
            list(
              new URL(request.url).searchParams.get('pipelineRunId') ===
                'run-new'
                ? [
                    iacExecutionSummary({
                      id: 'summary-new',
                      pipelineRunId: 'run-new',
                      runType: 'PLAN',
                      applyable,
                    }),
                  ]
                : [],
            ),
          ),
        ),
      );
      const signals = fakeSignals();
      renderEntityContent(<StacksContent />, entityNaming(network.id), {
        signals: signals.api,
      });
      await planAndApplyNetwork();
      expect(await screen.findByRole('status')).toHaveTextContent(
        'A plan of Network has started.',
      );

      // A plan that changes nothing ends the run within a second: the message stands its
      // minimum, and "has started" stood above the row's Succeeded. It says, as the run's
      // page does, that nothing was applied: "has finished" alone left the person to open
      // the run to learn it.
      await runNewIs(signals, 'SUCCEEDED', said, 'Open the run');
    },
  );

  it('says that an auto-approved stack applies without approval', async () => {
    serveStacks();
    renderEntityContent(<StacksContent />, entityNaming(database.id));

    const row = await rowOf('Database');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Plan & apply / }),
    );

    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        "This queues a run of the stack's change pipeline: a plan, then the apply without approval. A plan that changes nothing ends the run.",
      ),
    ).toBeInTheDocument();

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Plan & apply' }),
    );
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].path).toBe('/pipelines/pipe-change-database/runs');
  });

  it('queues nothing when the confirmation is cancelled', async () => {
    serveStacks();
    renderEntityContent(<StacksContent />, entityNaming(network.id));

    const row = await rowOf('Network');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Plan & apply / }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Cancel' }),
    );

    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(posts()).toEqual([]);
  });

  it('keeps the dialog open with the ErrorBody when the trigger fails', async () => {
    serveStacks();
    server.use(
      http.post(`${baseUrl}/pipelines/:id/runs`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:PipelineRun:CONFLICT',
          message: 'The pipeline has no version to run',
          requestId: 'req-409',
        }),
      ),
    );
    renderEntityContent(<StacksContent />, entityNaming(network.id));

    const row = await rowOf('Network');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Plan & apply / }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Plan & apply' }),
    );

    expect(
      await within(dialog).findByText('The pipeline has no version to run'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/Plan & apply failed/)).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'InfraDelivery:PipelineRun:CONFLICT · Request id: req-409',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('sends the same Idempotency-Key when Plan & apply is pressed again after the service failed', async () => {
    serveStacks();
    let answered = 0;
    server.use(
      http.post(`${baseUrl}/pipelines/:id/runs`, () => {
        answered += 1;
        return answered === 1
          ? errorResponse(503, {
              code: 'InfraDelivery:Database:UNAVAILABLE',
              message:
                "The service's database cannot be reached (ECONNRESET); try again in 5 s",
              requestId: 'req-503',
            })
          : HttpResponse.json(
              { data: pipelineRun({ id: 'run-new', status: 'QUEUED' }) },
              { status: 201 },
            );
      }),
    );
    renderEntityContent(<StacksContent />, entityNaming(network.id));

    const row = await rowOf('Network');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Plan & apply / }),
    );
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByRole('button', {
      name: 'Plan & apply',
    });
    await userEvent.click(confirm);
    await within(dialog).findByText(/database cannot be reached/);
    await userEvent.click(confirm);
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );

    const keys = posts().map(post => post.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('destroys a stack after a confirmation that names its resource count', async () => {
    serveStacks();
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
    );

    const row = await rowOf('Network');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Destroy / }),
    );

    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Destroy every resource of Network?'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'This queues the destroy pipeline of the stack: it plans the destruction of its 12 resources, waits for an approval, then destroys them.',
      ),
    ).toBeInTheDocument();
    expect(posts()).toEqual([]);
    // Destroying needs the stack's name typed first.
    const queue = within(dialog).getByRole('button', {
      name: 'Queue the destruction',
    });
    expect(queue).toBeDisabled();
    const name = within(dialog).getByLabelText('Type Network to confirm');
    await userEvent.type(name, 'Netwrk');
    expect(queue).toBeDisabled();
    await userEvent.clear(name);
    await userEvent.type(name, 'Network');
    expect(queue).toBeEnabled();

    await userEvent.click(queue);

    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(posts()).toHaveLength(1);
    expect(posts()[0].path).toBe('/pipelines/pipe-destroy-network/runs');
    // No description: the runs list names the run after its pipeline, "Destroy · Network".
    expect(posts()[0].body).toEqual({ data: {} });
  });

  it('says that an auto-approved stack is destroyed without approval', async () => {
    serveStacks();
    renderEntityContent(<StacksContent />, entityNaming(database.id));

    const row = await rowOf('Database');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Destroy / }),
    );

    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        'This queues the destroy pipeline of the stack: it plans the destruction of its 3 resources and destroys them without approval.',
      ),
    ).toBeInTheDocument();
  });

  it('offers Plan & apply and Destroy when the permission policy allows running pipelines', async () => {
    serveStacks();
    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      authorize: 'ALLOW',
    });

    const row = await rowOf('Network');
    expect(
      await within(row).findByRole('button', { name: /^Plan & apply / }),
    ).toBeInTheDocument();
    expect(
      within(row).getByRole('button', { name: /^Destroy / }),
    ).toBeInTheDocument();
  });

  it('names each row’s actions after its stack, keeping the visible labels', async () => {
    serveStacks();
    renderEntityContent(
      <StacksContent />,
      entityNaming([network.id, database.id].join(',')),
    );

    // "Plan & apply" and "Destroy" once per row told a screen reader nothing of the stack.
    for (const name of ['Network', 'Database']) {
      const row = await rowOf(name);
      const plan = await within(row).findByRole('button', {
        name: `Plan & apply ${name}`,
      });
      expect(plan).toHaveTextContent('Plan & apply');
      expect(
        within(row).getByRole('button', { name: `Destroy ${name}` }),
      ).toHaveTextContent('Destroy');
    }
  });

  it('offers no Destroy for a stack with nothing applied, and says why', async () => {
    serveStacks();
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
    );
    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      authorize: 'ALLOW',
    });

    const row = await rowOf('Network');
    const destroy = await within(row).findByRole('button', {
      name: /^Destroy /,
    });
    expect(destroy).toBeDisabled();
    expect(
      within(row).getByRole('button', { name: /^Plan & apply / }),
    ).toBeEnabled();
    await userEvent.hover(destroy.parentElement!);
    expect(
      await screen.findByRole('tooltip', {
        name: 'Nothing is applied yet: there is nothing to destroy',
      }),
    ).toBeInTheDocument();
  });

  it("lists a stack's current resources and run history in the details drawer", async () => {
    serveStacks();
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
    );

    const row = await rowOf('Network');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Details of / }),
    );

    const drawer = await screen.findByRole('presentation');
    expect(within(drawer).getByText('Network')).toBeInTheDocument();
    // The outputs, each whole.
    const outputs = within(drawer).getByRole('region', { name: 'Outputs' });
    expect(within(outputs).getByText('subnet_ids')).toBeInTheDocument();
    expect(
      within(outputs).getByText(
        (_, element) =>
          element?.tagName === 'DD' &&
          element.textContent === '[\n  "subnet-a",\n  "subnet-b"\n]',
      ),
    ).toBeInTheDocument();
    expect(within(outputs).getByText('vpc-0abc')).toBeInTheDocument();
    expect(
      await within(drawer).findByText('Current resources (2)'),
    ).toBeInTheDocument();
    const vpcRow = within(drawer).getByText('aws_vpc.main').closest('tr')!;
    expect(within(vpcRow).getByText('aws_vpc')).toBeInTheDocument();
    expect(within(vpcRow).getByText('hashicorp/aws')).toBeInTheDocument();
    const subnetRow = within(drawer)
      .getByText('aws_subnet.private["a"]')
      .closest('tr')!;
    // Terraform's built-in provider, without the host that names no registry.
    expect(
      within(subnetRow).getByText('builtin/terraform'),
    ).toBeInTheDocument();

    expect(within(drawer).getByText('Run history')).toBeInTheDocument();
    // Runs are named by what they do, never by their ids, nor by the stack the drawer is of.
    expect(
      within(drawer).queryByText(`Destroy · ${network.name}`),
    ).not.toBeInTheDocument();
    const failedRow = within(drawer)
      .getByText('Destroy', { selector: 'a, a *' })
      .closest('tr')!;
    expect(within(failedRow).getByText('Failed')).toBeInTheDocument();
    const succeededRow = within(drawer)
      .getByText('Plan & apply', { selector: 'a, a *' })
      .closest('tr')!;
    expect(within(succeededRow).getByText('Succeeded')).toBeInTheDocument();
    // How long a run took goes under when it started: the drawer keeps three columns.
    expect(
      within(succeededRow.closest('table')!)
        .getAllByRole('columnheader')
        .map(header => header.textContent),
    ).toEqual(['Status', 'Run', 'Started']);

    const [resourcesRequest] = requestsTo('GET', '/iac-resources');
    expect(resourcesRequest.query.get('stackId')).toBe(network.id);
    expect(resourcesRequest.query.has('pipelineRunId')).toBe(false);
    const historyRequests = requestsTo('GET', '/pipeline-runs').filter(
      r => !r.query.has('latestPerEntity'),
    );
    expect(historyRequests).toHaveLength(1);
    expect(historyRequests[0].query.getAll('attachedEntityId')).toEqual([
      network.id,
    ]);

    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Close' }),
    );
    await waitFor(() =>
      expect(
        screen.queryByText('Current resources (2)'),
      ).not.toBeInTheDocument(),
    );
  });

  it("shows a stack's own page its details under its row, without a drawer", async () => {
    serveStacks();
    const stackEntity = entityNaming(network.id);
    renderEntityContent(<StacksContent />, {
      ...stackEntity,
      kind: 'Resource',
      spec: { type: 'iac-stack', owner: 'team-a' },
    });

    const details = (await screen.findByText('Network in detail')).closest(
      '.MuiCard-root',
    ) as HTMLElement;
    expect(
      await within(details).findByText('Current resources (2)'),
    ).toBeInTheDocument();
    expect(within(details).getByText('aws_vpc.main')).toBeInTheDocument();
    expect(within(details).getByText('Run history')).toBeInTheDocument();
    expect(
      within(details).getByRole('region', { name: 'Drift' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('presentation')).not.toBeInTheDocument();
    // Its name opens no drawer that would repeat them.
    expect(
      screen.queryByRole('button', { name: /^Details of / }),
    ).not.toBeInTheDocument();
  });

  it('keeps the details of a stack named by another entity in the drawer', async () => {
    serveStacks();
    renderEntityContent(<StacksContent />, entityNaming(network.id));

    expect(await screen.findByText('Network')).toBeInTheDocument();
    expect(screen.queryByText('Network in detail')).not.toBeInTheDocument();
    expect(screen.queryByText(/^Current resources/)).not.toBeInTheDocument();
  });

  it('opens the drawer of the stack a link names', async () => {
    serveStacks();
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
      { initialRouteEntries: [`/?stack=${database.id}`] },
    );

    const drawer = await screen.findByRole('presentation');
    expect(within(drawer).getByText('Database')).toBeInTheDocument();
    expect(within(drawer).queryByText('Network')).not.toBeInTheDocument();
  });

  it('offers Plan & apply and Destroy at the top of the drawer too, and says there what started', async () => {
    serveStacks();
    renderEntityContent(
      <StacksContent />,
      entityNaming(`${network.id},${database.id}`),
      { initialRouteEntries: [`/?stack=${network.id}`] },
    );

    const drawer = await screen.findByRole('dialog', { name: 'Network' });
    expect(
      within(drawer).getByRole('button', { name: /^Destroy / }),
    ).toBeInTheDocument();
    await userEvent.click(
      within(drawer).getByRole('button', { name: /^Plan & apply / }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: 'Plan and apply Network?',
    });
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Plan & apply' }),
    );

    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].path).toBe('/pipelines/pipe-change-network/runs');
    expect(
      await within(drawer).findByText('A plan of Network has started.', {
        exact: false,
      }),
    ).toBeInTheDocument();
  });

  it('shows a stack without resources or runs in words, not an empty table', async () => {
    serveStacks();
    server.use(
      http.get(`${baseUrl}/iac-resources`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
    );
    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      initialRouteEntries: [`/?stack=${network.id}`],
    });

    const drawer = await screen.findByRole('dialog', { name: 'Network' });
    expect(
      await within(drawer).findByText(/^No resources yet/),
    ).toBeInTheDocument();
    expect(within(drawer).getByText(/^No run yet/)).toBeInTheDocument();
    expect(
      within(drawer).queryByText('No records to display'),
    ).not.toBeInTheDocument();
  });

  it('shows the ErrorBody of a failing resources request in the drawer', async () => {
    serveStacks();
    server.use(
      http.get(`${baseUrl}/iac-resources`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:IacResource:FORBIDDEN',
          message: 'You may not read the state of this stack',
          requestId: 'req-drawer',
        }),
      ),
    );
    renderEntityContent(<StacksContent />, entityNaming(network.id));

    const row = await rowOf('Network');
    await userEvent.click(
      within(row).getByRole('button', { name: /^Details of / }),
    );

    const drawer = await screen.findByRole('presentation');
    expect(
      await within(drawer).findByText(
        'You may not read the state of this stack',
      ),
    ).toBeInTheDocument();
    expect(
      within(drawer).getByText(/Request id: req-drawer/),
    ).toBeInTheDocument();
  });

  it('reloads when the backend announces a run change', async () => {
    serveStacks();
    const signals = fakeSignals();
    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      signals: signals.api,
    });

    const row = await rowOf('Network');
    expect(within(row).getByText('Succeeded')).toBeInTheDocument();
    expect(signals.subscriberCount('infra-delivery:pipeline-runs')).toBe(1);

    announceRunningNetworkRun(signals);

    const reloaded = await screen.findByText('Running');
    expect(reloaded.closest('tr')).toHaveTextContent('Network');
    expect(screen.queryByText('Succeeded')).not.toBeInTheDocument();
  });

  it('keeps an open dialog, and what was typed in it, while the table reloads', async () => {
    serveStacks();
    const signals = fakeSignals();
    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      signals: signals.api,
    });
    await userEvent.click(
      within(await rowOf('Network')).getByRole('button', { name: /^Destroy / }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox'), 'Netw');

    announceRunningNetworkRun(signals);
    expect(await screen.findByText('Running')).toBeInTheDocument();

    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(within(dialog).getByRole('textbox')).toHaveValue('Netw');
  });
});
