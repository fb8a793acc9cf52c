import { z } from 'zod';
import {
  descriptionSchema,
  givenIdSchema,
  idSchema,
  nameSchema,
  requestBody,
  timestampSchema,
} from './primitives';
import { pageQuerySchema } from './pagination';

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
    serviceStateBackendWorkspace: z.string().optional(),
    cloudAccountId: idSchema
      .optional()
      .describe(
        'The cloud account the stack deploys into (an addition to the specification); the catalog shows it as a dependency of the stack',
      ),
  })
  .meta({ id: 'Stack' });
export type Stack = z.infer<typeof stackSchema>;

export const createStackRequestSchema = requestBody(
  z.object({
    projectId: idSchema,
    environmentId: idSchema,
    name: nameSchema,
    givenId: givenIdSchema.optional(),
    description: descriptionSchema.optional(),
    codeSourceId: idSchema.optional(),
    path: z.string().max(1024).optional(),
    autoApprove: z.boolean().optional(),
    cloudAccountId: idSchema
      .optional()
      .describe('A cloud account of the same organization'),
  }),
);

export const updateStackRequestSchema = requestBody(
  z
    .object({
      name: nameSchema.optional(),
      description: descriptionSchema.optional(),
      codeSourceId: idSchema.optional(),
      path: z.string().max(1024).optional(),
      autoApprove: z.boolean().optional(),
      cloudAccountId: idSchema
        .nullable()
        .optional()
        .describe(
          'A cloud account of the same organization; null detaches the stack from its account',
        ),
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
});
