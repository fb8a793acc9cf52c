import { z } from 'zod';
import { valueProblems } from '../moduleValueProblems';
import {
  descriptionSchema,
  givenIdSchema,
  idSchema,
  nameSchema,
  requestBody,
  timestampSchema,
} from './primitives';

function compiles(pattern: string): boolean {
  try {
    // eslint-disable-next-line no-new
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

export const valuePatternSchema = z
  .object({
    message: z.string().min(1).max(500),
    pattern: z
      .string()
      .min(1)
      .max(1000)
      .refine(compiles, 'is not a valid regular expression'),
  })
  .meta({ id: 'ValuePattern' });

/** A condition on other values; its structure is not fixed by the specification. */
const showWhenSchema = z.record(z.string(), z.unknown());

export const valueOptionSchema = z
  .object({
    value: z.string(),
    description: z.string().optional(),
    group_label: z.string().optional(),
    label: z.string().optional(),
    show_when: showWhenSchema.optional(),
  })
  .meta({ id: 'ValueOption' });

export const valueSchemaSchema = z
  .object({
    id: z.string().min(1).max(128),
    label: z.string().min(1).max(255),
    type: z.string().min(1).max(64),
    collapsible: z.boolean().optional(),
    default: z.string().optional(),
    description: z.string().optional(),
    immutable: z.boolean().optional(),
    min_current_value: z.boolean().optional(),
    moved_from: z.array(z.string()).optional(),
    no_options_message: z.string().optional(),
    patterns: z.array(valuePatternSchema).max(50).optional(),
    placeholder: z.string().optional(),
    required: z.boolean().optional(),
    show_when: showWhenSchema.optional(),
    values: z.array(valueOptionSchema).max(1000).optional(),
  })
  .meta({ id: 'ValueSchema' });
export type ValueSchema = z.infer<typeof valueSchemaSchema>;

export const defaultValueDefinitionSchema = z
  .object({
    createdAt: timestampSchema,
    createdByType: z.enum(['USER', 'SERVICE_ACCOUNT']),
    givenId: z.string(),
    id: idSchema,
    name: z.string(),
    organizationId: idSchema,
    schema: valueSchemaSchema,
    updatedAt: timestampSchema,
    description: z.string().optional(),
  })
  .meta({ id: 'DefaultValueDefinition' });
export type DefaultValueDefinition = z.infer<
  typeof defaultValueDefinitionSchema
>;

/**
 * A definition's own default must be a value its schema allows: one of its `values`, matching
 * its `patterns`. Otherwise every instance that takes it is refused for a value nobody typed,
 * and the portal offers a default its own list does not hold.
 */
function refuseDisallowedDefault(
  data: { schema?: ValueSchema },
  ctx: z.RefinementCtx,
) {
  const schema = data.schema;
  if (
    schema?.default === undefined ||
    !(schema.patterns ?? []).every(p => compiles(p.pattern))
  ) {
    return;
  }
  for (const problem of valueProblems(schema, schema.default)) {
    ctx.addIssue({
      code: 'custom',
      path: ['schema', 'default'],
      message: problem,
    });
  }
}

export const createDefaultValueDefinitionRequestSchema = requestBody(
  z
    .object({
      givenId: givenIdSchema,
      name: nameSchema,
      schema: valueSchemaSchema,
      description: descriptionSchema.optional(),
    })
    .superRefine(refuseDisallowedDefault),
);

export const updateDefaultValueDefinitionRequestSchema = requestBody(
  z
    .object({
      name: nameSchema.optional(),
      schema: valueSchemaSchema.optional(),
      description: descriptionSchema.optional(),
    })
    .refine(
      v =>
        v.name !== undefined ||
        v.schema !== undefined ||
        v.description !== undefined,
      { message: 'name, schema or description is required' },
    )
    .superRefine(refuseDisallowedDefault),
);
