import { z } from 'zod';

/** The product segment of every error code. */
export const ERROR_CODE_PRODUCT = 'InfraDelivery';

/**
 * Builds an error code of the form `InfraDelivery:<Entity>:<REASON>`.
 *
 * @public
 */
export function errorCode(entity: string, reason: string): string {
  return `${ERROR_CODE_PRODUCT}:${entity}:${reason}`;
}

/** The error of a run whose approval a person rejected: a decision, not a failure to look into. */
export const APPROVAL_REJECTED_ERROR_CODE = errorCode('Approval', 'REJECTED');

export const errorDetailSectionSchema = z
  .object({
    title: z.string(),
    render: z.enum(['list', 'object']),
    items: z.array(z.string()).optional(),
    object: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ErrorDetailSection' });

/**
 * The one error body of the specification (part 7): HTTP 4xx/5xx bodies and the
 * `error` field of runs, deployments and IaC resources.
 */
export const errorBodySchema = z
  .object({
    code: z
      .string()
      .regex(/^[A-Za-z]+:[A-Za-z]+:[A-Z_]+$/)
      .describe('`<Product>:<Entity>:<REASON>`'),
    message: z.string(),
    description: z.string().optional(),
    action: z.object({ label: z.string(), url: z.string() }).optional(),
    details: z.array(errorDetailSectionSchema).optional(),
    isInternal: z.boolean().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    requestId: z.string().optional(),
  })
  .meta({ id: 'ErrorBody' });

export type ErrorBody = z.infer<typeof errorBodySchema>;
