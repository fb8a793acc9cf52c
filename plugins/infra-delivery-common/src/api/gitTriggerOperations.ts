import {
  dataResponseSchema,
  GITHUB_DELIVERY_HEADER,
  GITHUB_SIGNATURE_HEADER,
  githubWebhookParamsSchema,
  githubWebhookPayloadSchema,
  listResponseSchema,
  listWebhookDeliveriesQuerySchema,
  webhookAcknowledgementSchema,
  webhookDeliverySchema,
} from '../schemas';
import { defineOperation } from './defineOperation';

export const receiveGithubWebhook = defineOperation({
  operationId: 'receiveGithubWebhook',
  method: 'post',
  path: '/webhooks/github/{forgeHost}/{appId}',
  summary:
    "A GitHub App's webhook: pushes and pull requests start the runs of the stacks that follow the repository",
  description: `The App's webhook URL. GitHub signs each delivery with the App's webhook secret (\`webhookSecret\` of the App under \`integrations.github\`): a missing or wrong \`${GITHUB_SIGNATURE_HEADER}\` is a 401 and nothing is recorded. A delivery is recorded by its \`${GITHUB_DELIVERY_HEADER}\` and answered 202 at once; the work happens afterwards. A redelivery is answered 202 with \`duplicate: true\` and starts nothing. Handled events: push, pull_request (opened, synchronize, reopened, closed), installation and installation_repositories; others are recorded as ignored.`,
  tag: 'Git triggers',
  access: 'public',
  params: githubWebhookParamsSchema,
  body: githubWebhookPayloadSchema,
  readsOwnBody: true,
  success: {
    status: 202,
    schema: dataResponseSchema(webhookAcknowledgementSchema),
  },
  errors: [400, 404, 413],
});

export const listWebhookDeliveries = defineOperation({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/webhook-deliveries',
  summary:
    "Webhook deliveries that concerned the organization's code sources, newest first, with what each started, cancelled or why it was ignored",
  tag: 'Git triggers',
  access: 'authenticated',
  query: listWebhookDeliveriesQuerySchema,
  success: { status: 200, schema: listResponseSchema(webhookDeliverySchema) },
  errors: [400, 403],
});
