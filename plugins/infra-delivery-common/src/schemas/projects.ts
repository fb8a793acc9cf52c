import { z } from 'zod';
import {
  descriptionSchema,
  givenIdSchema,
  idSchema,
  nameSchema,
  requestBody,
  timestampSchema,
} from './primitives';

export const projectSchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    givenId: z.string(),
    name: z.string(),
    description: z.string().optional(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof projectSchema>;

export const environmentSchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    projectId: idSchema,
    givenId: z.string(),
    name: z.string(),
    description: z.string().optional(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Environment' });
export type Environment = z.infer<typeof environmentSchema>;

/** Creating a project or an environment: the same three fields. */
export const createNamedResourceRequestSchema = requestBody(
  z.object({
    givenId: givenIdSchema,
    name: nameSchema,
    description: descriptionSchema.optional(),
  }),
);

export const updateNamedResourceRequestSchema = requestBody(
  z
    .object({
      name: nameSchema.optional(),
      description: descriptionSchema.optional(),
    })
    .refine(v => v.name !== undefined || v.description !== undefined, {
      message: 'name or description is required',
    }),
);
