import { z } from 'zod';
import { errorBodySchema } from './errors';
import { pageQuerySchema } from './pagination';
import { descriptionSchema, idSchema, timestampSchema } from './primitives';

export const DEPLOYMENT_STATUSES = [
  'PENDING',
  'IN_PROGRESS',
  'SUCCEEDED',
  'FAILED',
  'ROLLED_BACK',
  'CANCELLED',
] as const;

export const deploymentStatusSchema = z
  .enum(DEPLOYMENT_STATUSES)
  .meta({ id: 'DeploymentStatus' });
export type DeploymentStatus = z.infer<typeof deploymentStatusSchema>;

/** Statuses of a deployment that still holds its service. */
export const IN_FLIGHT_DEPLOYMENT_STATUSES: readonly DeploymentStatus[] = [
  'PENDING',
  'IN_PROGRESS',
];

/** An AWS region such as eu-west-1. */
export const awsRegionSchema = z
  .string()
  .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'an AWS region such as eu-west-1');

/**
 * An ECS cluster or service: its name, or its ARN (`…:service/cluster/name`). The name, after
 * the last `/`, is what deployments keep: ECS names have at most 255 characters, and a longer
 * one was stored by SQLite and refused by PostgreSQL with a 500.
 */
const ecsRefSchema = z
  .string()
  .min(1)
  .max(2048)
  .regex(
    /^(arn:aws[a-z-]*:ecs:[\w-]+:\d{12}:[\w-]+\/)?([\w.-]+\/)*[\w.-]{1,255}$/,
    { message: 'an ECS name (at most 255 characters) or ARN' },
  );

export const taskDefinitionSnapshotSchema = z
  .object({
    ref: z.string().describe('ARN of the task definition revision'),
    definition: z
      .record(z.string(), z.unknown())
      .describe('The task definition as registered'),
    revision: z.number().int(),
  })
  .meta({ id: 'TaskDefinitionSnapshot' });
export type TaskDefinitionSnapshot = z.infer<
  typeof taskDefinitionSnapshotSchema
>;

export const deploymentEventSchema = z
  .object({
    currentStep: z.number().int(),
    startedAt: timestampSchema,
    stepCode: z.string().describe('INIT, IN_PROGRESS, SUCCEEDED, FAILED, …'),
    totalSteps: z.number().int(),
    desiredCount: z.number().int().optional(),
    hookId: z
      .string()
      .optional()
      .describe('Set while the step waits on a lifecycle hook'),
    lifecycleStage: z.string().optional(),
    message: z.string().optional(),
    trafficPhase: z.string().optional(),
  })
  .meta({ id: 'DeploymentEvent' });
export type DeploymentEvent = z.infer<typeof deploymentEventSchema>;

export const serviceRevisionSchema = z
  .object({
    pendingTaskCount: z.number().int().optional(),
    requestedTaskCount: z.number().int().optional(),
    runningTaskCount: z.number().int(),
    serviceRevisionRef: z.string().optional(),
    requestedProductionTrafficWeight: z.number().int().optional(),
    requestedTestTrafficWeight: z.number().int().optional(),
  })
  .meta({ id: 'ServiceRevision' });

export const serviceDeploymentStateSchema = z
  .object({
    acceptsNativeStandbyRevert: z.boolean().optional(),
    observedAt: timestampSchema,
    serviceDeploymentRef: z.string().optional(),
    status: z.string(),
    lifecycleStage: z.string().optional(),
    sourceServiceRevisions: z.array(serviceRevisionSchema).optional(),
    statusReason: z.string().optional(),
    strategy: z.string().optional(),
    targetServiceRevision: serviceRevisionSchema.optional(),
    trafficPhase: z.string().optional(),
  })
  .meta({ id: 'ServiceDeploymentState' });
export type ServiceDeploymentState = z.infer<
  typeof serviceDeploymentStateSchema
>;

export const acceptedPauseControlSchema = z
  .object({
    acceptedAt: timestampSchema,
    action: z.literal('CONTINUE'),
    hookId: z.string(),
    eventStartedAt: timestampSchema,
    labelKind: z.literal('continue'),
    lifecycleStage: z.string().optional(),
  })
  .meta({ id: 'AcceptedPauseControl' });
export type AcceptedPauseControl = z.infer<typeof acceptedPauseControlSchema>;

export const elbListenerRuleSchema = z
  .object({
    isDefaultRule: z.boolean(),
    listenerRef: z.string(),
    port: z.number().int().optional(),
    protocol: z.string().optional(),
    ruleRef: z.string(),
    targetGroupRef: z.string(),
    hostHeaders: z.array(z.string()).optional(),
    pathPatterns: z.array(z.string()).optional(),
    rulePriority: z.number().int().optional(),
    targetGroupName: z.string().optional(),
    role: z
      .enum(['production', 'test'])
      .optional()
      .describe('Which traffic of a blue/green deployment the rule carries'),
  })
  .meta({ id: 'ElbListenerRule' });

export const elbListenerStateSchema = z
  .object({
    capturedAt: timestampSchema,
    loadBalancerRef: z.string(),
    loadBalancerDnsName: z.string().optional(),
    rules: z.array(elbListenerRuleSchema),
  })
  .meta({ id: 'ElbListenerState' });
export type ElbListenerState = z.infer<typeof elbListenerStateSchema>;

export const containerDeploymentDataSchema = z
  .object({
    type: z.literal('cloud:container'),
    cloudAccountId: idSchema,
    region: z.string(),
    clusterRef: z.string(),
    serviceRef: z.string(),
    acceptedPauseControl: acceptedPauseControlSchema.optional(),
    deployedTaskDefinition: taskDefinitionSnapshotSchema.optional(),
    previousTaskDefinition: taskDefinitionSnapshotSchema.optional(),
    detectedVia: z.literal('EVENT_BUS').optional(),
    containerModuleDeploymentId: idSchema
      .optional()
      .describe(
        'Set when the deployment rolls a module instance: the module deployment infrastructure events name as moduleDeploymentId',
      ),
    elbListenerState: z.array(elbListenerStateSchema).optional(),
    events: z.array(deploymentEventSchema),
    initiationType: z.string().optional(),
    postDeployEnabled: z
      .boolean()
      .optional()
      .describe(
        'The service has a lifecycle hook at or after the production traffic shift; known once the deployment started',
      ),
    preDeployEnabled: z
      .boolean()
      .optional()
      .describe(
        'The service has a lifecycle hook before the production traffic shift; known once the deployment started',
      ),
    revertExternalDeploymentId: z.string().optional(),
    revertRequestedAt: timestampSchema
      .optional()
      .describe('When the deployment was cancelled and its service reverted'),
    revertServiceDeploymentRef: z.string().optional(),
    serviceDeploymentRef: z
      .string()
      .optional()
      .describe('ARN of the ECS service deployment'),
    serviceDeploymentState: serviceDeploymentStateSchema.optional(),
    strategy: z.string().optional(),
    triggerChannel: z.string().optional(),
    triggeredBy: z.string().optional(),
  })
  .meta({ id: 'ContainerDeploymentData' });
export type ContainerDeploymentData = z.infer<
  typeof containerDeploymentDataSchema
>;

export const deploymentSchema = z
  .object({
    createdAt: timestampSchema,
    deploymentType: z.literal('cloud:container'),
    description: z.string(),
    environmentId: idSchema.optional(),
    id: idSchema,
    moduleInstanceId: idSchema.optional(),
    organizationId: idSchema,
    projectId: idSchema.optional(),
    status: deploymentStatusSchema,
    triggerSource: z
      .enum(['API', 'PIPELINE', 'ROLLBACK', 'REDEPLOY', 'EVENT_BUS'])
      .describe('How the deployment came to be'),
    updatedAt: timestampSchema,
    completedAt: timestampSchema.optional(),
    error: errorBodySchema.optional(),
    externalDeploymentId: z
      .string()
      .optional()
      .describe('The ECS deployment id (`ecs-svc/…`)'),
    pipelineRunId: idSchema
      .optional()
      .describe('The run whose container.deploy step started the deployment'),
    stepExecutionId: idSchema.optional(),
    redeployOfDeploymentId: idSchema.optional(),
    resourceRef: z.string().optional().describe('ARN of the ECS service'),
    resourceName: z.string().optional(),
    rollbackToDeploymentId: idSchema.optional(),
    startedAt: timestampSchema.optional(),
    data: containerDeploymentDataSchema,
  })
  .meta({ id: 'Deployment' });
export type Deployment = z.infer<typeof deploymentSchema>;

/** An image reference as a container definition names it: `registry/repository:tag`. */
const imageReferenceSchema = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[^\s]+$/, 'an image reference without spaces');

/** A container of a task definition that ECS can start: one with a name and an image. */
function isStartableContainer(container: unknown): boolean {
  if (!container || typeof container !== 'object') return false;
  const { name, image } = container as Record<string, unknown>;
  return (
    typeof name === 'string' &&
    name.length > 0 &&
    imageReferenceSchema.safeParse(image).success
  );
}

/**
 * A task definition as RegisterTaskDefinition takes it: a family, and at least one container,
 * each with a name and an image (what ECS refuses to register without). The other fields are
 * ECS's to check.
 */
export const taskDefinitionInputSchema = z
  .record(z.string(), z.unknown())
  .refine(
    definition =>
      typeof definition.family === 'string' &&
      /^[\w-]{1,255}$/.test(definition.family),
    { message: 'family: letters, digits, - and _, at most 255' },
  )
  .refine(definition => Array.isArray(definition.containerDefinitions), {
    message: 'containerDefinitions: an array',
  })
  .refine(
    definition =>
      !Array.isArray(definition.containerDefinitions) ||
      (definition.containerDefinitions.length > 0 &&
        definition.containerDefinitions.every(isStartableContainer)),
    {
      message:
        'containerDefinitions: at least one container, each with a name and an image (an image reference without spaces)',
    },
  )
  .refine(definition => JSON.stringify(definition).length <= 64_000, {
    message: 'at most 64 kB of JSON',
  })
  .describe(
    'The ECS task definition to register (RegisterTaskDefinition input)',
  );

/** A new image for one container of the service's current task definition. */
export const containerImageReleaseSchema = z
  .object({
    image: imageReferenceSchema,
    containerName: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe(
        'The container that gets the image; may be left out when the task definition has one container',
      ),
  })
  .meta({ id: 'ContainerImageRelease' });
export type ContainerImageRelease = z.infer<typeof containerImageReleaseSchema>;

/**
 * What a deployment rolls: a whole task definition, or a new image in the service's current
 * one (the release the platform last rolled successfully, or else what the service runs now),
 * as a person deploying a build gives it.
 */
const exactlyOneRelease = {
  check: (release: { taskDefinition?: unknown; image?: unknown }) =>
    (release.taskDefinition === undefined) !== (release.image === undefined),
  message: 'exactly one of taskDefinition or image',
};

export const createDeploymentRequestSchema = z.object({
  data: z
    .object({
      cloudAccountId: idSchema,
      region: awsRegionSchema,
      environmentId: idSchema,
      clusterRef: ecsRefSchema,
      serviceRef: ecsRefSchema,
      taskDefinition: taskDefinitionInputSchema.optional(),
      image: containerImageReleaseSchema.optional(),
      description: descriptionSchema.optional(),
      moduleInstanceId: idSchema.optional(),
    })
    .refine(exactlyOneRelease.check, { message: exactlyOneRelease.message }),
});
export type CreateDeploymentRequest = z.infer<
  typeof createDeploymentRequestSchema
>['data'];

/**
 * The settings of a `container.deploy` pipeline step: which service of which environment
 * (and module instance) is rolled, onto a whole task definition or onto a new image of the
 * current one.
 */
export const containerDeployStepConfigSchema = z
  .object({
    cloudAccountId: idSchema,
    region: awsRegionSchema,
    environmentId: idSchema,
    moduleInstanceId: idSchema.optional(),
    clusterRef: ecsRefSchema,
    serviceRef: ecsRefSchema,
    taskDefinition: taskDefinitionInputSchema.optional(),
    image: containerImageReleaseSchema.optional(),
    description: descriptionSchema.optional(),
  })
  .refine(exactlyOneRelease.check, { message: exactlyOneRelease.message })
  .meta({ id: 'ContainerDeployStepConfig' });
export type ContainerDeployStepConfig = z.infer<
  typeof containerDeployStepConfigSchema
>;

export const listDeploymentsQuerySchema = pageQuerySchema.extend({
  environmentId: idSchema.optional(),
  moduleInstanceId: idSchema.optional(),
  status: deploymentStatusSchema.optional(),
  clusterRef: ecsRefSchema
    .optional()
    .describe('Name or ARN; with serviceRef, the deployments of one service'),
  serviceRef: ecsRefSchema.optional().describe('Name or ARN'),
});
export type ListDeploymentsQuery = z.infer<typeof listDeploymentsQuerySchema>;

export const infrastructureEventKindSchema = z
  .enum([
    'CONTAINER_TASK_STATE_CHANGE',
    'CONTAINER_SERVICE_ACTION',
    'CONTAINER_DEPLOYMENT_STATE_CHANGE',
  ])
  .meta({ id: 'InfrastructureEventKind' });
export type InfrastructureEventKind = z.infer<
  typeof infrastructureEventKindSchema
>;

export const infrastructureEventSchema = z
  .object({
    data: z
      .object({ type: infrastructureEventKindSchema })
      .catchall(z.unknown())
      .describe(
        'Task events: `rawDetail`, `taskRef`, `clusterRef`, `lastStatus`, …; service and deployment events: `rawDetail`, `eventType`, `eventName`, `clusterRef`, `serviceRef`, …',
      ),
    detailType: z.string(),
    eventId: z.string(),
    eventTime: timestampSchema,
    id: idSchema,
    kind: infrastructureEventKindSchema,
    source: z.string(),
    cloudAccountId: idSchema.optional(),
    deploymentResourceId: idSchema
      .optional()
      .describe('The module instance the linked deployment deploys'),
    moduleDeploymentId: idSchema
      .optional()
      .describe('The deployment the event belongs to'),
    region: z.string().optional(),
  })
  .meta({ id: 'InfrastructureEvent' });
export type InfrastructureEvent = z.infer<typeof infrastructureEventSchema>;

export const listInfrastructureEventsQuerySchema = z
  .object({
    resourceId: idSchema.optional(),
    deploymentId: idSchema.optional(),
    kind: infrastructureEventKindSchema.optional(),
  })
  .refine(
    query =>
      (query.resourceId === undefined) !== (query.deploymentId === undefined),
    { message: 'exactly one of resourceId or deploymentId' },
  );

/** The header that carries `infraDelivery.events.ingestToken` on event ingestion. */
export const INGEST_TOKEN_HEADER = 'x-infra-delivery-ingest-token';

/** An EventBridge event as an API destination posts it; the detail is checked per type. */
export const eventBridgeEventSchema = z.object({
  version: z.string().optional(),
  id: z.string().min(1).max(128),
  'detail-type': z.string().min(1).max(128),
  source: z.string().min(1).max(128),
  account: z.string().regex(/^\d{12}$/, 'a 12-digit AWS account id'),
  time: z.iso.datetime({ offset: true }),
  region: awsRegionSchema,
  resources: z.array(z.string().max(2048)).max(100),
  detail: z.record(z.string(), z.unknown()),
});
export type EventBridgeEvent = z.infer<typeof eventBridgeEventSchema>;

export const infrastructureEventIngestResultSchema = z
  .object({
    outcome: z
      .enum(['STORED', 'DUPLICATE', 'OUT_OF_ORDER', 'UNKNOWN_ACCOUNT'])
      .describe(
        'Only STORED changes anything; the others are answered 200 so that EventBridge does not retry them',
      ),
    eventIds: z.array(idSchema).describe('Stored events, one per organization'),
  })
  .meta({ id: 'InfrastructureEventIngestResult' });
