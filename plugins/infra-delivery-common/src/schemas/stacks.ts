import { z } from 'zod';
import {
  descriptionSchema,
  givenIdSchema,
  idSchema,
  nameSchema,
  repeatableQuery,
  requestBody,
  timestampSchema,
} from './primitives';
import { pageQuerySchema } from './pagination';
import { driftCheckIntervalHoursSchema, driftStatusSchema } from './drift';
import { stackGitTriggerSchema } from './gitTriggers';
import { repositoryPathSchema } from './codeSources';
import { requiredRunnerLabelsSchema } from './runnerLabels';

const RUNNER_LABELS =
  'The labels a runner must carry (all of them) to be handed the stack\'s plan and apply steps, e.g. `["env=prod"]` for the runner inside the production network; a runner carries those it was started with (`--labels env=prod`). Empty: any runner of the organization. Changing them routes the steps already waiting too';

const STACK_PATH =
  "The stack's directory in its code source (or in the runner's source root), e.g. `infra/network`; slashes around it are dropped";

export const stackSchema = z
  .object({
    changePipelineId: idSchema,
    createdAt: timestampSchema,
    destroyPipelineId: idSchema,
    environmentId: idSchema,
    id: idSchema,
    organizationId: idSchema,
    projectId: idSchema,
    type: z.enum(['IAC_OPEN']),
    updatedAt: timestampSchema,
    givenId: z.string(),
    name: z.string(),
    description: z.string().optional(),
    codeSourceId: idSchema.optional(),
    path: z.string().optional(),
    autoApprove: z.boolean(),
    firstAppliedAt: timestampSchema.optional(),
    latestRunId: idSchema.optional(),
    output: z.record(z.string(), z.unknown()).optional(),
    appliedInput: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "The input of the stack's latest apply that succeeded (absent: none, or the module's defaults). A run of the stack triggered without `input` takes it, as do drift checks, reconciles and runs started by git",
      ),
    serviceStateBackendWorkspace: z.string().optional(),
    cloudAccountId: idSchema
      .optional()
      .describe(
        'The cloud account the stack deploys into (an addition to the specification); the catalog shows it as a dependency of the stack',
      ),
    driftCheckIntervalHours: driftCheckIntervalHoursSchema.optional(),
    nextDriftCheckAt: timestampSchema
      .optional()
      .describe('When the next scheduled drift check is due'),
    driftStatus: driftStatusSchema,
    driftedResourceCount: z
      .number()
      .int()
      .optional()
      .describe(
        'Resources the latest drift check would change; absent until a check has planned',
      ),
    lastDriftCheckAt: timestampSchema.optional(),
    lastDriftCheckRunId: idSchema
      .optional()
      .describe(
        'The latest drift check run; its resources (#14) are what drifted, with before and after',
      ),
    gitTrigger: stackGitTriggerSchema
      .optional()
      .describe(
        "How pushes and pull requests on the stack's code source start runs; absent: runs start by hand only",
      ),
    runnerLabels: z.array(z.string()).describe(RUNNER_LABELS),
  })
  .meta({ id: 'Stack' });
export type Stack = z.infer<typeof stackSchema>;

/** The pipelines every stack has: one for its changes, one to destroy it. */
export const STACK_PIPELINE_KINDS = ['change', 'destroy'] as const;
export type StackPipelineKind = (typeof STACK_PIPELINE_KINDS)[number];

/** The name of a stack's pipeline of `kind`, made from the stack's name (`<name>: destroy`). */
export function stackPipelineName(
  stackName: string,
  kind: StackPipelineKind,
): string {
  return `${stackName}: ${kind}`;
}

/**
 * A stack's name: short enough for its pipelines' names ({@link stackPipelineName}), which
 * have at most 255 characters. A stack named with 255 was created on SQLite and a 500 on
 * PostgreSQL.
 */
const stackNameSchema = nameSchema.max(
  255 -
    Math.max(
      ...STACK_PIPELINE_KINDS.map(kind => stackPipelineName('', kind).length),
    ),
);

export const createStackRequestSchema = requestBody(
  z.object({
    projectId: idSchema,
    environmentId: idSchema,
    name: stackNameSchema,
    givenId: givenIdSchema.optional(),
    description: descriptionSchema.optional(),
    codeSourceId: idSchema.optional(),
    path: repositoryPathSchema.optional().describe(STACK_PATH),
    autoApprove: z.boolean().optional(),
    cloudAccountId: idSchema
      .optional()
      .describe('A cloud account of the same organization'),
    driftCheckIntervalHours: driftCheckIntervalHoursSchema.optional(),
    gitTrigger: stackGitTriggerSchema.optional().describe('Needs codeSourceId'),
    runnerLabels: requiredRunnerLabelsSchema.optional().describe(RUNNER_LABELS),
  }),
);

export const updateStackRequestSchema = requestBody(
  z
    .object({
      name: stackNameSchema.optional(),
      description: descriptionSchema.optional(),
      codeSourceId: idSchema.optional(),
      path: repositoryPathSchema.optional().describe(STACK_PATH),
      autoApprove: z.boolean().optional(),
      cloudAccountId: idSchema
        .nullable()
        .optional()
        .describe(
          'A cloud account of the same organization; null detaches the stack from its account',
        ),
      driftCheckIntervalHours: driftCheckIntervalHoursSchema
        .nullable()
        .optional()
        .describe('Hours between scheduled drift checks; null turns them off'),
      gitTrigger: stackGitTriggerSchema
        .nullable()
        .optional()
        .describe(
          'How pushes and pull requests start runs (the stack needs a code source); null: runs start by hand only',
        ),
      runnerLabels: requiredRunnerLabelsSchema
        .optional()
        .describe(`${RUNNER_LABELS}. \`[]\` lets any runner take them again`),
    })
    .refine(v => Object.values(v).some(value => value !== undefined), {
      message: 'give at least one field to change',
    }),
);

export const destroyStackRequestSchema = z.object({
  data: z
    .object({ description: descriptionSchema.optional() })
    .optional()
    .default({}),
});

export const listStacksQuerySchema = pageQuerySchema.extend({
  projectId: idSchema.optional(),
  environmentId: idSchema.optional(),
  driftStatus: repeatableQuery(driftStatusSchema, 3).optional(),
  id: repeatableQuery(idSchema, 200).optional(),
});
