import { z } from 'zod';
import { gitRefSchema, repositoryPathSchema } from './codeSources';
import { valueSchemaSchema } from './defaultValues';
import { pageQuerySchema } from './pagination';
import {
  descriptionSchema,
  givenIdSchema,
  idSchema,
  nameSchema,
  requestBody,
  timestampSchema,
} from './primitives';

/**
 * One input of a module, as `module.yaml` declares it under `inputs:`: a ValueSchema that may
 * take its default from a default-value definition of the organization.
 */
export const moduleInputSchema = valueSchemaSchema
  .extend({
    default_from: givenIdSchema
      .optional()
      .describe(
        '`givenId` of a default-value definition whose `schema.default` fills the value when none is given',
      ),
  })
  .meta({ id: 'ModuleInput' });
export type ModuleInput = z.infer<typeof moduleInputSchema>;

/** A module's values: input id → value. */
export const moduleValuesSchema = z
  .record(z.string().min(1).max(128), z.string().max(10_000))
  .refine(values => Object.keys(values).length <= 500, 'at most 500 values')
  .meta({ id: 'ModuleValues' });
export type ModuleValues = z.infer<typeof moduleValuesSchema>;

/** A module kept in a code source: the directory that holds its `module.yaml`. */
export const moduleDefinitionSchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    givenId: z.string(),
    name: z.string(),
    description: z.string().optional(),
    codeSourceId: idSchema,
    path: z
      .string()
      .describe(
        'Directory of the module in the code source; empty for the root',
      ),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'ModuleDefinition' });
export type ModuleDefinition = z.infer<typeof moduleDefinitionSchema>;

/** A release of a module: its `module.yaml` read at a ref, pinned to that ref's commit. */
export const moduleVersionSchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    moduleDefinitionId: idSchema,
    version: z.string(),
    ref: z.string().describe('The branch or tag the version was read from'),
    commitSha: z.string().describe('The commit the ref pointed to then'),
    inputs: z.array(moduleInputSchema),
    createdAt: timestampSchema,
  })
  .meta({ id: 'ModuleVersion' });
export type ModuleVersion = z.infer<typeof moduleVersionSchema>;

/** A module version deployed into an environment with its values. */
export const moduleInstanceSchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    projectId: idSchema,
    environmentId: idSchema,
    moduleDefinitionId: idSchema,
    moduleVersionId: idSchema,
    name: z.string(),
    values: moduleValuesSchema.describe(
      'Every input that has a value: the given ones and the defaults applied',
    ),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'ModuleInstance' });
export type ModuleInstance = z.infer<typeof moduleInstanceSchema>;

export const createModuleDefinitionRequestSchema = requestBody(
  z.object({
    givenId: givenIdSchema,
    name: nameSchema,
    description: descriptionSchema.optional(),
    codeSourceId: idSchema,
    path: repositoryPathSchema.describe(
      'Directory of `module.yaml` in the code source; empty for the root',
    ),
  }),
);

export const updateModuleDefinitionRequestSchema = requestBody(
  z
    .object({
      name: nameSchema.optional(),
      description: descriptionSchema.optional(),
    })
    .refine(v => v.name !== undefined || v.description !== undefined, {
      message: 'name or description is required',
    }),
);

export const listModuleDefinitionsQuerySchema = pageQuerySchema.extend({
  codeSourceId: idSchema.optional(),
});

/** `1.2.3`, `v1.2.3`, `1.2.3-rc.1`, `1.2.3+build.5`. */
export const moduleVersionNameSchema = z
  .string()
  .max(64)
  .regex(
    /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/,
    'a semantic version such as 1.2.3 or v1.2.3-rc.1',
  );

export const createModuleVersionRequestSchema = requestBody(
  z.object({
    version: moduleVersionNameSchema,
    ref: gitRefSchema.describe('Branch or tag to read `module.yaml` at'),
  }),
);

export const createModuleInstanceRequestSchema = requestBody(
  z.object({
    moduleVersionId: idSchema,
    environmentId: idSchema,
    name: nameSchema,
    values: moduleValuesSchema.optional(),
  }),
);

/** `values` merge into the current ones; `null` removes a value. */
export const updateModuleInstanceRequestSchema = requestBody(
  z
    .object({
      moduleVersionId: idSchema.optional(),
      name: nameSchema.optional(),
      values: z
        .record(z.string().min(1).max(128), z.string().max(10_000).nullable())
        .refine(
          values => Object.keys(values).length <= 500,
          'at most 500 values',
        )
        .optional()
        .describe(
          'Merged into the current values; `null` removes a value (its default applies again)',
        ),
    })
    .refine(
      v =>
        v.moduleVersionId !== undefined ||
        v.name !== undefined ||
        v.values !== undefined,
      { message: 'moduleVersionId, name or values is required' },
    ),
);

export const listModuleInstancesQuerySchema = pageQuerySchema.extend({
  environmentId: idSchema.optional(),
  moduleDefinitionId: idSchema.optional(),
  moduleVersionId: idSchema.optional(),
});
