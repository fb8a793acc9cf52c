import { StepExecution } from '@infra-delivery/plugin-infra-delivery-common';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  now,
  renderWithService,
  setupInfraDeliveryServer,
  stepExecution,
} from '../../__testUtils__/infraDeliveryTestKit';
import { logOpeningLine } from './logOpening';
import { StepLogs } from './StepLogs';

/** 60 lines of provider set-up, a plan of 60 lines from line 61, then its closing advice. */
const planLog = [
  ...Array.from({ length: 60 }, (_, i) => `Initializing provider ${i + 1}`),
  '\u001b[0mTerraform used the selected providers to generate the following execution plan.',
  ...Array.from({ length: 58 }, (_, i) => `  + resource ${i + 1}`),
  '\u001b[1mPlan:\u001b[0m 58 to add, 0 to change, 0 to destroy.',
  'To perform exactly these actions, run the following command to apply:',
];
/** 40 lines of a plan, a boxed error at line 42 (its box opens at 41), then more of the error's explanation. */
const failedLog = [
  ...Array.from({ length: 40 }, (_, i) => `Refreshing state ${i + 1}`),
  '\u001b[31m╷\u001b[0m',
  '\u001b[31m│\u001b[0m \u001b[1m\u001b[31mError: \u001b[0mReference to undeclared input variable',
  ...Array.from({ length: 40 }, (_, i) => `│ explanation ${i + 1}`),
];

describe('where a step log opens', () => {
  const { server } = setupInfraDeliveryServer();

  function serveLog(step: StepExecution, texts: string[]) {
    server.use(
      http.get(`${baseUrl}/pipeline-step-executions/${step.id}/logs`, () =>
        HttpResponse.json({
          data: texts.map((text, i) => ({
            id: `log-${i}`,
            attemptEpoch: 1,
            timestamp: now,
            text,
          })),
          meta: { limit: 500, totalCount: texts.length },
        }),
      ),
    );
  }

  /** The log viewer's scrolling list. */
  const logList = async () => {
    await screen.findAllByRole('link', { name: /^Line \d+$/ });
    return document.querySelector<HTMLElement>('[style*="overflow: auto"]')!;
  };

  it('opens an ended plan at the start of the plan, not at its last line', async () => {
    const step = stepExecution({
      id: 'step-plan',
      pipelineRunId: 'run-1',
      position: 0,
      name: 'Plan',
      type: 'iac.plan',
      status: 'SUCCEEDED',
    });
    serveLog(step, planLog);
    await renderWithService(<StepLogs step={step} />);

    const list = await logList();
    // Line 61 shows with the line before it on top.
    await waitFor(() => expect(list.scrollTop).toBe(59 * 20));
  });

  it('opens a failed step at its first error', async () => {
    const step = stepExecution({
      id: 'step-failed',
      pipelineRunId: 'run-1',
      position: 0,
      name: 'Plan',
      type: 'iac.plan',
      status: 'FAILED',
    });
    serveLog(step, failedLog);
    await renderWithService(<StepLogs step={step} />);

    const list = await logList();
    await waitFor(() => expect(list.scrollTop).toBe(40 * 20));
  });

  it('follows the last lines of a running step', async () => {
    const step = stepExecution({
      id: 'step-running',
      pipelineRunId: 'run-1',
      position: 0,
      name: 'Plan',
      type: 'iac.plan',
      status: 'RUNNING',
    });
    serveLog(step, planLog);
    await renderWithService(<StepLogs step={step} />);

    const list = await logList();
    // The viewer's own scroll to the end: far below the plan's start.
    await waitFor(() => expect(list.scrollTop).toBeGreaterThan(100 * 20));
  });
});

describe('logOpeningLine', () => {
  const plan = { type: 'iac.plan' as const, status: 'SUCCEEDED' as const };

  it('finds the start of the plan as Terraform and OpenTofu write it', () => {
    expect(
      logOpeningLine(
        plan,
        'init\nOpenTofu will perform the following actions:',
      ),
    ).toBe(2);
    expect(
      logOpeningLine(
        plan,
        'init\n\n\u001b[32mNo changes.\u001b[0m Your infra…',
      ),
    ).toBe(3);
  });

  it('leaves an apply and a plan without plan output at their end', () => {
    expect(
      logOpeningLine(
        { type: 'iac.apply', status: 'SUCCEEDED' },
        'Terraform will perform the following actions:\nApply complete!',
      ),
    ).toBeUndefined();
    expect(logOpeningLine(plan, 'nothing recognisable')).toBeUndefined();
  });
});
