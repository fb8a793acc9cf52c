import { z } from 'zod';
import {
  createDeploymentRequestSchema,
  dataResponseSchema,
  deploymentSchema,
  eventBridgeEventSchema,
  INGEST_TOKEN_HEADER,
  infrastructureEventIngestResultSchema,
  infrastructureEventSchema,
  listDeploymentsQuerySchema,
  listInfrastructureEventsQuerySchema,
  listResponseSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const listDeployments = defineOperation({
  operationId: 'listDeployments',
  method: 'get',
  path: '/deployments',
  summary: 'Container deployments of the organization, newest first',
  tag: 'Deployments',
  access: 'authenticated',
  query: listDeploymentsQuerySchema,
  success: { status: 200, schema: listResponseSchema(deploymentSchema) },
  errors: [400, 403],
});

export const getDeployment = defineOperation({
  operationId: 'getDeployment',
  method: 'get',
  path: '/deployments/{id}',
  summary: 'One deployment with its progress events',
  tag: 'Deployments',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(deploymentSchema) },
  errors: [403, 404],
});

export const createDeployment = defineOperation({
  operationId: 'createDeployment',
  method: 'post',
  path: '/deployments',
  summary:
    'Register a task definition revision and roll the ECS service onto it',
  description:
    "The release is a whole taskDefinition, or an image: the service's current task definition (the release last rolled successfully here, else what ECS runs) with that image in one container, every other field kept (422 NO_CURRENT_TASK_DEFINITION when there is none, CONTAINER_NOT_FOUND when it has no container of the name given, or several and none is named). One deployment per service at a time: 409 while another is PENDING or IN_PROGRESS. Progress is followed in the background; read it with GET /deployments/{id}.",
  tag: 'Deployments',
  access: 'authenticated',
  body: createDeploymentRequestSchema,
  success: { status: 201, schema: dataResponseSchema(deploymentSchema) },
  errors: [400, 403, 404, 409, 422, 503],
  idempotent: true,
});

export const rollbackDeployment = defineOperation({
  operationId: 'rollbackDeployment',
  method: 'post',
  path: '/deployments/{id}/rollback',
  summary:
    'Roll the service back to the release of an earlier successful deployment (the {id})',
  description:
    'Creates a new deployment that replays the exact stored task definition of the target; its rollbackToDeploymentId names the target. 422 when the target did not succeed, 409 while another deployment of the service is in flight.',
  tag: 'Deployments',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 201, schema: dataResponseSchema(deploymentSchema) },
  errors: [403, 404, 409, 422, 503],
  idempotent: true,
});

export const continueDeployment = defineOperation({
  operationId: 'continueDeployment',
  method: 'post',
  path: '/deployments/{id}/continue',
  summary: 'Let a deployment paused at a lifecycle hook go on',
  tag: 'Deployments',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(deploymentSchema) },
  errors: [403, 404, 409],
});

export const cancelDeployment = defineOperation({
  operationId: 'cancelDeployment',
  method: 'post',
  path: '/deployments/{id}/cancel',
  summary: 'Stop a deployment in flight and restore the previous revision',
  description:
    'A PENDING deployment ends CANCELLED at once. An IN_PROGRESS one is stopped with a rollback (ECS StopServiceDeployment); its data.revertRequestedAt is set, and it ends CANCELLED once ECS has restored the previous revision. 409 for a deployment that is not in flight or was started outside the platform.',
  tag: 'Deployments',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(deploymentSchema) },
  errors: [403, 404, 409, 503],
});

export const redeployDeployment = defineOperation({
  operationId: 'redeployDeployment',
  method: 'post',
  path: '/deployments/{id}/redeploy',
  summary: 'Roll the release of a finished deployment (the {id}) again',
  description:
    'Creates a new deployment that replays the stored task definition of the source and starts new tasks even when the service already runs it; its redeployOfDeploymentId names the source. 422 for a source still in flight or without a registered release, 409 while another deployment of the service is in flight.',
  tag: 'Deployments',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 201, schema: dataResponseSchema(deploymentSchema) },
  errors: [403, 404, 409, 422, 503],
  idempotent: true,
});

export const ingestInfrastructureEvent = defineOperation({
  operationId: 'ingestInfrastructureEvent',
  method: 'post',
  path: '/infrastructure-events/ingest',
  summary: 'Receive one ECS event from an EventBridge API destination',
  description: `The credential is the shared secret infraDelivery.events.ingestToken in the \`${INGEST_TOKEN_HEADER}\` header. ECS Task State Change, Service Action and Deployment State Change events are stored for every organization that connected the event's account; duplicates (by event id) and task events older than one already stored are acknowledged without change.`,
  tag: 'Infrastructure events',
  access: 'public',
  body: eventBridgeEventSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(infrastructureEventIngestResultSchema),
  },
  errors: [400, 503],
});

export const listInfrastructureEvents = defineOperation({
  operationId: 'listInfrastructureEvents',
  method: 'get',
  path: '/infrastructure-events',
  summary:
    'Events of one deployment or one resource (exactly one), newest first; every kind unless filtered',
  tag: 'Infrastructure events',
  access: 'authenticated',
  query: listInfrastructureEventsQuerySchema,
  success: {
    status: 200,
    schema: dataResponseSchema(
      z.object({ data: z.array(infrastructureEventSchema) }),
    ),
  },
  errors: [400, 403],
});
