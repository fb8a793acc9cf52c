import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { ActionContext } from './ActionContext';
import { deploymentOutput, deploymentSummary } from './summaries';

/** The `rollback-deployment` tool. */
export function registerRollbackDeploymentAction(
  actionsRegistry: ActionsRegistryService,
  context: ActionContext,
): void {
  const { deployments } = context.services;
  actionsRegistry.register({
    name: 'rollback-deployment',
    title: 'Roll back a container service',
    description:
      'Rolls an ECS service back to an earlier successful deployment: a new deployment replays that deployment’s exact task definition. Needs the MEMBER role and the rollback permission. Refused while another deployment of the service is in flight. Find the target with list-deployments.',
    attributes: { destructive: true, readOnly: false, idempotent: false },
    schema: {
      input: z =>
        z.object({
          deploymentId: z
            .string()
            .min(1)
            .max(64)
            .describe('The earlier successful deployment to return to'),
        }),
      output: z => z.object({ deployment: deploymentOutput(z) }),
    },
    examples: [
      {
        title: 'Return to the previous release',
        input: { deploymentId: '01JDEPLOYMENT' },
      },
    ],
    action: async ({ input, credentials }) =>
      context.asCaller(credentials, async caller => {
        const deployment = await deployments.rollback(
          caller,
          input.deploymentId,
        );
        return { output: { deployment: deploymentSummary(deployment) } };
      }),
  });
}
