import { z } from 'zod';
import { errorBodySchema } from './errors';
import { pipelineRunSchema, stepExecutionSchema } from './pipelines';
import { idSchema, requestBody, timestampSchema } from './primitives';
import { stackSchema } from './stacks';

const leaseTokenSchema = z.string().min(16).max(128);

export const claimRequestSchema = requestBody(
  z.object({
    runnerId: z.string().min(1).max(128),
    labels: z.array(z.string().max(64)).max(32).optional(),
  }),
);

export const claimSchema = z
  .object({
    leaseToken: z.string(),
    leaseExpiresAt: timestampSchema,
    stepExecution: stepExecutionSchema,
    pipelineRun: pipelineRunSchema,
    stack: stackSchema.nullable(),
  })
  .meta({ id: 'RunnerClaim' });
export type RunnerClaim = z.infer<typeof claimSchema>;

export const heartbeatRequestSchema = requestBody(
  z.object({ leaseToken: leaseTokenSchema }),
);

export const heartbeatSchema = z
  .object({ leaseExpiresAt: timestampSchema, cancelRequested: z.boolean() })
  .meta({ id: 'RunnerHeartbeat' });

export const appendLogsRequestSchema = requestBody(
  z.object({
    leaseToken: leaseTokenSchema,
    lines: z
      .array(
        z.object({
          timestamp: timestampSchema.optional(),
          text: z.string().max(16_384),
        }),
      )
      .min(1)
      .max(1000),
  }),
);

export const completeStepRequestSchema = requestBody(
  z.object({
    leaseToken: leaseTokenSchema,
    status: z.enum(['SUCCEEDED', 'FAILED']),
    /** `terraform show -json` / `tofu show -json` of the plan (plan) or of the applied plan. */
    planJson: z.record(z.string(), z.unknown()).optional(),
    /** Root module outputs after an apply. */
    outputs: z.record(z.string(), z.unknown()).optional(),
    error: errorBodySchema.optional(),
  }),
);

export const stepExecutionIdParamsSchema = z.object({ id: idSchema });
