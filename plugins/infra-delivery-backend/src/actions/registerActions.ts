import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import {
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
  AuthenticationError,
} from '@backstage/errors';
import {
  cloudMetricQuerySchema,
  Deployment,
  IacExecutionSummary,
  PipelineRun,
  Stack,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import { EXECUTE } from '../auth/requirements';
import { Caller } from '../auth/Caller';
import { InfraDeliveryError } from '../errors';
import { PluginContext } from '../pluginContext';
import { registerGetStackDriftTool } from './tools/getStackDrift';

/** What the tools need: the registry, and the plugin's services and caller resolution. */
export interface RegisterActionsOptions {
  actionsRegistry: ActionsRegistryService;
  context: PluginContext;
}

const RUN_STATUSES = [
  'QUEUED',
  'RUNNING',
  'WAITING_FOR_APPROVAL',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
] as const;

/** The service's own errors as the ones the actions registry answers with a status. */
function toBackstageError(error: unknown): unknown {
  if (!(error instanceof InfraDeliveryError)) {
    return error;
  }
  const message = `${error.message} (${error.code})`;
  switch (error.status) {
    case 400:
    case 422:
      return new InputError(message);
    case 401:
      return new AuthenticationError(message);
    case 403:
      return new NotAllowedError(message);
    case 404:
      return new NotFoundError(message);
    case 409:
      return new ConflictError(message);
    case 429:
    case 503:
      return new ServiceUnavailableError(message);
    default:
      return error;
  }
}

function stackSummary(stack: Stack) {
  return {
    id: stack.id,
    givenId: stack.givenId,
    name: stack.name,
    projectId: stack.projectId,
    environmentId: stack.environmentId,
    changePipelineId: stack.changePipelineId,
    destroyPipelineId: stack.destroyPipelineId,
    autoApprove: stack.autoApprove,
    ...(stack.latestRunId ? { latestRunId: stack.latestRunId } : {}),
  };
}

function runSummary(run: PipelineRun) {
  return {
    id: run.id,
    pipelineId: run.pipelineId,
    status: run.status,
    createdAt: run.createdAt,
    ...(run.attachedEntityId ? { stackId: run.attachedEntityId } : {}),
    ...(run.description ? { description: run.description } : {}),
    ...(run.queueReason ? { queueReason: run.queueReason } : {}),
    // A run whose step waits for a runner says whether one is there, and why it waits.
    ...(run.queueState?.waitingForRunner !== undefined
      ? {
          waitingForRunner: run.queueState.waitingForRunner,
          queueReason: run.queueState.reason,
        }
      : {}),
    ...(run.completedAt ? { completedAt: run.completedAt } : {}),
    ...(run.error ? { error: run.error.message } : {}),
  };
}

function stepSummary(step: StepExecution) {
  return {
    id: step.id,
    position: step.position,
    type: step.type,
    name: step.name,
    status: step.status,
    ...(step.startedAt ? { startedAt: step.startedAt } : {}),
    ...(step.completedAt ? { completedAt: step.completedAt } : {}),
    ...(step.error ? { error: step.error.message } : {}),
  };
}

function planSummary(summary: IacExecutionSummary) {
  return {
    runType: summary.runType,
    stepExecutionId: summary.stepExecutionId,
    add: summary.addCount,
    change: summary.changeCount,
    destroy: summary.destroyCount,
    replace: summary.replaceCount,
    import: summary.importCount,
    unchanged: summary.unchangedCount,
    applyable: summary.applyable,
  };
}

/**
 * Registers the tools of the service with the actions registry, which exposes them to MCP
 * clients (through `@backstage/plugin-mcp-actions-backend`) and to other plugins. Every tool
 * acts as the caller the registry hands it: the same caller resolution, roles, organization
 * scoping and permission checks as the REST API, through the same services.
 */
export async function registerActions(
  options: RegisterActionsOptions,
): Promise<void> {
  const { actionsRegistry } = options;
  const { callers, authorizer } = options.context;
  const { pipelines, stacks, iacResults, cloudMetrics, deployments } =
    options.context.services;

  /** Runs `fn` as the caller of the credentials, with the service's errors translated. */
  async function asCaller<T>(
    credentials: BackstageCredentials,
    fn: (caller: Caller) => Promise<T>,
  ): Promise<T> {
    try {
      return await fn(await callers.fromCredentials(credentials));
    } catch (error) {
      throw toBackstageError(error);
    }
  }

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
          limit: z.number().int().min(1).max(100).default(25),
          cursor: z
            .string()
            .min(1)
            .max(64)
            .optional()
            .describe('nextCursor of the previous page'),
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
          totalCount: z.number(),
          nextCursor: z.string().optional(),
        }),
    },
    examples: [
      {
        title: 'Stacks of a project',
        input: { projectId: '01JPROJECT', limit: 10 },
      },
    ],
    action: async ({ input, credentials }) =>
      asCaller(credentials, async caller => {
        const page = await stacks.list(
          caller,
          { projectId: input.projectId, environmentId: input.environmentId },
          { limit: input.limit, afterId: input.cursor },
        );
        return {
          output: {
            stacks: page.items.map(stackSummary),
            totalCount: page.totalCount,
            ...(page.nextAfterId ? { nextCursor: page.nextAfterId } : {}),
          },
        };
      }),
  });

  const runOutput = (z: typeof import('zod/v3').z) =>
    z.object({
      id: z.string(),
      pipelineId: z.string(),
      status: z.enum(RUN_STATUSES),
      createdAt: z.string(),
      stackId: z.string().optional(),
      description: z.string().optional(),
      queueReason: z.string().optional(),
      waitingForRunner: z
        .boolean()
        .optional()
        .describe(
          'True when the next step waits for a runner and none of the organization is online: start one (see the portal’s Organization page)',
        ),
      completedAt: z.string().optional(),
      error: z.string().optional(),
    });

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
          limit: z.number().int().min(1).max(100).default(25),
          cursor: z.string().min(1).max(64).optional(),
        }),
      output: z =>
        z.object({
          runs: z.array(runOutput(z)),
          totalCount: z.number(),
          nextCursor: z.string().optional(),
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
      asCaller(credentials, async caller => {
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
            totalCount: page.totalCount,
            ...(page.nextAfterId ? { nextCursor: page.nextAfterId } : {}),
          },
        };
      }),
  });

  actionsRegistry.register({
    name: 'get-run',
    title: 'Get a pipeline run',
    description:
      'One pipeline run with its steps, why it is queued (if it is) and the summary of its IaC plan (resources to add, change, destroy).',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z => z.object({ runId: z.string().min(1).max(64) }),
      output: z =>
        z.object({
          run: runOutput(z),
          steps: z.array(
            z.object({
              id: z.string(),
              position: z.number(),
              type: z.string(),
              name: z.string(),
              status: z.string(),
              startedAt: z.string().optional(),
              completedAt: z.string().optional(),
              error: z.string().optional(),
            }),
          ),
          plans: z.array(
            z.object({
              runType: z.string(),
              stepExecutionId: z.string(),
              add: z.number(),
              change: z.number(),
              destroy: z.number(),
              replace: z.number(),
              import: z.number(),
              unchanged: z.number(),
              applyable: z.boolean(),
            }),
          ),
        }),
    },
    examples: [{ title: 'A run', input: { runId: '01JRUN' } }],
    action: async ({ input, credentials }) =>
      asCaller(credentials, async caller => {
        const run = await pipelines.getRun(caller, input.runId);
        const steps = await pipelines.listSteps(caller, run.id);
        const summaries = await iacResults.listSummaries(
          caller,
          { pipelineRunId: run.id },
          { limit: 20 },
        );
        return {
          output: {
            run: runSummary(run),
            steps: steps.map(stepSummary),
            plans: summaries.items.map(planSummary),
          },
        };
      }),
  });

  actionsRegistry.register({
    name: 'get-metric',
    title: 'Get a cloud metric',
    description:
      'A CloudWatch metric series of a connected cloud account of your organization, e.g. CPUUtilization of AWS/ECS. startTime and endTime are ISO 8601; period is in seconds, a multiple of 60.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          cloudAccountId: z.string().min(1).max(64),
          region: z.string().min(1).max(32),
          namespace: z.string().min(1).max(255),
          metricName: z.string().min(1).max(255),
          statistic: z.string().min(1).max(16).default('Average'),
          period: z.number().int().positive().default(300),
          startTime: z.string().min(1),
          endTime: z.string().min(1),
          dimensions: z
            .record(z.string())
            .optional()
            .describe('Dimension name → value, e.g. { "ClusterName": "web" }'),
        }),
      output: z =>
        z.object({
          unit: z.string(),
          datapoints: z.array(
            z.object({
              timestamp: z.string(),
              value: z.number(),
              max: z.number(),
              min: z.number(),
            }),
          ),
        }),
    },
    examples: [
      {
        title: 'CPU of an ECS service over an hour',
        input: {
          cloudAccountId: '01JACCOUNT',
          region: 'eu-west-1',
          namespace: 'AWS/ECS',
          metricName: 'CPUUtilization',
          statistic: 'Average',
          period: 300,
          startTime: '2026-01-01T10:00:00Z',
          endTime: '2026-01-01T11:00:00Z',
          dimensions: { ClusterName: 'web', ServiceName: 'api' },
        },
      },
    ],
    action: async ({ input, credentials }) =>
      asCaller(credentials, async caller => {
        const { dimensions, ...rest } = input;
        const query = cloudMetricQuerySchema.safeParse({
          ...rest,
          dimension: dimensions
            ? Object.entries(dimensions).map(([name, v]) => `${name}=${v}`)
            : undefined,
        });
        if (!query.success) {
          throw new InputError(
            query.error.issues
              .map(issue => `${issue.path.join('.')}: ${issue.message}`)
              .join('; '),
          );
        }
        const metric = await cloudMetrics.getMetric(caller, query.data);
        return { output: { unit: metric.unit, datapoints: metric.datapoints } };
      }),
  });

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
      asCaller(credentials, async caller => {
        // The role first, as triggering through the REST API checks it.
        await authorizer.require(caller, EXECUTE);
        const stack = await stacks.get(caller, input.stackId);
        const run = await pipelines.trigger(caller, stack.changePipelineId, {
          description: input.description,
        });
        return { output: { run: runSummary(run) } };
      }),
  });

  actionsRegistry.register({
    name: 'approve-run',
    title: 'Approve a pipeline run',
    description:
      'Approves the waiting approval step of a run (status WAITING_FOR_APPROVAL), so that it applies its plan. Needs the MEMBER role. Check the plan with get-run first.',
    attributes: { destructive: true, readOnly: false, idempotent: false },
    schema: {
      input: z =>
        z.object({
          runId: z.string().min(1).max(64),
          comment: z.string().max(2000).optional(),
        }),
      output: z => z.object({ run: runOutput(z) }),
    },
    examples: [
      {
        title: 'Approve a plan',
        input: { runId: '01JRUN', comment: 'Plan reviewed' },
      },
    ],
    action: async ({ input, credentials }) =>
      asCaller(credentials, async caller => {
        const run = await pipelines.act(
          caller,
          input.runId,
          'approve',
          input.comment,
        );
        return { output: { run: runSummary(run) } };
      }),
  });

  const DEPLOYMENT_STATUSES = [
    'PENDING',
    'IN_PROGRESS',
    'SUCCEEDED',
    'FAILED',
    'ROLLED_BACK',
    'CANCELLED',
  ] as const;

  const deploymentOutput = (z: typeof import('zod/v3').z) =>
    z.object({
      id: z.string(),
      status: z.enum(DEPLOYMENT_STATUSES),
      description: z.string(),
      clusterRef: z.string(),
      serviceRef: z.string(),
      taskDefinitionRevision: z.number().optional(),
      rollbackToDeploymentId: z.string().optional(),
      createdAt: z.string(),
      completedAt: z.string().optional(),
      error: z.string().optional(),
    });

  const deploymentSummary = (deployment: Deployment) => ({
    id: deployment.id,
    status: deployment.status,
    description: deployment.description,
    clusterRef: deployment.data.clusterRef,
    serviceRef: deployment.data.serviceRef,
    ...(deployment.data.deployedTaskDefinition
      ? {
          taskDefinitionRevision:
            deployment.data.deployedTaskDefinition.revision,
        }
      : {}),
    ...(deployment.rollbackToDeploymentId
      ? { rollbackToDeploymentId: deployment.rollbackToDeploymentId }
      : {}),
    createdAt: deployment.createdAt,
    ...(deployment.completedAt ? { completedAt: deployment.completedAt } : {}),
    ...(deployment.error ? { error: deployment.error.message } : {}),
  });

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
          limit: z.number().int().min(1).max(100).default(25),
          cursor: z.string().min(1).max(64).optional(),
        }),
      output: z =>
        z.object({
          deployments: z.array(deploymentOutput(z)),
          totalCount: z.number(),
          nextCursor: z.string().optional(),
        }),
    },
    examples: [
      {
        title: 'Deployments of a service',
        input: { clusterRef: 'payments', serviceRef: 'payments-api', limit: 5 },
      },
    ],
    action: async ({ input, credentials }) =>
      asCaller(credentials, async caller => {
        const { limit, cursor, ...filter } = input;
        const page = await deployments.list(caller, filter, {
          limit,
          afterId: cursor,
        });
        return {
          output: {
            deployments: page.items.map(deploymentSummary),
            totalCount: page.totalCount,
            ...(page.nextAfterId ? { nextCursor: page.nextAfterId } : {}),
          },
        };
      }),
  });

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
      asCaller(credentials, async caller => {
        const deployment = await deployments.rollback(
          caller,
          input.deploymentId,
        );
        return { output: { deployment: deploymentSummary(deployment) } };
      }),
  });

  registerGetStackDriftTool({ ...options, asCaller });
}
