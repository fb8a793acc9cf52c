import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { ActionContext } from './ActionContext';
import { stackSummary, pageInput, pageOf, pageOutput } from './summaries';

/** The `list-stacks` tool. */
export function registerListStacksAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { stacks } = context.services;
  actionsRegistry.register({
    name: 'list-stacks',
    title: 'List IaC stacks',
    description:
      'Lists the infrastructure-as-code stacks of your organization in the infrastructure delivery service, newest first, with their change and destroy pipeline ids. Filter by project or environment; page with the returned cursor.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          projectId: z.string().min(1).max(64).optional(),
          environmentId: z.string().min(1).max(64).optional(),
          ...pageInput(z),
        }),
      output: z =>
        z.object({
          stacks: z.array(
            z.object({
              id: z.string(),
              givenId: z.string(),
              name: z.string(),
              projectId: z.string(),
              environmentId: z.string(),
              changePipelineId: z.string(),
              destroyPipelineId: z.string(),
              autoApprove: z.boolean(),
              latestRunId: z.string().optional(),
            }),
          ),
          ...pageOutput(z),
        }),
    },
    examples: [
      {
        title: 'Stacks of a project',
        input: { projectId: '01JPROJECT', limit: 10 },
      },
    ],
    action: async ({ input, credentials }) =>
      context.asCaller(credentials, async caller => {
        const page = await stacks.list(
          caller,
          { projectId: input.projectId, environmentId: input.environmentId },
          { limit: input.limit, afterId: input.cursor },
        );
        return {
          output: {
            stacks: page.items.map(stackSummary),
            ...pageOf(page),
          },
        };
      }),
  });
}
