import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { ActionContext } from './ActionContext';
import {
  leaseOutputFields,
  planSummary,
  runOutput,
  runSummary,
  stepSummary,
} from './summaries';

/** The `get-run` tool. */
export function registerGetRunAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { pipelines, iacResults } = context.services;
  actionsRegistry.register({
    name: 'get-run',
    title: 'Get a pipeline run',
    description:
      'One pipeline run with its steps, why it is queued (if it is) and the summary of its IaC plan (resources to add, change, destroy).',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z => z.object({ runId: z.string().min(1).max(64) }),
      output: z =>
        z.object({
          run: runOutput(z),
          steps: z.array(
            z.object({
              id: z.string(),
              position: z.number(),
              type: z.string(),
              name: z.string(),
              status: z.string(),
              startedAt: z.string().optional(),
              completedAt: z.string().optional(),
              error: z.string().optional(),
              ...leaseOutputFields(z),
              runnerId: z
                .string()
                .optional()
                .describe(
                  'The runner that claimed the step: the one executing it, or once it ended the one that did',
                ),
            }),
          ),
          plans: z.array(
            z.object({
              runType: z.string(),
              stepExecutionId: z.string(),
              add: z.number(),
              change: z.number(),
              destroy: z.number(),
              replace: z.number(),
              import: z.number(),
              unchanged: z.number(),
              applyable: z.boolean(),
            }),
          ),
        }),
    },
    examples: [{ title: 'A run', input: { runId: '01JRUN' } }],
    action: async ({ input, credentials }) =>
      context.asCaller(credentials, async caller => {
        const run = await pipelines.getRun(caller, input.runId);
        const steps = await pipelines.listSteps(caller, run.id);
        const summaries = await iacResults.listSummaries(
          caller,
          { pipelineRunId: run.id },
          { limit: 20 },
        );
        return {
          output: {
            run: runSummary(run),
            steps: steps.map(stepSummary),
            plans: summaries.items.map(planSummary),
          },
        };
      }),
  });
}
