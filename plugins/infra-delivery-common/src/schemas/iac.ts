import { z } from 'zod';
import { errorBodySchema } from './errors';
import { pageQuerySchema } from './pagination';
import { idSchema, repeatableQuery, timestampSchema } from './primitives';

export const iacRunTypeSchema = z
  .enum(['PLAN', 'APPLY', 'DESTROY'])
  .meta({ id: 'IacRunType' });
export type IacRunType = z.infer<typeof iacRunTypeSchema>;

export const iacChangeKindSchema = z
  .enum([
    'REPLACE',
    'DELETE',
    'CREATE',
    'UPDATE',
    'IMPORT',
    'FORGET',
    'READ',
    'NO_OP',
  ])
  .meta({ id: 'IacChangeKind' });
/** What a resource change does; the enumeration's order is the change-type priority of #14. */
export type IacChangeKind = z.infer<typeof iacChangeKindSchema>;

/**
 * The change kinds that, in a drift check's plan, mean the infrastructure is no longer what the
 * stack's code says (READ and NO_OP do not).
 */
export const DRIFTED_CHANGE_KINDS: readonly IacChangeKind[] = [
  'REPLACE',
  'DELETE',
  'CREATE',
  'UPDATE',
  'IMPORT',
  'FORGET',
];

export const iacResourceSchema = z
  .object({
    address: z.string(),
    createdAt: timestampSchema,
    id: idSchema,
    isInCurrentState: z.boolean(),
    organizationId: idSchema,
    pipelineRunId: idSchema,
    provider: z.string(),
    resourceName: z.string(),
    resourceType: z.string(),
    stackId: idSchema,
    stepExecutionId: idSchema,
    tainted: z.boolean(),
    updatedAt: timestampSchema,
    vendorData: z.object({ before: z.unknown(), after: z.unknown() }),
    error: errorBodySchema.optional(),
    indexKey: z.string().optional(),
    moduleAddress: z.string().optional(),
    mode: z.enum(['managed', 'data']),
    changeKind: iacChangeKindSchema,
    runType: iacRunTypeSchema,
    previousAddress: z.string().optional(),
  })
  .meta({ id: 'IacResource' });
export type IacResource = z.infer<typeof iacResourceSchema>;

export const iacExecutionSummarySchema = z
  .object({
    addCount: z.number().int(),
    changeCount: z.number().int(),
    destroyCount: z.number().int(),
    importCount: z.number().int(),
    readCount: z.number().int(),
    replaceCount: z.number().int(),
    unchangedCount: z.number().int(),
    createdAt: timestampSchema,
    id: idSchema,
    organizationId: idSchema,
    pipelineId: idSchema,
    pipelineRunId: idSchema,
    runType: iacRunTypeSchema,
    stepExecutionId: idSchema,
    updatedAt: timestampSchema,
    applyable: z.boolean(),
    output: z.record(z.string(), z.unknown()).optional(),
    planFilename: z.string().optional(),
    stackId: idSchema,
  })
  .meta({ id: 'IacExecutionSummary' });
export type IacExecutionSummary = z.infer<typeof iacExecutionSummarySchema>;

/** #10: at least one of pipelineId, pipelineRunId, stackId; stepExecutionId narrows. */
export const listIacExecutionSummariesQuerySchema = pageQuerySchema
  .extend({
    pipelineId: idSchema.optional(),
    pipelineRunId: idSchema.optional(),
    stackId: idSchema.optional(),
    stepExecutionId: idSchema.optional(),
  })
  .refine(q => q.pipelineId || q.pipelineRunId || q.stackId, {
    message: 'give at least one of pipelineId, pipelineRunId or stackId',
  });

/** #14: exactly one of pipelineRunId, stackId; stepExecutionId and runType only with a run. */
export const listIacResourcesQuerySchema = pageQuerySchema
  .extend({
    pipelineRunId: idSchema.optional(),
    stackId: idSchema.optional(),
    stepExecutionId: idSchema.optional(),
    runType: iacRunTypeSchema.optional(),
  })
  .refine(q => Boolean(q.pipelineRunId) !== Boolean(q.stackId), {
    message: 'give exactly one of pipelineRunId or stackId',
  })
  .refine(
    q =>
      q.pipelineRunId ||
      (q.stepExecutionId === undefined && q.runType === undefined),
    {
      message: 'stepExecutionId and runType are valid only with pipelineRunId',
      path: ['stepExecutionId'],
    },
  );

/** #24 */
export const stackResourceCountQuerySchema = z.object({
  stackId: repeatableQuery(idSchema, 200),
});

export const stackResourceCountsSchema = z
  .object({
    counts: z.array(z.object({ count: z.number().int(), stackId: idSchema })),
  })
  .meta({ id: 'StackResourceCounts' });
