import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  normalizeRunnerLabels,
  portalPages,
  typedRunnerLabels,
} from '@infra-delivery/plugin-infra-delivery-common';
import { InfraDeliveryClientFactory } from './clients';
import { pageForLog } from './portalUrl';

/** `infra-delivery:stack:create`: a stack with its change and destroy pipelines. */
export function createStackAction(options: {
  clients: InfraDeliveryClientFactory;
  /**
   * The Infrastructure page's address (`infraDelivery.portalUrl`, by default `app.baseUrl` +
   * `/infra-delivery`): the task log links the new stack's page there.
   */
  portalUrl?: string;
}) {
  return createTemplateAction({
    id: 'infra-delivery:stack:create',
    description:
      'Creates an IaC stack in the infra-delivery service, with its change pipeline (plan → approval → apply) and destroy pipeline. Runs as the user who started the task.',
    examples: [
      {
        description:
          "A stack from a code source path; the form chooses the project, the environment and the code source by name with the frontend plugin's fields (parameters: where: { type: object, ui:field: InfraDeliveryEnvironmentPicker }, codeSource: { type: object, ui:field: InfraDeliveryCodeSourcePicker })",
        example: `steps:
  - id: stack
    action: infra-delivery:stack:create
    name: Create the stack
    input:
      projectId: \${{ parameters.where.projectId }}
      environmentId: \${{ parameters.where.environmentId }}
      name: \${{ parameters.name }}
      codeSourceId: \${{ parameters.codeSource.id }}
      path: infra/network`,
      },
    ],
    schema: {
      input: {
        projectId: z => z.string().min(1).max(64).describe('Project id'),
        environmentId: z =>
          z.string().min(1).max(64).describe('Environment id in the project'),
        name: z => z.string().trim().min(1).max(255).describe('Stack name'),
        givenId: z =>
          z
            .string()
            .min(1)
            .max(63)
            .optional()
            .describe('Readable id, unique in the project; derived if absent'),
        description: z => z.string().max(4000).optional(),
        codeSourceId: z =>
          z
            .string()
            .min(1)
            .max(64)
            .optional()
            .describe('Code source holding the IaC'),
        path: z =>
          z
            .string()
            .max(1024)
            .optional()
            .describe('Directory of the IaC in the code source'),
        cloudAccountId: z =>
          z
            .string()
            .min(1)
            .max(64)
            .optional()
            .describe(
              'Cloud account the stack deploys into (the catalog shows the dependency)',
            ),
        autoApprove: z =>
          z
            .boolean()
            .optional()
            .describe('Apply plans without a person approving them'),
        runnerLabels: z =>
          z
            .union([z.array(z.string()), z.string()])
            .optional()
            .describe(
              'Labels a runner must carry to plan and apply the stack (e.g. env=prod): a list, or one text with the labels separated by commas or spaces (the InfraDeliveryRunnerLabels field gives that); none or empty: any runner',
            ),
      },
      output: {
        stackId: z => z.string().describe('Id of the new stack'),
        givenId: z => z.string(),
        changePipelineId: z =>
          z.string().describe('Pipeline that plans and applies changes'),
        destroyPipelineId: z =>
          z.string().describe('Pipeline that destroys the stack'),
        stackPage: z =>
          z
            .string()
            .describe(
              "The stack's page in the portal, under the Infrastructure page's path (links: url: /infra-delivery${{ steps.stack.output.stackPage }}); there at once, where the catalog knows the stack after its next refresh",
            ),
      },
    },
    async handler(ctx) {
      const client = options.clients(await ctx.getInitiatorCredentials());
      // Typed in the template's field, or a list the service checks label by label.
      const runnerLabels =
        typeof ctx.input.runnerLabels === 'string'
          ? typedRunnerLabels(ctx.input.runnerLabels)
          : normalizeRunnerLabels(ctx.input.runnerLabels ?? []);
      const stack = await ctx.checkpoint({
        key: 'infra-delivery-create-stack',
        fn: async () => {
          const { data } = await client.call('createStack', {
            body: {
              data: {
                projectId: ctx.input.projectId,
                environmentId: ctx.input.environmentId,
                name: ctx.input.name,
                givenId: ctx.input.givenId,
                description: ctx.input.description,
                codeSourceId: ctx.input.codeSourceId,
                path: ctx.input.path,
                cloudAccountId: ctx.input.cloudAccountId,
                autoApprove: ctx.input.autoApprove,
                ...(runnerLabels.length > 0 && { runnerLabels }),
              },
            },
          });
          return {
            id: data.id,
            givenId: data.givenId,
            changePipelineId: data.changePipelineId,
            destroyPipelineId: data.destroyPipelineId,
          };
        },
      });
      // The log viewer makes a link of the address: the page is there even when a later step
      // fails, where the template's output links are shown only after a task that succeeded.
      ctx.logger.info(
        `Created stack ${stack.givenId} (${stack.id}); its page: ${pageForLog(
          options.portalUrl,
          portalPages.stack(stack.id),
        )}`,
      );
      ctx.output('stackId', stack.id);
      ctx.output('givenId', stack.givenId);
      ctx.output('changePipelineId', stack.changePipelineId);
      ctx.output('destroyPipelineId', stack.destroyPipelineId);
      ctx.output('stackPage', portalPages.stack(stack.id));
    },
  });
}
