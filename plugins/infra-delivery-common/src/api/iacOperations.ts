import {
  dataResponseSchema,
  iacExecutionSummarySchema,
  iacResourceSchema,
  listIacExecutionSummariesQuerySchema,
  listIacResourcesQuerySchema,
  listResponseSchema,
  pageQuerySchema,
  stackResourceCountQuerySchema,
  stackResourceCountsSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const listIacExecutionSummaries = defineOperation({
  operationId: 'listIacExecutionSummaries',
  method: 'get',
  path: '/iac-execution-summaries',
  summary:
    'Plan and apply summaries, newest first; only runs that reached IaC report generation have them',
  tag: 'IaC results',
  access: 'authenticated',
  query: listIacExecutionSummariesQuerySchema,
  success: {
    status: 200,
    schema: listResponseSchema(iacExecutionSummarySchema),
  },
  errors: [400, 403],
});

export const listIacResources = defineOperation({
  operationId: 'listIacResources',
  method: 'get',
  path: '/iac-resources',
  summary:
    "A run's resources by change-type priority, or a stack's current state",
  tag: 'IaC results',
  access: 'authenticated',
  query: listIacResourcesQuerySchema,
  success: { status: 200, schema: listResponseSchema(iacResourceSchema) },
  errors: [400, 403, 404],
});

export const listStepExecutionIacResources = defineOperation({
  operationId: 'listStepExecutionIacResources',
  method: 'get',
  path: '/pipeline-step-executions/{id}/iac-resources',
  summary:
    'The resources one step execution reported (planned for a plan step, applied for an apply)',
  tag: 'IaC results',
  access: 'authenticated',
  params: idParamsSchema,
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(iacResourceSchema) },
  errors: [400, 403, 404],
});

export const countStackResources = defineOperation({
  operationId: 'countStackResources',
  method: 'get',
  path: '/stacks/resource-count',
  summary:
    'Resources currently in each stack’s state (at most 200 stacks); stacks with none are omitted',
  tag: 'Stacks',
  access: 'authenticated',
  query: stackResourceCountQuerySchema,
  success: {
    status: 200,
    schema: dataResponseSchema(stackResourceCountsSchema),
  },
  errors: [400, 403],
});
