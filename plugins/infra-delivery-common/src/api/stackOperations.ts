import {
  createStackRequestSchema,
  dataResponseSchema,
  destroyStackRequestSchema,
  pipelineRunSchema,
  updateStackRequestSchema,
  listResponseSchema,
  listStacksQuerySchema,
  stackSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const createStack = defineOperation({
  operationId: 'createStack',
  method: 'post',
  path: '/stacks',
  summary:
    'Create an IaC stack with its change pipeline (plan → approval → apply) and destroy pipeline',
  tag: 'Stacks',
  access: 'authenticated',
  body: createStackRequestSchema,
  success: { status: 201, schema: dataResponseSchema(stackSchema) },
  errors: [400, 403, 404, 409, 422],
});

export const listStacks = defineOperation({
  operationId: 'listStacks',
  method: 'get',
  path: '/stacks',
  summary: 'Stacks of the organization, newest first',
  description:
    'Array filters repeat the parameter (`?driftStatus=DRIFTED&driftStatus=UNKNOWN`). `id` (up to 200) lists those stacks only, in one request: ids that do not exist or are not accessible are omitted.',
  tag: 'Stacks',
  access: 'authenticated',
  query: listStacksQuerySchema,
  success: { status: 200, schema: listResponseSchema(stackSchema) },
  errors: [400, 403],
});

export const getStack = defineOperation({
  operationId: 'getStack',
  method: 'get',
  path: '/stacks/{id}',
  summary: 'One stack',
  tag: 'Stacks',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(stackSchema) },
  errors: [403, 404],
});

export const deleteStack = defineOperation({
  operationId: 'deleteStack',
  method: 'delete',
  path: '/stacks/{id}',
  summary:
    'Delete a stack with its pipelines and their history; its state must be empty (destroy it first) and no run may be active',
  tag: 'Stacks',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404, 409],
});

export const updateStack = defineOperation({
  operationId: 'updateStack',
  method: 'patch',
  path: '/stacks/{id}',
  summary:
    'Change a stack; changing autoApprove publishes new versions of its pipelines for later runs',
  tag: 'Stacks',
  access: 'authenticated',
  params: idParamsSchema,
  body: updateStackRequestSchema,
  success: { status: 200, schema: dataResponseSchema(stackSchema) },
  errors: [400, 403, 404, 422],
});

export const destroyStack = defineOperation({
  operationId: 'destroyStack',
  method: 'post',
  path: '/stacks/{id}/destroy',
  summary:
    "Trigger the stack's destroy pipeline (destroy plan, approval, destroy); the run queues like any other",
  tag: 'Stacks',
  access: 'authenticated',
  params: idParamsSchema,
  body: destroyStackRequestSchema,
  success: { status: 201, schema: dataResponseSchema(pipelineRunSchema) },
  errors: [400, 403, 404],
});
