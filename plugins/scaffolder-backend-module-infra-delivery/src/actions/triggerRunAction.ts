import { InputError } from '@backstage/errors';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  FINAL_STATUSES,
  PipelineRun,
  portalPages,
} from '@infra-delivery/plugin-infra-delivery-common';
import { ActionFailure } from './actionFailure';
import { InfraDeliveryClientFactory } from './clients';
import { pageForLog } from './portalUrl';

/** Why a run is not moving, for the task log: held in the queue, or waiting for a runner. */
function whyItWaits(run: PipelineRun): string | undefined {
  if (run.queueState?.waitingForRunner !== undefined) {
    return run.queueState.reason;
  }
  return run.queueReason;
}

/** A run's status as a template's output text says it: "Run …: WAITING_FOR_APPROVAL" read raw. */
const STATUS_IN_WORDS: Record<PipelineRun['status'], string> = {
  QUEUED: 'queued',
  RUNNING: 'running',
  WAITING_FOR_APPROVAL: 'waiting for approval of its plan',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
};

/** `statusText`: the status in words, with why a queued run waits. */
export function statusInWords(
  status: PipelineRun['status'],
  reason?: string,
): string {
  const words = STATUS_IN_WORDS[status] ?? status;
  return reason && status === 'QUEUED' ? `${words} (${reason})` : words;
}

/** What a run that has not finished is doing, in words, and what the person can do about it. */
function whatItIsDoing(run: PipelineRun, reason: string | undefined): string {
  if (run.status === 'WAITING_FOR_APPROVAL') {
    return 'it waits for approval of its plan. Approve or reject it on its page';
  }
  return `it is ${run.status}${
    reason ? ` (${reason})` : ''
  }. Follow it on its page`;
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** `infra-delivery:run:trigger`: a run of a pipeline or of a stack's change pipeline. */
export function triggerRunAction(options: {
  clients: InfraDeliveryClientFactory;
  /** How often a waiting action asks for the run's state (default 5 s). */
  pollIntervalMs?: number;
  /**
   * The Infrastructure page's address (`infraDelivery.portalUrl`, by default `app.baseUrl` +
   * `/infra-delivery`): the task log and a failure link the run's page there.
   */
  portalUrl?: string;
}) {
  const pollIntervalMs = options.pollIntervalMs ?? 5000;
  return createTemplateAction({
    id: 'infra-delivery:run:trigger',
    description:
      'Triggers a run of a pipeline, or of the change pipeline of a stack, in the infra-delivery service. Optionally waits for the run to finish, writing its progress to the task log; a run that fails, is cancelled or does not finish in time fails the step.',
    examples: [
      {
        description: 'Plan and apply a new stack and wait up to 30 minutes',
        example: `steps:
  - id: run
    action: infra-delivery:run:trigger
    name: Run the stack
    input:
      stackId: \${{ steps.stack.output.stackId }}
      wait: true
      timeoutSeconds: 1800`,
      },
      {
        description: 'Trigger a pipeline without waiting',
        example: `steps:
  - id: run
    action: infra-delivery:run:trigger
    input:
      pipelineId: 01JPIPELINE`,
      },
    ],
    schema: {
      input: {
        pipelineId: z =>
          z
            .string()
            .min(1)
            .max(64)
            .optional()
            .describe('Pipeline to run; give this or stackId'),
        stackId: z =>
          z
            .string()
            .min(1)
            .max(64)
            .optional()
            .describe('Stack whose change pipeline to run'),
        description: z => z.string().max(4000).optional(),
        wait: z =>
          z
            .boolean()
            .optional()
            .describe('Wait for a final status (default false)'),
        timeoutSeconds: z =>
          z
            .number()
            .int()
            .min(1)
            .max(6 * 3600)
            .optional()
            .describe('How long to wait (default 1800)'),
      },
      output: {
        runId: z => z.string(),
        pipelineId: z => z.string(),
        runPage: z =>
          z
            .string()
            .describe(
              "The run's page in the portal, under the Infrastructure page's path (links: url: /infra-delivery${{ steps.run.output.runPage }})",
            ),
        status: z => z.string().describe('Status when the action finished'),
        statusText: z =>
          z
            .string()
            .describe(
              'The same in words for output text, with why a queued run waits: "waiting for approval of its plan"',
            ),
      },
    },
    async handler(ctx) {
      const { pipelineId, stackId } = ctx.input;
      if (!pipelineId === !stackId) {
        throw new InputError('Give exactly one of pipelineId and stackId');
      }
      const client = options.clients(await ctx.getInitiatorCredentials());
      const triggered = await ctx.checkpoint({
        key: 'infra-delivery-trigger-run',
        fn: async () => {
          const targetPipelineId =
            pipelineId ??
            (await client.call('getStack', { params: { id: stackId! } })).data
              .changePipelineId;
          const { data: run } = await client.call('triggerPipelineRun', {
            params: { id: targetPipelineId },
            body: { data: { description: ctx.input.description } },
          });
          return {
            runId: run.id,
            pipelineId: run.pipelineId,
            status: run.status,
            waitReason: whyItWaits(run),
          };
        },
      });
      ctx.logger.info(
        `Triggered run ${triggered.runId} of pipeline ${
          triggered.pipelineId
        }: ${triggered.status}${
          triggered.waitReason ? ` (${triggered.waitReason})` : ''
        }`,
      );
      // An address the log viewer makes a link of: a failed step shows no output links.
      const runPage = pageForLog(
        options.portalUrl,
        portalPages.run(triggered.runId),
      );
      ctx.logger.info(`The run's page: ${runPage}`);
      ctx.output('runId', triggered.runId);
      ctx.output('pipelineId', triggered.pipelineId);
      ctx.output('runPage', portalPages.run(triggered.runId));
      if (!ctx.input.wait) {
        ctx.output('status', triggered.status);
        ctx.output(
          'statusText',
          statusInWords(triggered.status, triggered.waitReason),
        );
        return;
      }

      const deadline = Date.now() + (ctx.input.timeoutSeconds ?? 1800) * 1000;
      let lastState = '';
      const stepStates = new Map<string, string>();
      for (;;) {
        const { data: run } = await client.call('getPipelineRun', {
          params: { id: triggered.runId },
        });
        const reason = whyItWaits(run);
        const state = `${run.status}${reason ? ` (${reason})` : ''}`;
        // Silent runners' reason counts the seconds: said once, not at every poll.
        const stateKey = run.queueState?.runnersSilent
          ? `${run.status} runnersSilent`
          : state;
        if (stateKey !== lastState) {
          ctx.logger.info(`Run ${run.id}: ${state}`);
          lastState = stateKey;
        }
        const { data: steps } = await client.call('listStepExecutions', {
          params: { id: run.id },
        });
        for (const step of steps) {
          if (stepStates.get(step.id) !== step.status) {
            stepStates.set(step.id, step.status);
            if (step.status !== 'PENDING') {
              ctx.logger.info(`  step ${step.name}: ${step.status}`);
            }
          }
        }
        if (FINAL_STATUSES.includes(run.status)) {
          ctx.output('status', run.status);
          ctx.output('statusText', statusInWords(run.status));
          if (run.status !== 'SUCCEEDED') {
            throw new ActionFailure(
              `Run ${run.id} ended ${run.status}${
                run.error ? `: ${run.error.message}` : ''
              }. Its steps and their logs are on its page: ${runPage}`,
            );
          }
          return;
        }
        if (Date.now() >= deadline) {
          ctx.output('status', run.status);
          ctx.output('statusText', statusInWords(run.status, reason));
          const seconds = ctx.input.timeoutSeconds ?? 1800;
          // The run goes on without the task: say so, and where to act on it.
          throw new ActionFailure(
            `Run ${run.id} did not finish within ${seconds} second${
              seconds === 1 ? '' : 's'
            }: ${whatItIsDoing(
              run,
              reason,
            )}, ${runPage}. The run goes on; this task no longer follows it.`,
          );
        }
        await sleep(
          Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())),
        );
      }
    },
  });
}
