import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { DEPLOYMENT_STATUSES } from '@infra-delivery/plugin-infra-delivery-common';
import { ActionContext } from './ActionContext';
import {
  deploymentOutput,
  deploymentSummary,
  pageInput,
  pageOf,
  pageOutput,
} from './summaries';

/** The `list-deployments` tool. */
export function registerListDeploymentsAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { deployments } = context.services;
  actionsRegistry.register({
    name: 'list-deployments',
    title: 'List container deployments',
    description:
      'Lists ECS deployments of your organization, newest first, with their status and task definition revision. Filter by cluster and service, environment or status; page with the returned cursor.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          clusterRef: z.string().min(1).max(255).optional(),
          serviceRef: z.string().min(1).max(255).optional(),
          environmentId: z.string().min(1).max(64).optional(),
          status: z.enum(DEPLOYMENT_STATUSES).optional(),
          ...pageInput(z),
        }),
      output: z =>
        z.object({
          deployments: z.array(deploymentOutput(z)),
          ...pageOutput(z),
        }),
    },
    examples: [
      {
        title: 'Deployments of a service',
        input: { clusterRef: 'payments', serviceRef: 'payments-api', limit: 5 },
      },
    ],
    action: async ({ input, credentials }) =>
      context.asCaller(credentials, async caller => {
        const { limit, cursor, ...filter } = input;
        const page = await deployments.list(caller, filter, {
          limit,
          afterId: cursor,
        });
        return {
          output: {
            deployments: page.items.map(deploymentSummary),
            ...pageOf(page),
          },
        };
      }),
  });
}
