import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { InfraDeliveryClientFactory } from './clients';

/** `infra-delivery:cloud-account:create`: an AWS account and its onboarding template. */
export function createCloudAccountAction(options: {
  clients: InfraDeliveryClientFactory;
}) {
  return createTemplateAction({
    id: 'infra-delivery:cloud-account:create',
    description:
      'Registers an AWS account in the infra-delivery service and returns the signed onboarding template URL that connects it (needs the ADMIN role).',
    examples: [
      {
        description: 'Register an account',
        example: `steps:
  - id: account
    action: infra-delivery:cloud-account:create
    name: Register the AWS account
    input:
      name: Production
      givenId: production
      cloudId: '123456789012'`,
      },
    ],
    schema: {
      input: {
        name: z => z.string().trim().min(1).max(255),
        givenId: z =>
          z.string().min(1).max(63).describe('Readable id of the account'),
        cloudId: z =>
          z
            .string()
            .regex(/^\d{12}$/, 'a 12-digit AWS account id')
            .describe('The 12-digit AWS account id'),
      },
      output: {
        accountId: z => z.string(),
        templateUrl: z =>
          z.string().describe('Signed, expiring onboarding template URL'),
        quickCreateUrl: z =>
          z
            .string()
            .optional()
            .describe(
              'AWS console link that creates the stack; only when the service publishes templates to S3',
            ),
      },
    },
    async handler(ctx) {
      const client = options.clients(await ctx.getInitiatorCredentials());
      const { data: account } = await ctx.checkpoint({
        key: 'infra-delivery-create-cloud-account',
        fn: async () =>
          client.call('createCloudAccount', {
            body: {
              data: {
                name: ctx.input.name,
                givenId: ctx.input.givenId,
                cloudId: ctx.input.cloudId,
              },
            },
          }),
      });
      const { data: template } = await client.call(
        'getCloudAccountTemplateUrl',
        { params: { id: account.id } },
      );
      ctx.logger.info(
        `Registered cloud account ${account.givenId} (${account.id}); connect it with the onboarding template`,
      );
      ctx.output('accountId', account.id);
      ctx.output('templateUrl', template.templateUrl);
      if (template.quickCreateUrl) {
        ctx.output('quickCreateUrl', template.quickCreateUrl);
      }
    },
  });
}
