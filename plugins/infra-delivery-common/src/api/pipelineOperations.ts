import { z } from 'zod';
import {
  createPipelineRequestSchema,
  createPipelineVersionRequestSchema,
  dataResponseSchema,
  idSchema,
  listPipelineRunsQuerySchema,
  listResponseSchema,
  pageQuerySchema,
  pipelineRunSchema,
  pipelineSchema,
  pipelineVersionSchema,
  runActionRequestSchema,
  stepExecutionSchema,
  stepLogLineSchema,
  triggerRunRequestSchema,
  updatePipelineRequestSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

const STACK_STEPS_RULE =
  'Apply (`iac.apply`) and destroy (`iac.destroy`) steps belong to a stack’s own change and destroy pipelines: a pipeline that is not a stack’s is refused with one (422 `InfraDelivery:Pipeline:CHANGES_OUTSIDE_STACK`). Each step has its own name (400 otherwise). A `container.deploy` step’s `cloudAccountId`, `environmentId` and `moduleInstanceId` must name the organization’s own, as for `POST /deployments` (404 `CloudAccount`, `Environment` or `ModuleInstance` `NOT_FOUND` otherwise).';

export const createPipeline = defineOperation({
  operationId: 'createPipeline',
  method: 'post',
  path: '/pipelines',
  summary: 'Create a pipeline with its first version of steps',
  description: STACK_STEPS_RULE,
  tag: 'Pipelines',
  access: 'authenticated',
  body: createPipelineRequestSchema,
  success: { status: 201, schema: dataResponseSchema(pipelineSchema) },
  errors: [400, 403, 404, 409, 422],
});

export const listPipelines = defineOperation({
  operationId: 'listPipelines',
  method: 'get',
  path: '/pipelines',
  summary: 'Pipelines of the organization, newest first',
  tag: 'Pipelines',
  access: 'authenticated',
  query: pageQuerySchema.extend({ projectId: idSchema.optional() }),
  success: { status: 200, schema: listResponseSchema(pipelineSchema) },
  errors: [400, 403],
});

export const getPipeline = defineOperation({
  operationId: 'getPipeline',
  method: 'get',
  path: '/pipelines/{id}',
  summary: 'One pipeline with its latest run',
  tag: 'Pipelines',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(pipelineSchema) },
  errors: [403, 404],
});

export const updatePipeline = defineOperation({
  operationId: 'updatePipeline',
  method: 'patch',
  path: '/pipelines/{id}',
  summary: 'Rename or describe a pipeline',
  tag: 'Pipelines',
  access: 'authenticated',
  params: idParamsSchema,
  body: updatePipelineRequestSchema,
  success: { status: 200, schema: dataResponseSchema(pipelineSchema) },
  errors: [400, 403, 404],
});

export const createPipelineVersion = defineOperation({
  operationId: 'createPipelineVersion',
  method: 'post',
  path: '/pipelines/{id}/versions',
  summary:
    'Publish a new immutable version of the steps; later runs use it, running ones keep theirs',
  description: `The steps of a stack’s own pipelines are fixed by the stack (409 \`InfraDelivery:Pipeline:MANAGED_BY_STACK\`). ${STACK_STEPS_RULE}`,
  tag: 'Pipelines',
  access: 'authenticated',
  params: idParamsSchema,
  body: createPipelineVersionRequestSchema,
  success: { status: 201, schema: dataResponseSchema(pipelineVersionSchema) },
  errors: [400, 403, 404, 409, 422],
});

export const listPipelineVersions = defineOperation({
  operationId: 'listPipelineVersions',
  method: 'get',
  path: '/pipelines/{id}/versions',
  summary: 'Versions of a pipeline, newest first',
  tag: 'Pipelines',
  access: 'authenticated',
  params: idParamsSchema,
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(pipelineVersionSchema) },
  errors: [400, 403, 404],
});

export const triggerPipelineRun = defineOperation({
  operationId: 'triggerPipelineRun',
  method: 'post',
  path: '/pipelines/{id}/runs',
  summary:
    "Trigger a run of the pipeline's latest version; it queues until its stack is free",
  description:
    'Runs of a stack’s own pipelines attach to that stack; runs of another pipeline attach to the stack given as `attachedEntityId`, which must be in the pipeline’s project (400 `InfraDelivery:PipelineRun:ATTACHMENT_MISMATCH`), or to none: a plan step then plans the runner’s source root and keeps no state. A pipeline that is not a stack’s and still has an apply or destroy step from before that was refused is not run (422 `InfraDelivery:Pipeline:CHANGES_OUTSIDE_STACK`).',
  tag: 'Pipeline runs',
  access: 'authenticated',
  params: idParamsSchema,
  body: triggerRunRequestSchema,
  success: { status: 201, schema: dataResponseSchema(pipelineRunSchema) },
  errors: [400, 403, 404, 422],
  idempotent: true,
});

export const listPipelineRuns = defineOperation({
  operationId: 'listPipelineRuns',
  method: 'get',
  path: '/pipeline-runs',
  summary:
    'Pipeline runs, newest first, filtered as the specification’s part 4.3 lists',
  description:
    'Array filters repeat the parameter (`?status=QUEUED&status=RUNNING`). `latestPerPipeline` (1..50) keeps the newest N runs of each given pipeline, `latestPerEntity` (1..50) the newest N of each attached entity. Ids that do not exist or are not accessible are omitted.',
  tag: 'Pipeline runs',
  access: 'authenticated',
  query: listPipelineRunsQuerySchema,
  success: { status: 200, schema: listResponseSchema(pipelineRunSchema) },
  errors: [400, 403],
});

export const getPipelineRun = defineOperation({
  operationId: 'getPipelineRun',
  method: 'get',
  path: '/pipeline-runs/{id}',
  summary: 'One pipeline run with its status and queue state',
  tag: 'Pipeline runs',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(pipelineRunSchema) },
  errors: [403, 404],
});

const runAction = (operationId: string, action: string, summary: string) =>
  defineOperation({
    operationId,
    method: 'post',
    path: `/pipeline-runs/{id}/${action}`,
    summary,
    tag: 'Pipeline runs',
    access: 'authenticated',
    params: idParamsSchema,
    body: runActionRequestSchema,
    success: { status: 200, schema: dataResponseSchema(pipelineRunSchema) },
    errors: [400, 403, 404, 409],
  });

export const approvePipelineRun = runAction(
  'approvePipelineRun',
  'approve',
  'Approve the run’s waiting approval step',
);
export const rejectPipelineRun = runAction(
  'rejectPipelineRun',
  'reject',
  'Reject the run’s waiting approval step; the run fails',
);
export const cancelPipelineRun = runAction(
  'cancelPipelineRun',
  'cancel',
  'Cancel a queued, running or waiting run',
);
export const retryPipelineRun = runAction(
  'retryPipelineRun',
  'retry',
  'Run a failed or cancelled run again from its failed step, as a new attempt',
);

export const listStepExecutions = defineOperation({
  operationId: 'listStepExecutions',
  method: 'get',
  path: '/pipeline-runs/{id}/step-executions',
  summary: 'The step executions of a run, in order',
  tag: 'Pipeline runs',
  access: 'authenticated',
  params: idParamsSchema,
  success: {
    status: 200,
    schema: z.object({ data: z.array(stepExecutionSchema) }),
  },
  errors: [403, 404],
});

export const listStepExecutionLogs = defineOperation({
  operationId: 'listStepExecutionLogs',
  method: 'get',
  path: '/pipeline-step-executions/{id}/logs',
  summary: 'Log lines of a step execution, oldest first',
  tag: 'Pipeline runs',
  access: 'authenticated',
  params: idParamsSchema,
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(stepLogLineSchema) },
  errors: [400, 403, 404],
});
