import { StepExecution } from '@infra-delivery/plugin-infra-delivery-common';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  fakeSignals,
  list,
  now,
  pipelineRun,
  renderEntityContent,
  runPageHandlers,
  setupInfraDeliveryServer,
  stepExecution,
} from '../../__testUtils__/infraDeliveryTestKit';
import { PipelineRunsContent } from './PipelineRunsContent';
import { STEP_LOGS_POLL_MS } from './useStepLogs';

const run = pipelineRun({
  id: 'run-applying',
  description: 'Apply network changes',
  attachedEntityId: 'stack-network',
  status: 'RUNNING',
});
const planStep = stepExecution({
  id: 'step-plan',
  pipelineRunId: run.id,
  position: 0,
  name: 'Plan',
  type: 'iac.plan',
  status: 'SUCCEEDED',
});
const applyStep = stepExecution({
  id: 'step-apply',
  pipelineRunId: run.id,
  position: 1,
  name: 'Apply',
  type: 'iac.apply',
  status: 'RUNNING',
});

const line = (n: number) => ({
  id: `log-${n}`,
  attemptEpoch: 1,
  timestamp: now,
  text: `apply line ${n}`,
});

describe('PipelineRunsContent live step logs', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  const logRequests = () =>
    requestsTo('GET', `/pipeline-step-executions/${applyStep.id}/logs`);

  let steps: StepExecution[];
  /** The apply step's lines: a first full page, then the last page, which grows. */
  let lastPage: ReturnType<typeof line>[];

  beforeEach(() => {
    steps = [planStep, applyStep];
    lastPage = [line(3)];
    server.use(
      ...runPageHandlers(run, () => steps),
      http.get(
        `${baseUrl}/pipeline-step-executions/${applyStep.id}/logs`,
        ({ request }) => {
          const cursor = new URL(request.url).searchParams.get('cursor');
          return HttpResponse.json(
            cursor === 'cursor-2'
              ? {
                  data: lastPage,
                  meta: {
                    limit: 500,
                    totalCount: 2 + lastPage.length,
                  },
                }
              : {
                  data: [line(1), line(2)],
                  meta: {
                    limit: 500,
                    nextCursor: 'cursor-2',
                    totalCount: 2 + lastPage.length,
                  },
                },
          );
        },
      ),
    );
  });

  async function openRun() {
    await userEvent.click(
      await screen.findByRole('link', { name: run.description }),
    );
    return await screen.findByRole('region', { name: 'Run details' });
  }

  it('opens the running step and shows every page of its logs', async () => {
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));
    const card = await openRun();

    expect(await within(card).findByText('apply line 3')).toBeInTheDocument();
    expect(within(card).getByText('apply line 1')).toBeInTheDocument();
    expect(within(card).getByText('apply line 2')).toBeInTheDocument();
    expect(logRequests().map(r => r.query.get('cursor'))).toEqual([
      null,
      'cursor-2',
    ]);
    // The finished plan step stays closed until opened.
    expect(
      requestsTo('GET', `/pipeline-step-executions/${planStep.id}/logs`),
    ).toEqual([]);
  });

  it('reads the last page again from its cursor when the backend announces new lines of the step', async () => {
    const signals = fakeSignals();
    renderEntityContent(
      <PipelineRunsContent />,
      entityNaming('stack-network'),
      { signals: signals.api },
    );
    const card = await openRun();
    await within(card).findByText('apply line 3');
    const loads = logRequests().length;

    lastPage = [line(3), line(4)];
    act(() => {
      signals.announce('infra-delivery:step-logs', {
        stepExecutionId: 'another-step',
        pipelineRunId: run.id,
      });
      signals.announce('infra-delivery:step-logs', {
        stepExecutionId: applyStep.id,
        pipelineRunId: run.id,
      });
    });

    expect(await within(card).findByText('apply line 4')).toBeInTheDocument();
    // One request, from the kept cursor: the first page is not read again.
    expect(logRequests()).toHaveLength(loads + 1);
    expect(logRequests()[loads].query.get('cursor')).toBe('cursor-2');
    expect(within(card).getByText('apply line 1')).toBeInTheDocument();
    expect(within(card).getAllByText('apply line 3')).toHaveLength(1);
  });

  it("reads the logs again when the step's status changes, and keeps the step open", async () => {
    const signals = fakeSignals();
    renderEntityContent(
      <PipelineRunsContent />,
      entityNaming('stack-network'),
      { signals: signals.api },
    );
    const card = await openRun();
    await within(card).findByText('apply line 3');
    const loads = logRequests().length;

    lastPage = [line(3), line(4), line(5)];
    steps = [planStep, { ...applyStep, status: 'SUCCEEDED' }];
    act(() =>
      signals.announce('infra-delivery:pipeline-runs', { runId: run.id }),
    );

    expect(await within(card).findByText('apply line 5')).toBeInTheDocument();
    expect(logRequests()[loads].query.get('cursor')).toBe('cursor-2');
  });

  it('reads a running step again every few seconds in a portal without signals', async () => {
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));
    const card = await openRun();
    await within(card).findByText('apply line 3');
    const loads = logRequests().length;

    lastPage = [line(3), line(4)];

    // Found is enough: the log viewer may render its lines anew right after.
    await within(card).findByText(
      'apply line 4',
      {},
      { timeout: STEP_LOGS_POLL_MS + 3_000 },
    );
    expect(logRequests()[loads].query.get('cursor')).toBe('cursor-2');
    // The poll comes after the first read, so this test outlasts Jest's default 5 s.
  }, 20_000);

  it('shows no logs of another step until it is opened', async () => {
    server.use(
      http.get(`${baseUrl}/pipeline-step-executions/${planStep.id}/logs`, () =>
        HttpResponse.json(list([{ ...line(0), text: 'Plan: 1 to add.' }])),
      ),
    );
    renderEntityContent(<PipelineRunsContent />, entityNaming('stack-network'));
    const card = await openRun();
    await within(card).findByText('apply line 3');

    await userEvent.click(within(card).getByText('IaC plan'));

    expect(
      await within(card).findByText('Plan: 1 to add.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(within(card).queryByText('apply line 3')).not.toBeInTheDocument(),
    );
  });
});
