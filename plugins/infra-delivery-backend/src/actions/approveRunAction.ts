import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { ActionContext } from './ActionContext';
import { runSummary, runOutput } from './summaries';

/** The `approve-run` tool. */
export function registerApproveRunAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { pipelines } = context.services;
  actionsRegistry.register({
    name: 'approve-run',
    title: 'Approve a pipeline run',
    description:
      'Approves the waiting approval step of a run (status WAITING_FOR_APPROVAL), so that it applies its plan. Needs the MEMBER role. Check the plan with get-run first.',
    attributes: { destructive: true, readOnly: false, idempotent: false },
    schema: {
      input: z =>
        z.object({
          runId: z.string().min(1).max(64),
          comment: z.string().max(2000).optional(),
        }),
      output: z => z.object({ run: runOutput(z) }),
    },
    examples: [
      {
        title: 'Approve a plan',
        input: { runId: '01JRUN', comment: 'Plan reviewed' },
      },
    ],
    action: async ({ input, credentials }) =>
      context.asCaller(credentials, async caller => {
        const run = await pipelines.act(
          caller,
          input.runId,
          'approve',
          input.comment,
        );
        return { output: { run: runSummary(run) } };
      }),
  });
}
