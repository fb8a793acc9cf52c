import { GetNotificationsResponse } from '@backstage/plugin-notifications';
import {
  APPROVAL_NOTIFICATION_TOPIC,
  approvalNotificationScope,
  IacResource,
  PLAN_CHANGED_ERROR_CODE,
  PipelineRun,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useLocation } from 'react-router-dom';
import {
  baseUrl,
  byTextContent,
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
  stepExecution,
} from '../../__testUtils__/infraDeliveryTestKit';
import { afterUnderWayMessageMinimum } from '../../__testUtils__/actionMessageClock';
import { fakeContainerWidth } from '../../__testUtils__/containerWidth';
import { PipelineRunsContent } from './PipelineRunsContent';

const stackIds = ['stack-network', 'stack-database'];
const entity = entityNaming(stackIds.join(','));

const waiting = pipelineRun({
  id: 'run-waiting',
  description: 'Apply network changes',
  attachedEntityId: 'stack-network',
  status: 'WAITING_FOR_APPROVAL',
  isCancellable: true,
  startedAt: '2026-01-01T09:00:00.000Z',
  // Its plan's, as the service sends it with the run.
  changeSummary: { add: 5, change: 1, destroy: 2, import: 0, noChanges: false },
});
const failed = pipelineRun({
  id: 'run-failed',
  description: 'Upgrade database',
  attachedEntityId: 'stack-database',
  status: 'FAILED',
  attemptEpoch: 1,
  startedAt: '2026-01-01T10:00:00.000Z',
  completedAt: '2026-01-01T10:02:05.000Z',
  error: {
    code: 'InfraDelivery:StepExecution:FAILED',
    message: 'terraform apply exited with status 1',
  },
});
/** The log lines of the steps that have any. */
const stepLogs: Record<string, object[]> = {
  'step-plan': [
    {
      id: 'log-1',
      attemptEpoch: 1,
      timestamp: '2026-01-15T10:00:01.000Z',
      text: 'Initializing the backend...',
    },
    {
      id: 'log-2',
      attemptEpoch: 1,
      timestamp: '2026-01-15T10:00:02.000Z',
      text: 'Plan: 5 to add, 1 to change, 2 to destroy.',
    },
  ],
  'step-failed-apply': [
    {
      id: 'log-failed',
      attemptEpoch: 1,
      timestamp: '2026-01-01T10:02:04.000Z',
      text: 'Request quota for db.r6g.large in eu-west-1 is 0',
    },
  ],
};
const running = pipelineRun({
  id: 'run-running',
  description: 'Rotate database credentials',
  attachedEntityId: 'stack-database',
  status: 'RUNNING',
  isCancellable: true,
  triggerSource: 'DRIFT_SCHEDULE',
});
const held = pipelineRun({
  id: 'run-held',
  description: 'Resize subnets',
  attachedEntityId: 'stack-network',
  status: 'QUEUED',
  isCancellable: true,
  queueReason: 'Stack is busy',
  queueState: {
    preflightBlockedByAdmissionCondition: true,
    stackRunPreflightPending: false,
    blockingEntityId: 'stack-network',
    blockingEntityType: 'STACK',
    blockingRunId: 'run-waiting',
  },
});
const queued = pipelineRun({
  id: 'run-queued',
  attachedEntityId: 'stack-database',
  pipelineId: 'stack-database-destroy',
  createdById: 'member-ada',
  status: 'QUEUED',
  isCancellable: true,
  queueReason: 'Waiting for a runner',
});
const allRuns = [waiting, failed, running, held, queued];

const steps: Record<string, StepExecution[]> = {
  [waiting.id]: [
    stepExecution({
      id: 'step-plan',
      pipelineRunId: waiting.id,
      position: 0,
      name: 'Plan',
      type: 'iac.plan',
      status: 'SUCCEEDED',
    }),
    stepExecution({
      id: 'step-approval',
      pipelineRunId: waiting.id,
      position: 1,
      name: 'Approval',
      type: 'approval',
      status: 'WAITING_FOR_APPROVAL',
    }),
    stepExecution({
      id: 'step-apply',
      pipelineRunId: waiting.id,
      position: 2,
      name: 'Apply',
      type: 'iac.apply',
      status: 'PENDING',
    }),
  ],
  [failed.id]: [
    stepExecution({
      id: 'step-failed-apply',
      pipelineRunId: failed.id,
      position: 0,
      name: 'Apply',
      type: 'iac.apply',
      status: 'FAILED',
      error: {
        code: 'InfraDelivery:StepExecution:FAILED',
        message: 'Error: creating RDS instance: quota exceeded',
      },
    }),
  ],
};

const subnetBefore = { cidr_block: '10.0.1.0/24', tags: { Name: 'private' } };
const subnetAfter = { cidr_block: '10.0.2.0/23', tags: { Name: 'private' } };
const resources: IacResource[] = [
  iacResource({
    id: 'res-subnet',
    pipelineRunId: waiting.id,
    address: 'aws_subnet.private',
    resourceType: 'aws_subnet',
    changeKind: 'REPLACE',
    runType: 'PLAN',
    tainted: true,
    vendorData: { before: subnetBefore, after: subnetAfter },
  }),
  iacResource({
    id: 'res-route',
    pipelineRunId: waiting.id,
    address: 'aws_route_table.private',
    resourceType: 'aws_route_table',
    changeKind: 'UPDATE',
    runType: 'PLAN',
  }),
  iacResource({
    id: 'res-eip',
    pipelineRunId: waiting.id,
    address: 'aws_eip.nat',
    resourceType: 'aws_eip',
    changeKind: 'CREATE',
    runType: 'PLAN',
    vendorData: { before: null, after: { domain: 'vpc' } },
  }),
];

describe('PipelineRunsContent', () => {
  const { server, requests, requestsTo } = setupInfraDeliveryServer();

  /** The service as the list and the details read it; tests override single endpoints. */
  function serveRuns() {
    server.use(
      stackList([
        stack({ id: 'stack-network', name: 'Network' }),
        stack({ id: 'stack-database', name: 'Database' }),
      ]),
      http.get(`${baseUrl}/memberships`, () =>
        HttpResponse.json(
          list([
            {
              id: 'member-ada',
              organizationId: 'org-1',
              email: 'ada@example.com',
              role: 'MEMBER',
              userId: 'user-ada',
              createdAt: now,
              updatedAt: now,
            },
          ]),
        ),
      ),
      http.get(`${baseUrl}/service-accounts`, () =>
        HttpResponse.json(list([])),
      ),
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        const entities = query.getAll('attachedEntityId');
        const statuses = query.getAll('status');
        return HttpResponse.json(
          list(
            allRuns.filter(
              run =>
                entities.includes(run.attachedEntityId!) &&
                (statuses.length === 0 || statuses.includes(run.status)),
            ),
          ),
        );
      }),
      http.get<{ id: string }>(`${baseUrl}/pipeline-runs/:id`, ({ params }) => {
        const found = allRuns.find(run => run.id === params.id);
        return found
          ? HttpResponse.json({ data: found })
          : errorResponse(404, {
              code: 'InfraDelivery:PipelineRun:NOT_FOUND',
              message: `Pipeline run ${params.id} does not exist`,
              requestId: 'req-run-404',
            });
      }),
      http.get<{ id: string }>(
        `${baseUrl}/pipeline-runs/:id/step-executions`,
        ({ params }) => HttpResponse.json({ data: steps[params.id] ?? [] }),
      ),
      http.get(`${baseUrl}/iac-execution-summaries`, ({ request }) => {
        const runId = new URL(request.url).searchParams.get('pipelineRunId');
        return HttpResponse.json(
          list(
            runId === waiting.id
              ? [
                  iacExecutionSummary({
                    id: 'summary-plan',
                    pipelineRunId: waiting.id,
                    runType: 'PLAN',
                    addCount: 5,
                    changeCount: 1,
                    destroyCount: 2,
                    replaceCount: 1,
                    unchangedCount: 40,
                  }),
                ]
              : [],
          ),
        );
      }),
      http.get(`${baseUrl}/iac-resources`, ({ request }) => {
        const runId = new URL(request.url).searchParams.get('pipelineRunId');
        return HttpResponse.json(
          list(resources.filter(r => r.pipelineRunId === runId)),
        );
      }),
      http.get<{ id: string }>(
        `${baseUrl}/pipeline-step-executions/:id/logs`,
        ({ params }) => HttpResponse.json(list(stepLogs[params.id] ?? [])),
      ),
      http.post<{ id: string; action: string }>(
        `${baseUrl}/pipeline-runs/:id/:action`,
        ({ params }) =>
          HttpResponse.json({
            data: allRuns.find(run => run.id === params.id),
          }),
      ),
    );
  }

  const posts = () => requests().filter(r => r.method === 'POST');
  const listRequests = () => requestsTo('GET', '/pipeline-runs');

  /** Whether an element sits in the Run column (a held run names its holder in Status). */
  const inRunColumn = (element: HTMLElement) =>
    (element.closest('td') as HTMLTableCellElement | null)?.cellIndex === 1;

  /** The row of the run with this title. */
  async function rowOf(text: string) {
    const found = await screen.findAllByText(text);
    return (found.find(inRunColumn) ?? found[0]).closest('tr')!;
  }

  /** The links of the run with this title in the Run column. */
  async function runLinks(title: string) {
    const links = await screen.findAllByRole('link', { name: title });
    return links.filter(inRunColumn);
  }

  /** Opens a run from the table; its details are titled with its description. */
  async function openRun(description: string) {
    await userEvent.click((await runLinks(description))[0]);
    const card = await screen.findByRole('region', { name: 'Run details' });
    await waitFor(() =>
      expect(within(card).queryByTestId('progress')).not.toBeInTheDocument(),
    );
    return card;
  }

  it('asks for the annotation when the entity names no stack', async () => {
    renderEntityContent(<PipelineRunsContent />, entityNaming());

    expect(await screen.findByText('Missing Annotation')).toBeInTheDocument();
    expect(
      screen.getAllByText(/infra-delivery\.io\/stacks/).length,
    ).toBeGreaterThan(0);
    expect(requests()).toEqual([]);
  });

  it("lists the runs of the entity's stacks", async () => {
    serveRuns();

    renderEntityContent(<PipelineRunsContent />, entity);

    expect(
      await screen.findByText(`Pipeline runs (${allRuns.length})`),
    ).toBeInTheDocument();
    expect(
      within(await rowOf('Apply network changes')).getByText(
        'Waiting for approval',
      ),
    ).toBeInTheDocument();
    // What its plan would change, from the run itself: no request per row.
    expect(
      within(await rowOf('Apply network changes')).getByText('+5 ~1 −2'),
    ).toBeInTheDocument();
    expect(
      within(await rowOf('Upgrade database')).queryByText(/^\+/),
    ).toBeNull();
    const failedRow = await rowOf('Upgrade database');
    expect(within(failedRow).getByText('Failed')).toBeInTheDocument();
    // How long it took, under when it was triggered (the list's order), not when it started.
    expect(
      within(failedRow).getByText(byTextContent('took 2m 05s')),
    ).toBeInTheDocument();
    expect(failedRow.querySelector('time')).toHaveAttribute(
      'datetime',
      failed.createdAt,
    );
    expect(failed.createdAt).not.toBe(failed.startedAt);
    const runningRow = await rowOf('Rotate database credentials');
    expect(within(runningRow).getByText('Running')).toBeInTheDocument();
    // No person started it: what did is named under its name; a run started through the API
    // names nobody.
    expect(within(runningRow).getByText('Drift schedule')).toBeInTheDocument();
    expect(
      within(await rowOf('Apply network changes')).queryByText(/^by /),
    ).not.toBeInTheDocument();
    // Four columns: who started a run is no column of its own, so Triggered fits at 1,024 px.
    expect(
      screen.getAllByRole('columnheader').map(header => header.textContent),
    ).toEqual(['Status', 'Run', 'Stack', 'Triggered']);
    // A run without a description is named by what it does (its stack has a column of its
    // own), and shows who started it; a plain queue reason is shown as is.
    expect(screen.queryByText('Destroy · Database')).not.toBeInTheDocument();
    const queuedRow = await rowOf('Destroy');
    expect(within(queuedRow).getByText('Queued')).toBeInTheDocument();
    expect(
      within(queuedRow).getByText(byTextContent('by ada@example.com')),
    ).toBeInTheDocument();
    // The stack is named, and links to its catalog entity's Stacks tab.
    expect(
      within(queuedRow).getByRole('link', { name: 'Database' }),
    ).toHaveAttribute(
      'href',
      expect.stringMatching(
        /\/catalog\/default\/resource\/stack-[^/]+\/infra-stacks$/,
      ),
    );
    expect(
      within(queuedRow).getByText('Waiting for a runner'),
    ).toBeInTheDocument();

    expect(listRequests()).toHaveLength(1);
    const [request] = listRequests();
    expect(request.query.getAll('attachedEntityId')).toEqual(stackIds);
    expect(request.query.has('status')).toBe(false);
  });

  it('folds into three columns where a 768 px window leaves it under 600 px', async () => {
    serveRuns();
    const restore = fakeContainerWidth(500);
    try {
      renderEntityContent(<PipelineRunsContent />, entity);
      const failedRow = await rowOf('Upgrade database');
      // Four columns ran past the card's edge at 768 px, Triggered cut off.
      expect(
        screen.getAllByRole('columnheader').map(header => header.textContent),
      ).toEqual(['Status', 'Run', 'Stack']);
      // When it was triggered, and how long it took, under its status.
      const status = within(failedRow).getAllByRole('cell')[0];
      expect(status.querySelector('time')).toHaveAttribute(
        'datetime',
        failed.createdAt,
      );
      expect(
        within(status).getByText(byTextContent('took 2m 05s')),
      ).toBeInTheDocument();
    } finally {
      restore();
    }
  });

  // On a stack's own page every row said its name twice: "Destroy · Database" beside a Stack
  // column of "Database" under the stack's title.
  it("names neither the stack nor a Stack column on the stack's own page", async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, {
      ...entityNaming('stack-database'),
      kind: 'Resource',
      spec: { type: 'iac-stack', owner: 'team-a' },
    });
    const queuedRow = await rowOf('Destroy');
    expect(within(queuedRow).getByText('Queued')).toBeInTheDocument();
    expect(screen.queryByText('Destroy · Database')).not.toBeInTheDocument();
    expect(
      screen.getAllByRole('columnheader').map(header => header.textContent),
    ).toEqual(['Status', 'Run', 'Triggered']);
  });

  it('says so when no run matches, which filters are on, and shows every run again', async () => {
    serveRuns();
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
    );

    renderEntityContent(<PipelineRunsContent />, entity, {
      initialRouteEntries: ['/?status=RUNNING&kind=DRIFT_CHECK'],
    });

    expect(
      await screen.findByText(
        'No runs match the filters: Running, Drift checks.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Pipeline runs (0)')).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('button', { name: 'Show every run' }),
    );

    expect(await screen.findByText('No runs yet.')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        listRequests()[listRequests().length - 1].query.toString(),
      ).not.toMatch(/status|kind/),
    );
    expect(
      screen.getByRole('button', { name: 'Drift checks' }),
    ).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows only drift checks when asked, from the first page', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    await rowOf('Apply network changes');

    // The kind filter stands apart from the status filter, each named.
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Kind' })).getByRole('button', {
        name: 'Drift checks',
      }),
    );
    expect(
      within(screen.getByRole('group', { name: 'Status' }))
        .getAllByRole('button')
        .map(chip => chip.textContent),
    ).toEqual([
      'Queued',
      'Running',
      'Waiting for approval',
      'Succeeded',
      'Failed',
      'Cancelled',
    ]);

    await waitFor(() => expect(listRequests()).toHaveLength(2));
    expect(listRequests()[1].query.getAll('kind')).toEqual(['DRIFT_CHECK']);
    expect(listRequests()[1].query.has('cursor')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Drift checks' }));
    await waitFor(() => expect(listRequests()).toHaveLength(3));
    expect(listRequests()[2].query.has('kind')).toBe(false);
  });

  it('filters by the status chips, asking the service each time', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    await rowOf('Apply network changes');

    await userEvent.click(screen.getByRole('button', { name: 'Failed' }));

    await waitFor(() =>
      expect(
        screen.queryByText('Apply network changes'),
      ).not.toBeInTheDocument(),
    );
    expect(await screen.findByText('Pipeline runs (1)')).toBeInTheDocument();
    expect(screen.getByText('Upgrade database')).toBeInTheDocument();
    expect(listRequests()).toHaveLength(2);
    expect(listRequests()[1].query.getAll('status')).toEqual(['FAILED']);
    expect(listRequests()[1].query.getAll('attachedEntityId')).toEqual(
      stackIds,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Running' }));

    expect(await screen.findByText('Pipeline runs (2)')).toBeInTheDocument();
    expect(screen.getByText('Rotate database credentials')).toBeInTheDocument();
    // In the statuses' own order, as the page's address keeps them.
    expect(listRequests()[2].query.getAll('status')).toEqual([
      'RUNNING',
      'FAILED',
    ]);

    // Assistive technology hears which statuses filter the list.
    expect(screen.getByRole('button', { name: 'Failed' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Queued' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );

    // A second click takes the status out of the filter again.
    await userEvent.click(screen.getByRole('button', { name: 'Failed' }));
    expect(screen.getByRole('button', { name: 'Failed' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );

    expect(await screen.findByText('Pipeline runs (1)')).toBeInTheDocument();
    expect(screen.queryByText('Upgrade database')).not.toBeInTheDocument();
    expect(listRequests()[3].query.getAll('status')).toEqual(['RUNNING']);
  });

  it('opens with the filters of its address, and keeps each change there', async () => {
    serveRuns();
    /** The address's query string, as a link to the filtered list would carry it. */
    const Address = () => (
      <div data-testid="address">{useLocation().search}</div>
    );
    renderEntityContent(
      <>
        <PipelineRunsContent />
        <Address />
      </>,
      entity,
      { initialRouteEntries: ['/?status=FAILED&status=NO_SUCH_STATUS'] },
    );

    expect(await screen.findByText('Pipeline runs (1)')).toBeInTheDocument();
    expect(listRequests()[0].query.getAll('status')).toEqual(['FAILED']);
    expect(screen.getByRole('button', { name: 'Failed' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Queued' }));
    await userEvent.click(screen.getByRole('button', { name: 'Drift checks' }));

    // In the statuses' own order, whatever the order of the clicks.
    await waitFor(() =>
      expect(screen.getByTestId('address')).toHaveTextContent(
        '?status=QUEUED&status=FAILED&kind=DRIFT_CHECK',
      ),
    );
    await waitFor(() =>
      expect(listRequests().at(-1)!.query.getAll('status')).toEqual([
        'QUEUED',
        'FAILED',
      ]),
    );
    expect(listRequests().at(-1)!.query.getAll('kind')).toEqual([
      'DRIFT_CHECK',
    ]);
  });

  it('explains which run holds a queued run, and opens that run', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);

    const row = await rowOf('Resize subnets');
    // The run holding it is on the page: named, with what keeps it.
    expect(
      within(row).getByText(
        byTextContent(
          'Waits for Apply network changes, which waits for approval',
        ),
      ),
    ).toBeInTheDocument();
    // The structured reason replaces the plain one.
    expect(within(row).queryByText('Stack is busy')).not.toBeInTheDocument();

    await userEvent.click(
      within(row).getByRole('link', { name: 'Apply network changes' }),
    );

    const details = await screen.findByRole('region', { name: 'Run details' });
    expect(
      await within(details).findByText('Apply network changes'),
    ).toBeInTheDocument();
    expect(requestsTo('GET', '/pipeline-runs/run-waiting')).toHaveLength(1);
  });

  it('says on a held run’s own page what it waits for, and links that run', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);

    const card = await openRun('Resize subnets');
    // The run holding it is read too, to say what keeps it.
    expect(
      await within(card).findByText(
        byTextContent(
          'Waits for Apply network changes, which waits for approval',
        ),
      ),
    ).toBeInTheDocument();
    await userEvent.click(
      within(card).getByRole('link', { name: 'Apply network changes' }),
    );
    const details = await screen.findByRole('region', { name: 'Run details' });
    expect(
      await within(details).findByText('Apply network changes'),
    ).toBeInTheDocument();
  });

  it("shows a selected run's steps, plan summary and resource changes", async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);

    const card = await openRun('Apply network changes');

    expect(
      within(card).getAllByText('Waiting for approval').length,
    ).toBeGreaterThanOrEqual(2); // the run and its approval step

    // The stack under the run's title is a link as the Stack column's: underlined on hover.
    const stackLink = within(card).getByRole('link', { name: 'Network' });
    expect(stackLink).toHaveClass('MuiLink-underlineHover');
    expect(stackLink).not.toHaveClass('MuiLink-underlineAlways');

    const plan = within(card).getByText(byTextContent(/^Plan: \+5 ~1 −2/));
    expect(plan).toHaveTextContent(
      'Plan: +5 ~1 −2 · 1 replaced · 40 unchanged',
    );

    expect(
      within(card).getByText(byTextContent('1. Plan')),
    ).toBeInTheDocument();
    // Step types and changes read as words, not as the API's enum values.
    expect(within(card).getByText('IaC plan')).toBeInTheDocument();
    expect(
      within(card).getByText(byTextContent('2. Approval')),
    ).toBeInTheDocument();
    expect(within(card).getByText('Approval')).toBeInTheDocument();
    expect(
      within(card).getByText(byTextContent('3. Apply')),
    ).toBeInTheDocument();
    expect(within(card).getByText('Pending')).toBeInTheDocument();

    expect(
      await within(card).findByText('Resource changes (3)'),
    ).toBeInTheDocument();
    // The run, its steps and its changes are three cards side by side on the page, as an
    // entity page's sections: none drawn inside another.
    const cardOf = (name: string | RegExp) =>
      within(card).getByRole('heading', { name }).closest('.MuiPaper-root')!;
    const cards = [
      cardOf('Apply network changes'),
      cardOf('Steps'),
      cardOf('Resource changes (3)'),
    ];
    expect(new Set(cards).size).toBe(3);
    for (const one of cards) {
      expect(one.parentElement!.closest('.MuiPaper-root')).toBeNull();
    }
    const subnetRow = within(card)
      .getByText('aws_subnet.private')
      .closest('tr')!;
    expect(
      within(subnetRow).getByText('Replace (tainted)'),
    ).toBeInTheDocument();
    // One step reported: no step to choose, and no step column repeating "Plan".
    expect(
      within(card).queryByRole('button', { name: /^Plan \(/ }),
    ).not.toBeInTheDocument();
    expect(
      within(card).queryByRole('columnheader', { name: 'Step' }),
    ).not.toBeInTheDocument();
    const routeRow = within(card)
      .getByText('aws_route_table.private')
      .closest('tr')!;
    expect(within(routeRow).getByText('Update')).toBeInTheDocument();
    expect(within(routeRow).queryByText(/tainted/)).not.toBeInTheDocument();
    expect(within(card).getByText('aws_eip.nat')).toBeInTheDocument();
    // The last column's header stays on one line beside the wide addresses.
    expect(
      within(card).getByRole('columnheader', { name: 'Before and after' }),
    ).toHaveStyle({ whiteSpace: 'nowrap' });

    const summaryRequest = requestsTo('GET', '/iac-execution-summaries')[0];
    expect(summaryRequest.query.get('pipelineRunId')).toBe(waiting.id);
    const resourcesRequest = requestsTo('GET', '/iac-resources')[0];
    expect(resourcesRequest.query.get('pipelineRunId')).toBe(waiting.id);
    expect(resourcesRequest.query.has('stackId')).toBe(false);
    expect(
      requestsTo('GET', `/pipeline-runs/${waiting.id}/step-executions`),
    ).toHaveLength(1);
  });

  it('shows what changes, and the unchanged resources on request', async () => {
    serveRuns();
    const unchanged = ['aws_vpc.main', 'aws_internet_gateway.main'].map(
      (address, i) =>
        iacResource({
          id: `res-same-${i}`,
          pipelineRunId: waiting.id,
          address,
          resourceType: address.split('.')[0],
          changeKind: 'NO_OP',
          runType: 'PLAN',
        }),
    );
    server.use(
      http.get(`${baseUrl}/iac-resources`, () =>
        HttpResponse.json(
          list([
            ...resources.filter(r => r.pipelineRunId === waiting.id),
            ...unchanged,
          ]),
        ),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    // The title counts the rows shown: the changes, then with the unchanged.
    expect(
      await within(card).findByText('Resource changes (3)'),
    ).toBeInTheDocument();
    expect(within(card).getByText('aws_subnet.private')).toBeInTheDocument();
    expect(within(card).queryByText('aws_vpc.main')).not.toBeInTheDocument();

    // The switch is in the header of the card it filters, not beside it.
    const toggle = within(card).getByRole('checkbox', {
      name: 'Show the 2 unchanged',
    });
    const changesCard = within(card)
      .getByRole('heading', { name: 'Resource changes (3)' })
      .closest('.MuiPaper-root');
    expect(toggle.closest('.MuiPaper-root')).toBe(changesCard);
    expect(changesCard!.querySelector('.MuiCardHeader-root')).toContainElement(
      toggle,
    );
    await userEvent.click(toggle);
    expect(within(card).getByText('aws_vpc.main')).toBeInTheDocument();
    expect(within(card).getByText('Resource changes (5)')).toBeInTheDocument();
    expect(
      within(card.querySelector('tbody')!).getAllByRole('row'),
    ).toHaveLength(5);
  });

  it('filters the resource changes from the header of their card', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');
    await within(card).findByText('Resource changes (3)');

    // With the card's other controls, not on a row of its own under them.
    const filter = within(card).getByRole('textbox', {
      name: 'Filter resource changes',
    });
    const changesCard = filter.closest<HTMLElement>('.MuiPaper-root')!;
    expect(changesCard.querySelector('.MuiCardHeader-root')).toContainElement(
      filter,
    );
    expect(within(changesCard).getAllByRole('textbox')).toEqual([filter]);

    // By address or by change, in any case.
    await userEvent.type(filter, 'PRIVATE');
    expect(within(card).getByText('Resource changes (2)')).toBeInTheDocument();
    expect(within(card).queryByText('aws_eip.nat')).not.toBeInTheDocument();
    await userEvent.clear(filter);
    await userEvent.type(filter, 'create');
    expect(within(card).getByText('Resource changes (1)')).toBeInTheDocument();
    expect(within(card).getByText('aws_eip.nat')).toBeInTheDocument();

    // Nothing found says what was looked for, and leads back to every change.
    await userEvent.type(filter, ' nothing');
    expect(
      within(card).getByText('No resource change matches “create nothing”.'),
    ).toBeInTheDocument();
    await userEvent.click(
      within(card).getByRole('button', { name: 'Clear the filter' }),
    );
    expect(within(card).getByText('Resource changes (3)')).toBeInTheDocument();
    expect(filter).toHaveValue('');
  });

  it('reads every page of a large run’s changes, and says when a run reported more than it reads', async () => {
    serveRuns();
    // 1,200 changes in pages of 500; the run reported 6,000.
    const many = Array.from({ length: 1_200 }, (_, i) =>
      iacResource({
        id: `many-${i}`,
        address: `aws_instance.web[${i}]`,
        pipelineRunId: waiting.id,
        runType: 'PLAN',
        changeKind: 'CREATE',
      }),
    );
    server.use(
      http.get(`${baseUrl}/iac-resources`, ({ request }) => {
        const url = new URL(request.url);
        const from = Number(url.searchParams.get('cursor') ?? 0);
        const limit = Number(url.searchParams.get('limit'));
        const next = from + limit;
        return HttpResponse.json({
          data: many.slice(from, next),
          meta: {
            limit,
            totalCount: 6_000,
            ...(next < many.length ? { nextCursor: String(next) } : {}),
          },
        });
      }),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    expect(
      await within(card).findByText(
        'The first 1200 of the 6000 resources the run reported',
      ),
    ).toBeInTheDocument();
    expect(
      within(card).getByText('Resource changes (1200)'),
    ).toBeInTheDocument();
    expect(
      requestsTo('GET', '/iac-resources').map(r => [
        r.query.get('limit'),
        r.query.get('cursor'),
      ]),
    ).toEqual([
      ['500', null],
      ['500', '500'],
      ['500', '1000'],
    ]);

    // Laid out 50 at a time: 1,200 rows at once took seconds, again at each letter filtered.
    const addresses = () =>
      within(card)
        .queryAllByText(/^aws_instance\.web\[\d+\]$/)
        .map(cell => cell.textContent);
    expect(addresses()).toEqual(
      Array.from({ length: 50 }, (_, i) => `aws_instance.web[${i}]`),
    );
    // material-table writes the range twice: for wide and for narrow screens.
    expect(within(card).getAllByText('1-50 of 1200')).not.toHaveLength(0);
    await userEvent.click(
      within(card).getByRole('button', { name: 'Next Page' }),
    );
    expect(addresses()[0]).toBe('aws_instance.web[50]');
    // material-table writes the range twice: for wide and for narrow screens.
    expect(within(card).getAllByText('51-100 of 1200')).not.toHaveLength(0);

    // Another filter shows its matches from the first page: material-table stayed on the
    // second, and the first 50 matches were out of sight.
    const filter = within(card).getByRole('textbox', { name: /filter/i });
    await userEvent.type(filter, 'web[[1'); // '[[' types one '['
    expect(addresses()[0]).toBe('aws_instance.web[1]');
    expect(within(card).getAllByText('1-50 of 311')).not.toHaveLength(0);
    await userEvent.clear(filter);

    // A filter with fewer matches than a page shows them all, without paging.
    await userEvent.type(filter, 'web[[119');
    expect(addresses()).toEqual([
      'aws_instance.web[119]',
      ...Array.from({ length: 10 }, (_, i) => `aws_instance.web[${1190 + i}]`),
    ]);
    expect(
      within(card).queryByRole('button', { name: 'Next Page' }),
    ).not.toBeInTheDocument();
  });

  it("shows a resource change's before and after in a dialog named after it", async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    await within(card).findByText('aws_subnet.private');
    expect(screen.queryByText('before')).not.toBeInTheDocument();

    await userEvent.click(
      within(card).getByRole('button', {
        name: 'Show before and after of aws_subnet.private',
      }),
    );

    const dialog = await screen.findByRole('dialog', {
      name: /aws_subnet\.private$/,
    });
    expect(within(dialog).getByText('before')).toBeInTheDocument();
    expect(within(dialog).getByText('after')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        byTextContent(JSON.stringify(subnetBefore, null, 2)),
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        byTextContent(JSON.stringify(subnetAfter, null, 2)),
      ),
    ).toBeInTheDocument();
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Close' }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
  });

  it("opens the plan a waiting approval asks about, and shows a step's log lines in a log viewer", async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    // The run waits for approval: the plan to decide on is open, where the page opened with
    // every step closed and "Approve" above them.
    expect(
      within(card).getByRole('button', { name: /^1\. Plan/ }),
    ).toHaveAttribute('aria-expanded', 'true');
    expect(
      await within(card).findByText('Initializing the backend...'),
    ).toBeInTheDocument();
    expect(
      within(card).getByText('Plan: 5 to add, 1 to change, 2 to destroy.'),
    ).toBeInTheDocument();
    // The viewer numbers the lines and links to each.
    expect(within(card).getByRole('link', { name: 'Line 2' })).toHaveAttribute(
      'href',
      '#line-2',
    );
    expect(
      requestsTo('GET', '/pipeline-step-executions/step-plan/logs'),
    ).toHaveLength(1);

    // A step without logs says why it has none.
    await userEvent.click(within(card).getByText(byTextContent('3. Apply')));
    expect(
      await within(card).findByText(
        'Not started: it runs once the steps before it have ended.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(card).getByText(byTextContent('2. Approval')));
    expect(
      await within(card).findByText(
        'Waits for a person to approve or reject the plan above.',
      ),
    ).toBeInTheDocument();
    // The approval says what it would let through.
    expect(
      within(card).getByText(byTextContent('Would apply+5 ~1 −2')),
    ).toBeInTheDocument();
  });

  /** The waiting run's approval step, decided by Ada: approved (`SUCCEEDED`) or rejected. */
  function serveDecidedApproval(
    status: 'SUCCEEDED' | 'FAILED',
    outputs: Record<string, string>,
  ) {
    serveRuns();
    const [plan, approval, apply] = steps[waiting.id];
    server.use(
      http.get(`${baseUrl}/pipeline-runs/${waiting.id}/step-executions`, () =>
        HttpResponse.json({
          data: [
            plan,
            {
              ...approval,
              status,
              completedAt: now,
              outputs: { decidedById: 'member-ada', ...outputs },
            },
            apply,
          ],
        }),
      ),
    );
  }

  it('says who approved or rejected an approval, and what they wrote', async () => {
    serveDecidedApproval('SUCCEEDED', { comment: 'Ship it' });
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    await userEvent.click(within(card).getByText(byTextContent('2. Approval')));
    expect(
      await within(card).findByText(
        byTextContent(/^Approved by ada@example\.com/),
      ),
    ).toBeInTheDocument();
    expect(within(card).getByText('“Ship it”')).toBeInTheDocument();
  });

  it.each([
    ['SUCCEEDED', 'Approved', 'Succeeded'],
    ['FAILED', 'Rejected', 'Failed'],
  ] as const)(
    'names a decided approval step %s by its decision, %s',
    async (status, decision, generic) => {
      serveDecidedApproval(status, {});
      renderEntityContent(<PipelineRunsContent />, entity);
      const card = await openRun('Apply network changes');

      const summary = within(card).getByRole('button', {
        name: /^2\. Approval/,
      });
      expect(within(summary).getByText(decision)).toBeInTheDocument();
      expect(within(summary).queryByText(generic)).not.toBeInTheDocument();
    },
  );

  it('names a portal user who decided an approval as the run’s header names who started it', async () => {
    serveRuns();
    const [plan, approval, apply] = steps[waiting.id];
    server.use(
      http.get(`${baseUrl}/memberships`, () =>
        HttpResponse.json(
          list([
            {
              id: 'member-guest',
              organizationId: 'org-1',
              email: 'user:default/guest',
              role: 'OWNER',
              userId: 'user-guest',
              createdAt: now,
              updatedAt: now,
            },
          ]),
        ),
      ),
      http.get(`${baseUrl}/pipeline-runs/${waiting.id}`, () =>
        HttpResponse.json({
          data: { ...waiting, status: 'FAILED', createdById: 'member-guest' },
        }),
      ),
      http.get(`${baseUrl}/pipeline-runs/${waiting.id}/step-executions`, () =>
        HttpResponse.json({
          data: [
            plan,
            {
              ...approval,
              status: 'FAILED',
              completedAt: now,
              outputs: { decidedById: 'member-guest' },
            },
            { ...apply, status: 'SKIPPED' },
          ],
        }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');
    await waitFor(() =>
      expect(within(card).getByText(/started by/)).toHaveTextContent(
        'started by guest',
      ),
    );

    // The rejected approval is open: it is where the run failed.
    expect(
      await within(card).findByText(byTextContent(/^Rejected by guest /)),
    ).toBeInTheDocument();
    expect(within(card).queryByText(/user:default/)).not.toBeInTheDocument();
  });

  it('approves a waiting run after confirmation, then reloads the run and the list', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');
    // Waiting for approval, it has not ended: its duration counts on.
    expect(
      within(card).getByTitle(/^Started .*, not ended yet$/),
    ).toBeVisible();
    expect(card).toHaveTextContent(/ so far/);

    expect(
      within(card).getByRole('button', { name: 'Reject' }),
    ).toBeInTheDocument();
    expect(
      within(card).queryByRole('button', { name: 'Retry' }),
    ).not.toBeInTheDocument();
    const runLoads = requestsTo('GET', `/pipeline-runs/${waiting.id}`).length;
    const listLoads = listRequests().length;

    await userEvent.click(
      within(card).getByRole('button', { name: 'Approve' }),
    );

    const dialog = await screen.findByRole('dialog', {
      name: 'Approve the plan?',
    });
    // The dialog repeats what the approval lets through.
    expect(
      within(dialog).getByText(
        'The plan adds 5, changes 1, replaces 1 and destroys 2 resources.',
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('The run continues with the next step (apply).'),
    ).toBeInTheDocument();
    expect(posts()).toEqual([]);

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Approve' }),
    );

    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(posts()).toHaveLength(1);
    expect(posts()[0].path).toBe(`/pipeline-runs/${waiting.id}/approve`);
    expect(posts()[0].body).toEqual({ data: {} });
    // It says what the approval did: the service answered that the run waits for another
    // approval (this fake service answers with the run as it was).
    expect(await within(card).findByRole('status')).toHaveTextContent(
      'Approved: the run waits for its next approval.',
    );
    await waitFor(() => {
      expect(
        requestsTo('GET', `/pipeline-runs/${waiting.id}`).length,
      ).toBeGreaterThan(runLoads);
    });
    // Back on the list, the runs are read again.
    await userEvent.click(screen.getByRole('link', { name: 'All runs' }));
    expect(await screen.findByText('Pipeline runs (5)')).toBeInTheDocument();
    expect(listRequests().length).toBeGreaterThan(listLoads);
  });

  it('marks read the approver’s own “waits for your approval” notification of the run', async () => {
    serveRuns();
    const scope = approvalNotificationScope(waiting.id);
    const notifications = {
      getNotifications: jest.fn(async () => ({
        notifications: [
          { id: 'other-run', payload: { title: 'x', scope: `${scope}-2` } },
          { id: 'this-run', payload: { title: 'y', scope } },
        ] as unknown as GetNotificationsResponse['notifications'],
        totalCount: 2,
      })),
      updateNotifications: jest.fn(async () => []),
    };
    renderEntityContent(<PipelineRunsContent />, entity, { notifications });
    const card = await openRun('Apply network changes');
    await userEvent.click(
      within(card).getByRole('button', { name: 'Approve' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Approve the plan?',
    });
    expect(notifications.updateNotifications).not.toHaveBeenCalled();
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Approve' }),
    );

    await waitFor(() =>
      expect(notifications.updateNotifications).toHaveBeenCalledWith({
        ids: ['this-run'],
        read: true,
      }),
    );
    expect(notifications.getNotifications).toHaveBeenCalledWith(
      expect.objectContaining({
        read: false,
        topic: APPROVAL_NOTIFICATION_TOPIC,
      }),
    );
    expect(posts()[0].path).toBe(`/pipeline-runs/${waiting.id}/approve`);
  });

  it('says the apply runs next when the approval was the last one, until the run has ended', async () => {
    serveRuns();
    let status: PipelineRun['status'] = 'WAITING_FOR_APPROVAL';
    server.use(
      http.post(`${baseUrl}/pipeline-runs/:id/approve`, () => {
        status = 'RUNNING';
        return HttpResponse.json({ data: { ...waiting, status } });
      }),
      http.get(`${baseUrl}/pipeline-runs/${waiting.id}`, () =>
        HttpResponse.json({ data: { ...waiting, status } }),
      ),
    );
    const signals = fakeSignals();
    renderEntityContent(<PipelineRunsContent />, entity, {
      signals: signals.api,
    });
    const card = await openRun('Apply network changes');

    await userEvent.click(
      within(card).getByRole('button', { name: 'Approve' }),
    );
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Approve',
      }),
    );

    // Only what the approval did: the status shown beside it moves on by itself.
    expect(await within(card).findByRole('status')).toHaveTextContent(
      /^Approved: the apply runs next\.$/,
    );

    // The apply succeeds: "the apply runs next" is no longer true; the message says only what
    // the approval did, and goes once it has stood long enough to be read.
    status = 'SUCCEEDED';
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: waiting.id }),
    );
    await waitFor(() =>
      expect(within(card).getByRole('status')).toHaveTextContent(
        /^Approved\.$/,
      ),
    );
    expect(within(card).getAllByText('Succeeded').length).toBeGreaterThan(1);
    const restoreClock = afterUnderWayMessageMinimum();
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: waiting.id }),
    );
    await waitFor(() =>
      expect(within(card).queryByRole('status')).not.toBeInTheDocument(),
    );
    restoreClock();
  });

  it('names the step an approval lets run: a destroy run destroys next', async () => {
    serveRuns();
    server.use(
      http.get(`${baseUrl}/pipeline-runs/${waiting.id}/step-executions`, () =>
        HttpResponse.json({
          data: [
            stepExecution({
              id: 'step-plan-destroy',
              pipelineRunId: waiting.id,
              position: 0,
              name: 'Plan the destruction',
              type: 'iac.plan',
              status: 'SUCCEEDED',
            }),
            stepExecution({
              id: 'step-approve-destroy',
              pipelineRunId: waiting.id,
              position: 1,
              name: 'Approve the destruction',
              type: 'approval',
              status: 'WAITING_FOR_APPROVAL',
            }),
            stepExecution({
              id: 'step-destroy',
              pipelineRunId: waiting.id,
              position: 2,
              name: 'Destroy',
              type: 'iac.destroy',
              status: 'PENDING',
            }),
          ],
        }),
      ),
      http.post(`${baseUrl}/pipeline-runs/:id/approve`, () =>
        HttpResponse.json({ data: { ...waiting, status: 'RUNNING' } }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    await userEvent.click(
      within(card).getByRole('button', { name: 'Approve' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Approve the plan?',
    });
    expect(
      within(dialog).getByText(
        'The run continues with the next step (destroy).',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/apply/)).not.toBeInTheDocument();

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Approve' }),
    );
    expect(await within(card).findByRole('status')).toHaveTextContent(
      /^Approved: the destroy runs next\.$/,
    );
  });

  it('rejects a waiting run after confirmation', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    await userEvent.click(within(card).getByRole('button', { name: 'Reject' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Reject the plan?')).toBeInTheDocument();
    expect(
      within(dialog).getByText('The run fails and nothing is applied.'),
    ).toBeInTheDocument();
    expect(posts()).toEqual([]);

    // Why it was rejected goes with the rejection.
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Why (optional)' }),
      'The subnet overlaps the VPN range',
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Reject' }),
    );

    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].path).toBe(`/pipeline-runs/${waiting.id}/reject`);
    expect(posts()[0].body).toEqual({
      data: { comment: 'The subnet overlaps the VPN range' },
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(await within(card).findByRole('status')).toHaveTextContent(
      'Rejected: nothing is applied.',
    );
  });

  it('does nothing when an approval is cancelled', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    await userEvent.click(
      within(card).getByRole('button', { name: 'Approve' }),
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

  it("says a failed run's error once when its failed step's error is the same", async () => {
    serveRuns();
    server.use(
      http.get(`${baseUrl}/pipeline-runs/:id/step-executions`, () =>
        HttpResponse.json({
          data: [
            {
              ...steps[failed.id][0],
              error: { ...steps[failed.id][0].error!, ...failed.error },
            },
          ],
        }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Upgrade database');

    expect(
      within(card).getAllByText('terraform apply exited with status 1'),
    ).toHaveLength(1);
    // The step still says it failed.
    expect(
      within(card).getByRole('button', { name: /^1\. Apply/ }),
    ).toHaveTextContent('Failed');
  });

  it('offers Retry on a failed run, with its error and the next attempt', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Upgrade database');
    // How long it took, its start and end on hover; a run not ended says "so far".
    expect(within(card).getByTitle(/^Started .*, ended /)).toHaveTextContent(
      '2m 05s',
    );
    expect(card).not.toHaveTextContent('so far');

    expect(
      within(card).getByText('terraform apply exited with status 1'),
    ).toBeInTheDocument();
    expect(
      within(card).getByText('Error: creating RDS instance: quota exceeded'),
    ).toBeInTheDocument();
    // The failed step is open on its log: the tool's explanation is there.
    expect(
      await within(card).findByText(
        'Request quota for db.r6g.large in eu-west-1 is 0',
      ),
    ).toBeVisible();
    expect(
      within(card).queryByRole('button', { name: 'Approve' }),
    ).not.toBeInTheDocument();
    expect(
      within(card).queryByRole('button', { name: 'Cancel run' }),
    ).not.toBeInTheDocument();

    await userEvent.click(within(card).getByRole('button', { name: 'Retry' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Retry this run?')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'The run starts again from its first unfinished step, as attempt 2.',
      ),
    ).toBeInTheDocument();
    expect(posts()).toEqual([]);

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Retry' }),
    );

    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].path).toBe(`/pipeline-runs/${failed.id}/retry`);
    expect(posts()[0].body).toEqual({ data: {} });
  });

  it("shows what a failed run's error explains: a state lock, who holds it, the command that releases it and its docs", async () => {
    const locked = pipelineRun({
      ...failed,
      id: 'run-locked',
      description: 'Plan the database',
      error: {
        code: 'InfraDelivery:Runner:STATE_LOCKED',
        message:
          "terraform plan could not lock the stack's state: it is locked by root@vm since 2026-12-01 08:21:37 UTC for an apply (lock ID ef259369)",
        description:
          'If nothing holds it any more, release it: terraform force-unlock -force ef259369 — then run again.',
        action: {
          label: 'How terraform force-unlock releases a lock',
          url: 'https://developer.hashicorp.com/terraform/cli/commands/force-unlock',
        },
        details: [
          {
            title: 'Lock Info',
            render: 'list',
            items: ['ID: ef259369', 'Who: root@vm'],
          },
        ],
      },
    });
    serveRuns();
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(list([locked])),
      ),
      http.get(`${baseUrl}/pipeline-runs/${locked.id}`, () =>
        HttpResponse.json({ data: locked }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Plan the database');

    expect(card).toHaveTextContent(locked.error!.message);
    expect(card).toHaveTextContent(
      'If nothing holds it any more, release it: terraform force-unlock -force ef259369 — then run again.',
    );
    expect(within(card).getByText('Who: root@vm')).toBeInTheDocument();
    expect(
      within(card).getByRole('link', {
        name: /^How terraform force-unlock releases a lock/,
      }),
    ).toHaveAttribute(
      'href',
      'https://developer.hashicorp.com/terraform/cli/commands/force-unlock',
    );
  });

  it("shows a backend that could not be reached in the backend's words, and what to check", async () => {
    const unreachable = pipelineRun({
      ...failed,
      id: 'run-unreachable',
      description: 'Plan the network',
      error: {
        code: 'InfraDelivery:Runner:BACKEND_UNREACHABLE',
        message:
          "terraform init could not reach the stack's state backend: dial tcp 127.0.0.1:5999: connect: connection refused",
        description:
          "The backend that keeps this stack's state and its lock did not answer. Check that its server is up and that the host of the runner can reach it, then run again. Nothing was changed.",
        details: [
          {
            title: "The backend's answer",
            render: 'list',
            items: ['dial tcp 127.0.0.1:5999: connect: connection refused'],
          },
        ],
      },
    });
    serveRuns();
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(list([unreachable])),
      ),
      http.get(`${baseUrl}/pipeline-runs/${unreachable.id}`, () =>
        HttpResponse.json({ data: unreachable }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Plan the network');

    expect(card).toHaveTextContent(unreachable.error!.message);
    expect(card).toHaveTextContent(unreachable.error!.description!);
    expect(
      within(card).getByText(
        'dial tcp 127.0.0.1:5999: connect: connection refused',
      ),
    ).toBeInTheDocument();
  });

  it('offers Plan again, not Retry, when the apply found other changes than the approved plan', async () => {
    const planChanged = pipelineRun({
      id: 'run-plan-changed',
      pipelineId: 'pipeline-database-change',
      description: 'Resize the database',
      attachedEntityId: 'stack-database',
      status: 'FAILED',
      input: { instance_class: 'db.r6g.large' },
      error: {
        code: PLAN_CHANGED_ERROR_CODE,
        message:
          'The plan changed since it was approved (aws_db_instance.main: update approved, replace now): nothing was applied. Start a new run to plan and review the changes',
      },
    });
    const replanned = pipelineRun({
      id: 'run-replanned',
      pipelineId: planChanged.pipelineId,
      attachedEntityId: 'stack-database',
      status: 'QUEUED',
    });
    serveRuns();
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () =>
        HttpResponse.json(list([planChanged])),
      ),
      http.get(`${baseUrl}/pipeline-runs/${planChanged.id}`, () =>
        HttpResponse.json({ data: planChanged }),
      ),
      http.post(`${baseUrl}/pipelines/${planChanged.pipelineId}/runs`, () =>
        HttpResponse.json({ data: replanned }, { status: 201 }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Resize the database');

    expect(
      within(card).queryByRole('button', { name: 'Retry' }),
    ).not.toBeInTheDocument();
    await userEvent.click(
      within(card).getByRole('button', { name: 'Plan again' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'The changes differ from the plan that was approved, so nothing was applied.',
    );
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Plan again' }),
    );

    // A new run of the same pipeline, with the same input; the page links to it.
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].path).toBe(`/pipelines/${planChanged.pipelineId}/runs`);
    expect(posts()[0].body).toEqual({ data: { input: planChanged.input } });
    expect(
      await within(card).findByText(
        'Started a new run that plans the changes again.',
      ),
    ).toBeInTheDocument();
    expect(
      await within(card).findByRole('link', { name: 'Follow the run' }),
    ).toHaveAttribute('href', expect.stringContaining(replanned.id));
  });

  it('offers Cancel run on a running run', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Rotate database credentials');

    expect(
      within(card).queryByRole('button', { name: 'Approve' }),
    ).not.toBeInTheDocument();
    expect(
      within(card).queryByRole('button', { name: 'Retry' }),
    ).not.toBeInTheDocument();

    await userEvent.click(
      within(card).getByRole('button', { name: 'Cancel run' }),
    );

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Cancel this run?')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'A running step is stopped by its runner; nothing after it runs.',
      ),
    ).toBeInTheDocument();
    // Beside "Cancel run", the button that leaves the run alone does not say "Cancel".
    expect(
      within(dialog).getByRole('button', { name: 'Keep the run' }),
    ).toBeInTheDocument();
    expect(
      within(dialog).queryByRole('button', { name: 'Cancel' }),
    ).not.toBeInTheDocument();
    expect(posts()).toEqual([]);

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Cancel run' }),
    );

    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].path).toBe(`/pipeline-runs/${running.id}/cancel`);
  });

  it('keeps the dialog open with the ErrorBody when an action fails', async () => {
    serveRuns();
    server.use(
      http.post(`${baseUrl}/pipeline-runs/:id/approve`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:PipelineRun:CONFLICT',
          message: 'The run no longer waits for an approval',
          requestId: 'req-approve-409',
        }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);
    const card = await openRun('Apply network changes');

    await userEvent.click(
      within(card).getByRole('button', { name: 'Approve' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Approve' }),
    );

    expect(
      await within(dialog).findByText(
        'The run no longer waits for an approval',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/Approve failed/)).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'InfraDelivery:PipelineRun:CONFLICT · Request id: req-approve-409',
      ),
    ).toBeInTheDocument();
  });

  it('shows the ErrorBody message and request id when the list fails', async () => {
    server.use(
      http.get(`${baseUrl}/pipeline-runs`, () =>
        errorResponse(500, {
          code: 'InfraDelivery:PipelineRun:INTERNAL',
          message: 'The run store does not answer',
          requestId: 'req-list-500',
        }),
      ),
    );

    renderEntityContent(<PipelineRunsContent />, entity);

    expect(
      await screen.findByText('The run store does not answer'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'InfraDelivery:PipelineRun:INTERNAL · Request id: req-list-500',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Pipeline runs \(/)).not.toBeInTheDocument();
  });

  it('shows the ErrorBody when the details of a run fail', async () => {
    serveRuns();
    server.use(
      http.get(`${baseUrl}/iac-execution-summaries`, () =>
        errorResponse(403, {
          code: 'InfraDelivery:IacExecutionSummary:FORBIDDEN',
          message: 'You may not read the plans of this run',
          requestId: 'req-details-403',
        }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);

    const card = await openRun('Apply network changes');

    expect(
      await within(card).findByText('You may not read the plans of this run'),
    ).toBeInTheDocument();
    expect(
      within(card).getByText(/Request id: req-details-403/),
    ).toBeInTheDocument();
    expect(
      within(card).queryByRole('button', { name: 'Approve' }),
    ).not.toBeInTheDocument();
  });

  it('shows the ErrorBody when the resource changes fail', async () => {
    serveRuns();
    server.use(
      http.get(`${baseUrl}/iac-resources`, () =>
        errorResponse(500, {
          code: 'InfraDelivery:IacResource:INTERNAL',
          message: 'The plan file cannot be read',
          requestId: 'req-resources-500',
        }),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entity);

    const card = await openRun('Apply network changes');

    expect(
      await within(card).findByText('The plan file cannot be read'),
    ).toBeInTheDocument();
    expect(
      within(card).getByText(/Request id: req-resources-500/),
    ).toBeInTheDocument();
    // The rest of the run is still shown.
    expect(
      within(card).getByText(byTextContent(/^Plan: \+5 ~1 −2/)),
    ).toBeInTheDocument();
  });

  it('does not show the previous run while another selected run loads', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    await openRun('Upgrade database');

    let answer: () => void = () => {};
    const answered = new Promise<void>(resolve => {
      answer = resolve;
    });
    server.use(
      http.get(`${baseUrl}/pipeline-runs/${waiting.id}`, async () => {
        await answered;
        return HttpResponse.json({ data: waiting });
      }),
    );
    await userEvent.click(screen.getByRole('link', { name: 'All runs' }));
    await userEvent.click((await runLinks('Apply network changes'))[0]);

    expect(await screen.findByText('Loading the run…')).toBeInTheDocument();
    // Neither the failed run's error nor its Retry may appear under the new run's title.
    expect(
      screen.queryByText('terraform apply exited with status 1'),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Retry' }),
    ).not.toBeInTheDocument();

    answer();

    expect(
      await screen.findByRole('button', { name: 'Approve' }),
    ).toBeInTheDocument();
  });

  it('gives each run a page of its own, and leads back to all runs', async () => {
    serveRuns();
    renderEntityContent(<PipelineRunsContent />, entity);
    // Its title, and the held run's note that names it, lead to its page.
    for (const link of await screen.findAllByRole('link', {
      name: 'Apply network changes',
    })) {
      expect(link).toHaveAttribute('href', `/${waiting.id}`);
    }
    await openRun('Apply network changes');
    // The list makes way for the run.
    expect(screen.queryByText('Pipeline runs (5)')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'All runs' }));

    expect(await screen.findByText('Pipeline runs (5)')).toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Run details' }),
    ).not.toBeInTheDocument();
  });

  it('leads back from a run to its list as it was filtered', async () => {
    serveRuns();
    const Address = () => (
      <div data-testid="address">{useLocation().search}</div>
    );
    renderEntityContent(
      <>
        <PipelineRunsContent />
        <Address />
      </>,
      entity,
      { initialRouteEntries: ['/?status=FAILED'] },
    );
    expect(await screen.findByText('Pipeline runs (1)')).toBeInTheDocument();

    await openRun('Upgrade database');
    await userEvent.click(screen.getByRole('link', { name: 'All runs' }));

    // The failed runs again, not every run: the filter was not lost on the way.
    expect(await screen.findByText('Pipeline runs (1)')).toBeInTheDocument();
    expect(screen.getByTestId('address')).toHaveTextContent('?status=FAILED');
    expect(screen.getByRole('button', { name: 'Failed' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('reads the open run again when the backend announces a change of it', async () => {
    serveRuns();
    const signals = fakeSignals();
    renderEntityContent(<PipelineRunsContent />, entity, {
      signals: signals.api,
    });
    await openRun('Apply network changes');
    const runLoads = requestsTo('GET', `/pipeline-runs/${waiting.id}`).length;

    act(() =>
      signals.announce('infra-delivery:pipeline-runs', {
        runId: waiting.id,
      }),
    );

    await waitFor(() => {
      expect(
        requestsTo('GET', `/pipeline-runs/${waiting.id}`).length,
      ).toBeGreaterThan(runLoads);
    });
  });

  it('reads the resource changes again when a step of the open run ends', async () => {
    serveRuns();
    const signals = fakeSignals();
    renderEntityContent(<PipelineRunsContent />, entity, {
      signals: signals.api,
    });
    const card = await openRun('Apply network changes');
    expect(
      await within(card).findByText('Resource changes (3)'),
    ).toBeInTheDocument();

    // The run was approved and its apply reported what it created.
    const applied = iacResource({
      id: 'res-eip-applied',
      pipelineRunId: waiting.id,
      address: 'aws_eip.nat',
      resourceType: 'aws_eip',
      changeKind: 'CREATE',
      runType: 'APPLY',
    });
    const [plan, approval, apply] = steps[waiting.id];
    server.use(
      http.get(`${baseUrl}/pipeline-runs/${waiting.id}/step-executions`, () =>
        HttpResponse.json({
          data: [
            plan,
            { ...approval, status: 'SUCCEEDED' },
            { ...apply, status: 'SUCCEEDED' },
          ],
        }),
      ),
      http.get(`${baseUrl}/iac-resources`, () =>
        HttpResponse.json(
          list([
            ...resources.filter(r => r.pipelineRunId === waiting.id),
            applied,
          ]),
        ),
      ),
    );
    const resourceLoads = requestsTo('GET', '/iac-resources').length;
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: waiting.id }),
    );

    // The apply's changes, the newest step's, with the plan's a press away.
    expect(
      await within(card).findByText('Resource changes (1)'),
    ).toBeInTheDocument();
    expect(within(card).getByText('aws_eip.nat')).toBeInTheDocument();
    const applyButton = within(card).getByRole('button', { name: 'Apply (1)' });
    expect(applyButton).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(
      within(card).getByRole('button', { name: 'Plan (3)' }),
    );
    expect(
      await within(card).findByText('Resource changes (3)'),
    ).toBeInTheDocument();
    expect(applyButton).toHaveAttribute('aria-pressed', 'false');
    // Once for the steps that changed, not at every read of the run.
    expect(requestsTo('GET', '/iac-resources')).toHaveLength(resourceLoads + 1);
  });
});
