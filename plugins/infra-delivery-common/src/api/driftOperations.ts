import {
  dataResponseSchema,
  pipelineRunSchema,
  reconcileStackRequestSchema,
  startDriftCheckRequestSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const startStackDriftCheck = defineOperation({
  operationId: 'startStackDriftCheck',
  method: 'post',
  path: '/stacks/{id}/drift-checks',
  summary:
    "Check the stack for drift now: a plan-only run of its change pipeline (kind DRIFT_CHECK) whose plan sets the stack's drift status; refused while another run of the stack is active or queued, or when the stack holds no resources",
  tag: 'Stacks',
  access: 'authenticated',
  params: idParamsSchema,
  body: startDriftCheckRequestSchema,
  success: { status: 201, schema: dataResponseSchema(pipelineRunSchema) },
  errors: [400, 403, 404, 409],
});

export const reconcileStackDrift = defineOperation({
  operationId: 'reconcileStackDrift',
  method: 'post',
  path: '/stacks/{id}/reconcile',
  summary:
    'Bring a drifted stack back to its code: a run of its change pipeline (plan, approval, apply) with triggerSource DRIFT_RECONCILE, naming the drift check that found the drift',
  tag: 'Stacks',
  access: 'authenticated',
  params: idParamsSchema,
  body: reconcileStackRequestSchema,
  success: { status: 201, schema: dataResponseSchema(pipelineRunSchema) },
  errors: [400, 403, 404, 409],
});
