import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  list,
  now,
  pipelineRun,
  renderEntityContent,
  renderWithService,
  runner,
  runPageHandlers,
  setupInfraDeliveryServer,
  stepExecution,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  setPageVisibility,
  timersLater,
} from '../../__testUtils__/pageVisibility';
import { PipelineRunsContent } from '../PipelineRunsContent/PipelineRunsContent';
import { RunnersCard, RUNNERS_REFRESH_MS } from '../Runners/RunnersCard';
import { LIVE_POLL_MS } from './livePolling';

const run = pipelineRun({
  id: 'run-applying',
  description: 'Apply network changes',
  attachedEntityId: 'stack-network',
  status: 'RUNNING',
});
const applyStep = stepExecution({
  id: 'step-apply',
  pipelineRunId: run.id,
  position: 0,
  name: 'Apply',
  type: 'iac.apply',
  status: 'RUNNING',
});

/** Views that read again on their own: the run page at its live speed, the Runners card. */
describe('pages that read again on their own, out of sight', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'ADMIN' });

  beforeEach(() => {
    // The runs list measures its rendering with performance marks, which fake timers lack.
    jest.useFakeTimers({ advanceTimers: true, doNotFake: ['performance'] });
    server.use(
      ...runPageHandlers(run, () => [applyStep]),
      http.get(`${baseUrl}/pipeline-step-executions/${applyStep.id}/logs`, () =>
        HttpResponse.json({
          data: [{ id: 'l1', attemptEpoch: 1, timestamp: now, text: 'apply' }],
          meta: { limit: 500, totalCount: 1 },
        }),
      ),
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(list([runner({ runnerId: 'runner-ci-1' })])),
      ),
    );
  });
  afterEach(() => {
    jest.useRealTimers();
    setPageVisibility('visible');
  });

  it('the run page reads a running run and its logs at its live speed in sight, not at all out of sight, and at once back in sight', async () => {
    const runReads = () => requestsTo('GET', `/pipeline-runs/${run.id}`).length;
    const logReads = () =>
      requestsTo('GET', `/pipeline-step-executions/${applyStep.id}/logs`)
        .length;
    renderEntityContent(
      <PipelineRunsContent />,
      entityNaming(run.attachedEntityId),
    );
    await userEvent.click(
      await screen.findByRole('link', { name: run.description }),
    );
    const card = await screen.findByRole('region', { name: 'Run details' });
    expect(await within(card).findByText('apply')).toBeInTheDocument();
    const runs = runReads();
    const logs = logReads();

    timersLater(LIVE_POLL_MS);
    await waitFor(() => expect(runReads()).toBe(runs + 1));
    await waitFor(() => expect(logReads()).toBe(logs + 1));

    setPageVisibility('hidden');
    timersLater(10 * LIVE_POLL_MS);
    expect(runReads()).toBe(runs + 1);
    expect(logReads()).toBe(logs + 1);

    setPageVisibility('visible');
    await waitFor(() => expect(runReads()).toBe(runs + 2));
    await waitFor(() => expect(logReads()).toBe(logs + 2));
  });

  it('the Runners card reads again in sight, not at all out of sight, and at once back in sight', async () => {
    // No runner ONLINE: the card waits for one at its slower pace.
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          list([runner({ runnerId: 'runner-ci-1', status: 'OFFLINE' })]),
        ),
      ),
    );
    const reads = () => requestsTo('GET', '/runners').length;
    renderWithService(<RunnersCard />);
    expect(await screen.findByText('runner-ci-1')).toBeInTheDocument();
    await waitFor(() => expect(reads()).toBe(1));

    timersLater(RUNNERS_REFRESH_MS);
    await waitFor(() => expect(reads()).toBe(2));

    setPageVisibility('hidden');
    timersLater(4 * RUNNERS_REFRESH_MS);
    expect(reads()).toBe(2);

    setPageVisibility('visible');
    await waitFor(() => expect(reads()).toBe(3));
  });

  // Free, a runner is silent five seconds after its held claim dropped, when the run page says
  // so: a list read every 15 s said "Online" ten seconds longer. Working on a step, it is silent
  // after three of its 5 s heartbeats unheard: a lease read 15 s before would read a healthy
  // runner "Silent" for a moment.
  it.each([
    ['a free runner is ONLINE', runner({ runnerId: 'runner-ci-1' })],
    [
      'a runner works on a step',
      runner({
        runnerId: 'runner-ci-1',
        currentStepExecutionId: applyStep.id,
        currentStepLease: {
          runnerId: 'runner-ci-1',
          renewedAt: new Date().toISOString(),
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
          lastHeardAt: new Date().toISOString(),
          heartbeatIntervalMs: 5_000,
        },
      }),
    ],
  ])(
    'the Runners card reads again at the live speed while %s',
    async (_, listed) => {
      server.use(
        http.get(`${baseUrl}/runners`, () => HttpResponse.json(list([listed]))),
      );
      const reads = () => requestsTo('GET', '/runners').length;
      renderWithService(<RunnersCard />);
      expect(await screen.findByText('runner-ci-1')).toBeInTheDocument();
      await waitFor(() => expect(reads()).toBe(1));

      // Waited for briefly: the fake clock moves with the real one while waitFor waits.
      timersLater(LIVE_POLL_MS);
      await waitFor(() => expect(reads()).toBe(2), { timeout: 2_000 });
      timersLater(LIVE_POLL_MS);
      await waitFor(() => expect(reads()).toBe(3), { timeout: 2_000 });
    },
  );
});
