import {
  appendLogsAnswerSchema,
  appendLogsRequestSchema,
  claimRequestSchema,
  claimSchema,
  completeStepRequestSchema,
  dataResponseSchema,
  heartbeatRequestSchema,
  heartbeatSchema,
  listResponseSchema,
  listRunnersQuerySchema,
  runnerSchema,
  signOffRunnerRequestSchema,
  stepExecutionSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const claimStepExecution = defineOperation({
  operationId: 'claimStepExecution',
  method: 'post',
  path: '/runner/claims',
  summary:
    'Claim the oldest step waiting for a runner, with a lease; 204 when nothing is claimable (after holding the request up to `waitSeconds` for a step to be queued)',
  tag: 'Runner protocol',
  access: 'authenticated',
  body: claimRequestSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(claimSchema),
    emptyStatus: 204,
  },
  errors: [400, 403],
});

export const signOffRunner = defineOperation({
  operationId: 'signOffRunner',
  method: 'post',
  path: '/runner/sign-offs',
  summary:
    'Say that a runner stops: it reads OFFLINE at once, where it would read ONLINE until the online window passed',
  tag: 'Runner protocol',
  access: 'authenticated',
  body: signOffRunnerRequestSchema,
  success: { status: 204 },
  errors: [400, 403],
});

export const heartbeatStepExecution = defineOperation({
  operationId: 'heartbeatStepExecution',
  method: 'post',
  path: '/runner/step-executions/{id}/heartbeat',
  summary: 'Extend the lease; tells whether the run was cancelled',
  tag: 'Runner protocol',
  access: 'authenticated',
  params: idParamsSchema,
  body: heartbeatRequestSchema,
  success: { status: 200, schema: dataResponseSchema(heartbeatSchema) },
  errors: [400, 403, 404, 409],
});

export const appendStepExecutionLogs = defineOperation({
  operationId: 'appendStepExecutionLogs',
  method: 'post',
  path: '/runner/step-executions/{id}/logs',
  summary:
    'Append log lines to the claimed step (204). Once its run is cancelled, the lines its command prints while it stops are still kept for a short while (until the runner reports the step, or `acceptLogsUntil`), answered 200 with `cancelRequested`; after that 409',
  tag: 'Runner protocol',
  access: 'authenticated',
  params: idParamsSchema,
  body: appendLogsRequestSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(appendLogsAnswerSchema),
    emptyStatus: 204,
  },
  errors: [400, 403, 404, 409],
});

export const completeStepExecution = defineOperation({
  operationId: 'completeStepExecution',
  method: 'post',
  path: '/runner/step-executions/{id}/complete',
  summary:
    'Report the result of the claimed step, with the plan JSON and outputs. For a step cancelled under the lease, within the time its logs are kept, the report says that the command has stopped: the step stays CANCELLED and is answered as it is',
  tag: 'Runner protocol',
  access: 'authenticated',
  params: idParamsSchema,
  body: completeStepRequestSchema,
  success: { status: 200, schema: dataResponseSchema(stepExecutionSchema) },
  errors: [400, 403, 404, 409, 413],
});

export const listRunners = defineOperation({
  operationId: 'listRunners',
  method: 'get',
  path: '/runners',
  summary:
    'Runners of the organization as last seen, newest first; ONLINE when seen within `infraDelivery.runners.onlineSeconds`',
  tag: 'Runner protocol',
  access: 'authenticated',
  query: listRunnersQuerySchema,
  success: { status: 200, schema: listResponseSchema(runnerSchema) },
  errors: [400, 403],
});
