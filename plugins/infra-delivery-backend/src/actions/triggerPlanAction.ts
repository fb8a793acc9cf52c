import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { EXECUTE } from '../auth/requirements';
import { ActionContext } from './ActionContext';
import { runSummary, runOutput } from './summaries';

/** The `trigger-plan` tool. */
export function registerTriggerPlanAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { pipelines, stacks } = context.services;
  const { authorizer } = context;
  actionsRegistry.register({
    name: 'trigger-plan',
    title: 'Trigger a stack plan',
    description:
      'Triggers the change pipeline of a stack: it plans and then waits for approval (unless the stack auto-approves, in which case it also applies). Needs the MEMBER role. Returns the run; follow it with get-run.',
    attributes: { destructive: true, readOnly: false, idempotent: false },
    schema: {
      input: z =>
        z.object({
          stackId: z.string().min(1).max(64),
          description: z.string().max(4000).optional(),
        }),
      output: z => z.object({ run: runOutput(z) }),
    },
    examples: [
      {
        title: 'Plan a stack',
        input: { stackId: '01JSTACK', description: 'Requested from chat' },
      },
    ],
    action: async ({ input, credentials }) =>
      context.asCaller(credentials, async caller => {
        // The role first, as triggering through the REST API checks it.
        await authorizer.require(caller, EXECUTE);
        const stack = await stacks.get(caller, input.stackId);
        const run = await pipelines.trigger(
          caller,
          stack.changePipelineId,
          { description: input.description },
          'trigger-plan',
        );
        return { output: { run: runSummary(run) } };
      }),
  });
}
