import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { RUN_STATUSES } from '@infra-delivery/plugin-infra-delivery-common';
import { ActionContext } from './ActionContext';
import {
  runSummary,
  runOutput,
  pageInput,
  pageOf,
  pageOutput,
} from './summaries';

/** The `list-runs` tool. */
export function registerListRunsAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { pipelines } = context.services;
  actionsRegistry.register({
    name: 'list-runs',
    title: 'List pipeline runs',
    description:
      'Lists pipeline runs of your organization, newest first. Filter by stack, pipeline or status; page with the returned cursor.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          stackId: z.string().min(1).max(64).optional(),
          pipelineId: z.string().min(1).max(64).optional(),
          status: z.array(z.enum(RUN_STATUSES)).max(6).optional(),
          ...pageInput(z),
        }),
      output: z =>
        z.object({
          runs: z.array(runOutput(z)),
          ...pageOutput(z),
        }),
    },
    examples: [
      {
        title: 'Runs of a stack waiting for approval',
        input: {
          stackId: '01JSTACK',
          status: ['WAITING_FOR_APPROVAL'],
          limit: 25,
        },
      },
    ],
    action: async ({ input, credentials }) =>
      context.asCaller(credentials, async caller => {
        const page = await pipelines.listRuns(
          caller,
          {
            limit: input.limit,
            pipelineId: input.pipelineId ? [input.pipelineId] : undefined,
            attachedEntityId: input.stackId ? [input.stackId] : undefined,
            status: input.status,
          },
          { limit: input.limit, afterId: input.cursor },
        );
        return {
          output: {
            runs: page.items.map(runSummary),
            ...pageOf(page),
          },
        };
      }),
  });
}
