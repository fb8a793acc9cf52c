import { z } from 'zod';
import { containerDeployStepConfigSchema } from './deployments';
import { runKindSchema, runTriggerSourceSchema } from './drift';
import { errorBodySchema } from './errors';
import { runGitSourceSchema } from './gitTriggers';
import { pageQuerySchema } from './pagination';
import {
  descriptionSchema,
  givenIdSchema,
  idSchema,
  multiLineTextSchema,
  nameSchema,
  repeatableQuery,
  requestBody,
  singleLineTextSchema,
  timestampSchema,
} from './primitives';

export const RUN_STATUSES = [
  'QUEUED',
  'RUNNING',
  'WAITING_FOR_APPROVAL',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
] as const;
export const runStatusSchema = z.enum(RUN_STATUSES).meta({ id: 'RunStatus' });
export type RunStatus = z.infer<typeof runStatusSchema>;

/** Statuses a run or step does not leave. */
export const FINAL_STATUSES: readonly string[] = [
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
  'SKIPPED',
];

export const stepStatusSchema = z
  .enum([...RUN_STATUSES, 'PENDING', 'SKIPPED'])
  .meta({ id: 'StepStatus' });
export type StepStatus = z.infer<typeof stepStatusSchema>;

/**
 * Step types the engine executes: IaC steps by runners over the runner protocol, approvals by
 * a person through the API, container deployments by the backend itself.
 */
export const STEP_TYPES = [
  'iac.plan',
  'iac.apply',
  'iac.destroy',
  'approval',
  'container.deploy',
] as const;
export const stepTypeSchema = z.enum(STEP_TYPES).meta({ id: 'StepType' });
export type StepType = z.infer<typeof stepTypeSchema>;

export const pipelineStepSchema = z
  .object({
    type: stepTypeSchema,
    name: nameSchema,
    /**
     * Step-specific settings handed to whoever executes it (e.g. the runner); a
     * `container.deploy` step's are ContainerDeployStepConfig.
     */
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((step, ctx) => {
    if (step.type !== 'container.deploy') {
      return;
    }
    const parsed = containerDeployStepConfigSchema.safeParse(step.config);
    for (const issue of parsed.error?.issues ?? []) {
      ctx.addIssue({
        code: 'custom',
        message: issue.message,
        path: ['config', ...issue.path.map(String)],
      });
    }
  })
  .meta({ id: 'PipelineStep' });
export type PipelineStep = z.infer<typeof pipelineStepSchema>;

export const pipelineSchema = z
  .object({
    createdAt: timestampSchema,
    givenId: z.string(),
    id: idSchema,
    name: z.string(),
    projectId: idSchema,
    updatedAt: timestampSchema,
    description: z.string().optional(),
    latestRunId: idSchema.optional(),
    latestRunStatus: runStatusSchema.optional(),
    latestVersionId: idSchema.optional(),
    organizationId: idSchema,
    stackId: idSchema.optional(),
  })
  .meta({ id: 'Pipeline' });
export type Pipeline = z.infer<typeof pipelineSchema>;

export const pipelineVersionSchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    pipelineId: idSchema,
    version: z.number().int(),
    steps: z.array(pipelineStepSchema),
    createdAt: timestampSchema,
  })
  .meta({ id: 'PipelineVersion' });
export type PipelineVersion = z.infer<typeof pipelineVersionSchema>;

/**
 * A version's steps: one to fifty, each of its own name (a run's steps, logs and approvals are
 * told apart by name in the portal and in messages).
 */
const stepsSchema = z
  .array(pipelineStepSchema)
  .min(1)
  .max(50)
  .superRefine((steps, ctx) => {
    const positions = new Map<string, number>();
    steps.forEach((step, index) => {
      const first = positions.get(step.name);
      if (first === undefined) {
        positions.set(step.name, index);
        return;
      }
      ctx.addIssue({
        code: 'custom',
        path: [index, 'name'],
        message: `"${step.name}" is the name of steps[${first}] already: each step of a pipeline has its own name`,
      });
    });
  });

export const createPipelineRequestSchema = requestBody(
  z.object({
    projectId: idSchema,
    givenId: givenIdSchema,
    name: nameSchema,
    description: descriptionSchema.optional(),
    steps: stepsSchema,
  }),
);

export const updatePipelineRequestSchema = requestBody(
  z
    .object({
      name: nameSchema.optional(),
      description: descriptionSchema.optional(),
    })
    .refine(v => v.name !== undefined || v.description !== undefined, {
      message: 'name or description is required',
    }),
);

export const createPipelineVersionRequestSchema = requestBody(
  z.object({ steps: stepsSchema }),
);

/**
 * What people call the runner of a step: the name of the service account it signed in with when
 * it claimed the step.
 */
const runnerNameSchema = z
  .string()
  .optional()
  .describe(
    'The name of the service account the runner signed in with when it claimed the step (what the portal calls the runner); absent once that account is deleted, and for steps claimed before it was recorded',
  );

/**
 * When the service came back from an outage (every instance down or frozen), where the runner was
 * last heard from before: it could not be heard meanwhile.
 */
export const serviceReachableSinceSchema = timestampSchema
  .optional()
  .describe(
    'When the service became reachable again after every instance of it was down or frozen (a restart), where this runner was last heard from before that: it could not be heard meanwhile, so its silence counts from then. Absent when it was heard from since',
  );

/**
 * A runner's lease on the step it executes. The runner renews it by heartbeats; unless it does
 * before `expiresAt`, the step is queued again for the next runner (a new attempt).
 */
export const stepLeaseSchema = z
  .object({
    runnerId: z.string().describe('The runner executing the step'),
    runnerName: runnerNameSchema,
    renewedAt: timestampSchema.describe(
      "The runner's claim of the step or its latest heartbeat",
    ),
    expiresAt: timestampSchema.describe(
      'When the step is queued again unless its runner sends a heartbeat before',
    ),
    lastHeardAt: timestampSchema
      .optional()
      .describe(
        'When the service last heard from the runner: its latest heartbeat, or a later log append or claim (recorded every few seconds). A runner busy streaming logs is heard from between its heartbeats',
      ),
    claimedAt: timestampSchema
      .optional()
      .describe(
        "When the runner claimed the step (this attempt). The reference runner writes the step's first log line within seconds of its claim: a `lastHeardAt` no later than the claim, seconds after it, means the claim's answer never reached a working runner (frozen, or lost with its connection)",
      ),
    heartbeatIntervalMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        'How often the runner renews the lease, as its claim or its latest heartbeat said; absent for a runner that does not say. A runner not heard from (`lastHeardAt`) for three of these, and at least ten seconds, has most likely stopped; without it, one that has not renewed its lease for half of it',
      ),
    serviceReachableSince: serviceReachableSinceSchema,
  })
  .meta({ id: 'StepLease' });
export type StepLease = z.infer<typeof stepLeaseSchema>;

/**
 * The step of a running run that a runner executes now, with the runner's lease on it: who runs
 * the run, and whether that runner still reports.
 */
export const leasedStepSchema = z
  .object({
    id: idSchema,
    name: z.string(),
    lease: stepLeaseSchema,
  })
  .meta({ id: 'LeasedStep' });
export type LeasedStep = z.infer<typeof leasedStepSchema>;

export const queueStateSchema = z
  .object({
    preflightBlockedByAdmissionCondition: z.boolean(),
    reason: z.string().optional(),
    /**
     * The run's next step waits for a runner to claim it and no runner of the organization is
     * online; `reason` says so for a person. Computed when the run is read.
     */
    waitingForRunner: z.boolean().optional(),
    /**
     * The run's next step waits for a claim while ONLINE runners are free, and none of them has
     * asked for work since it was queued, for longer than a few of their polls: they stopped
     * without signing off (killed, host lost) or cannot reach the service, and read ONLINE until
     * the online window passes. `reason` names them and how long they have been silent.
     * Computed when the run is read; absent otherwise.
     */
    runnersSilent: z.boolean().optional(),
    requiredRunnerLabels: z
      .array(z.string())
      .optional()
      .describe(
        "The labels a runner must carry to claim the run's next step (its stack's `runnerLabels`), while that step waits for a claim; absent when any runner may. `waitingForRunner` is true also when runners are online but none carries them all, and `reason` names the labels the online runners carry",
      ),
    stackRunPreflightPending: z.boolean(),
    blockingEntityId: idSchema.optional(),
    blockingEntityType: z.enum(['STACK']).optional(),
    blockingRunId: idSchema.optional(),
    blockingModuleInstanceId: idSchema.optional(),
    blockingModuleName: z.string().optional(),
    conditionKey: z.string().optional(),
    environmentId: idSchema.optional(),
    projectId: idSchema.optional(),
  })
  .meta({ id: 'QueueState' });
export type QueueState = z.infer<typeof queueStateSchema>;

/**
 * What a run's plan would change, carried with the run so that lists say it without reading
 * each run's execution summaries: the plan step's counts as Terraform's `Plan:` line gives them.
 */
export const runChangeSummarySchema = z
  .object({
    add: z
      .number()
      .int()
      .describe('Resources the plan adds (a replacement adds one)'),
    change: z.number().int().describe('Resources the plan changes in place'),
    destroy: z
      .number()
      .int()
      .describe('Resources the plan destroys (a replacement destroys one)'),
    import: z.number().int().describe('Resources the plan imports'),
    noChanges: z
      .boolean()
      .describe(
        "The plan has nothing to apply (its summary's `applyable` is false): the run skipped its approval and apply",
      ),
  })
  .meta({ id: 'RunChangeSummary' });
export type RunChangeSummary = z.infer<typeof runChangeSummarySchema>;

export const pipelineRunSchema = z
  .object({
    attemptEpoch: z.number().int(),
    createdAt: timestampSchema,
    description: z.string().optional(),
    id: idSchema,
    isCancellable: z.boolean(),
    organizationId: idSchema,
    pipelineId: idSchema,
    pipelineVersionId: idSchema,
    status: runStatusSchema,
    queueConditionKey: z.string().optional(),
    queueReason: z.string().optional(),
    engineWorkflowId: z.string().optional(),
    updatedAt: timestampSchema,
    variantId: z.string().optional(),
    variantName: z.string().optional(),
    attachedEntityId: idSchema.optional(),
    completedAt: timestampSchema.optional(),
    createdById: z.string().optional(),
    input: z.record(z.string(), z.unknown()).optional(),
    lastAttemptStartedAt: timestampSchema.optional(),
    startedAt: timestampSchema.optional(),
    engineRunId: z.string().optional(),
    queueState: queueStateSchema.optional(),
    leasedStep: leasedStepSchema
      .optional()
      .describe(
        "While a runner executes one of the run's steps: that step and the runner's lease on it; computed when the run is read",
      ),
    data: z.record(z.string(), z.unknown()).optional(),
    error: errorBodySchema.optional(),
    triggerMetadata: z
      .object({
        trigger_given_id: z
          .string()
          .optional()
          .describe(
            'What started the run: the API operation (triggerPipelineRun, destroyStack) or the MCP action (trigger-plan)',
          ),
        webhook_event: z
          .string()
          .optional()
          .describe(
            'For a run started by a GitHub webhook: the event and action (`push`, `pull_request.synchronize`)',
          ),
      })
      .optional(),
    kind: runKindSchema
      .optional()
      .describe('What the run is for; the service always sends it'),
    triggerSource: runTriggerSourceSchema
      .optional()
      .describe('Who or what started the run; the service always sends it'),
    reconciledDriftCheckRunId: idSchema
      .optional()
      .describe('The drift check whose drift this run reconciles'),
    gitSource: runGitSourceSchema
      .optional()
      .describe(
        'For a run started by a push or a pull request: the commit it works on, and the push or pull request',
      ),
    changeSummary: runChangeSummarySchema
      .optional()
      .describe(
        "What the run's plan would change, recorded with the plan's execution summary (the latest plan of the run); absent until a plan of the run has reported, and for runs that plan nothing",
      ),
  })
  .meta({ id: 'PipelineRun' });
export type PipelineRun = z.infer<typeof pipelineRunSchema>;

export const triggerRunRequestSchema = requestBody(
  z
    .object({
      attachedEntityId: idSchema.optional(),
      input: z
        .record(z.string(), z.unknown())
        .optional()
        .describe(
          "The module's variables for the run; a run of a stack given none takes the stack's `appliedInput`",
        ),
      description: descriptionSchema.optional(),
      variantId: singleLineTextSchema.max(64).optional(),
      variantName: singleLineTextSchema
        .min(1)
        .max(200)
        .optional()
        .describe("The variant's name for people; only with variantId"),
    })
    .refine(v => v.variantName === undefined || v.variantId !== undefined, {
      message: 'variantName needs variantId',
      path: ['variantName'],
    }),
);

export const runActionRequestSchema = z.object({
  data: z
    .object({ comment: multiLineTextSchema.max(2000).optional() })
    .optional()
    .default({}),
});

export const stepExecutionSchema = z
  .object({
    id: idSchema,
    pipelineRunId: idSchema,
    position: z.number().int(),
    type: stepTypeSchema,
    name: z.string(),
    status: stepStatusSchema,
    attemptEpoch: z.number().int(),
    startedAt: timestampSchema.optional(),
    completedAt: timestampSchema.optional(),
    error: errorBodySchema.optional(),
    outputs: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "What the step left: an apply's root outputs; a decided approval's `decidedById` (the membership or service account that approved or rejected) and `comment`",
      ),
    config: z.record(z.string(), z.unknown()).optional(),
    lease: stepLeaseSchema
      .optional()
      .describe('While a runner executes the step (status RUNNING): its lease'),
    runnerId: z
      .string()
      .optional()
      .describe(
        'The runner that claimed the attempt shown, from its claim on and kept once the step ends: who planned or applied',
      ),
    runnerName: runnerNameSchema,
  })
  .meta({ id: 'StepExecution' });
export type StepExecution = z.infer<typeof stepExecutionSchema>;

export const stepLogLineSchema = z
  .object({
    id: z.string(),
    attemptEpoch: z.number().int(),
    timestamp: timestampSchema,
    text: z.string(),
  })
  .meta({ id: 'StepLogLine' });
export type StepLogLine = z.infer<typeof stepLogLineSchema>;

/** #13: every filter of the specification's part 4.3, with part 8's limits. */
export const listPipelineRunsQuerySchema = pageQuerySchema
  .extend({
    pipelineId: repeatableQuery(idSchema, 200).optional(),
    status: repeatableQuery(runStatusSchema, 20).optional(),
    attachedEntityId: repeatableQuery(idSchema, 200).optional(),
    id: repeatableQuery(idSchema, 200).optional(),
    latestPerPipeline: z.coerce.number().int().min(1).max(50).optional(),
    latestPerEntity: z.coerce.number().int().min(1).max(50).optional(),
    kind: repeatableQuery(runKindSchema, 3).optional(),
  })
  .refine(q => q.latestPerPipeline === undefined || q.pipelineId, {
    message: 'latestPerPipeline needs pipelineId',
    path: ['latestPerPipeline'],
  })
  .refine(q => q.latestPerEntity === undefined || q.attachedEntityId, {
    message: 'latestPerEntity needs attachedEntityId',
    path: ['latestPerEntity'],
  });
export type ListPipelineRunsQuery = z.infer<typeof listPipelineRunsQuerySchema>;
