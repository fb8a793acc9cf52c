import { z } from 'zod';
import {
  createNamedResourceRequestSchema,
  dataResponseSchema,
  environmentSchema,
  idSchema,
  listResponseSchema,
  pageQuerySchema,
  projectSchema,
  updateNamedResourceRequestSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

const projectParamsSchema = z.object({ projectId: idSchema });
const environmentParamsSchema = z.object({
  projectId: idSchema,
  id: idSchema,
});

export const createProject = defineOperation({
  operationId: 'createProject',
  method: 'post',
  path: '/projects',
  summary: 'Create a project',
  tag: 'Projects',
  access: 'authenticated',
  body: createNamedResourceRequestSchema,
  success: { status: 201, schema: dataResponseSchema(projectSchema) },
  errors: [400, 403, 409],
});

export const listProjects = defineOperation({
  operationId: 'listProjects',
  method: 'get',
  path: '/projects',
  summary: 'Projects of the organization, newest first',
  tag: 'Projects',
  access: 'authenticated',
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(projectSchema) },
  errors: [400, 403],
});

export const getProject = defineOperation({
  operationId: 'getProject',
  method: 'get',
  path: '/projects/{id}',
  summary: 'One project',
  tag: 'Projects',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(projectSchema) },
  errors: [403, 404],
});

export const updateProject = defineOperation({
  operationId: 'updateProject',
  method: 'patch',
  path: '/projects/{id}',
  summary: 'Rename or describe a project',
  tag: 'Projects',
  access: 'authenticated',
  params: idParamsSchema,
  body: updateNamedResourceRequestSchema,
  success: { status: 200, schema: dataResponseSchema(projectSchema) },
  errors: [400, 403, 404],
});

export const deleteProject = defineOperation({
  operationId: 'deleteProject',
  method: 'delete',
  path: '/projects/{id}',
  summary: 'Delete a project that has no environments left',
  tag: 'Projects',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404, 409],
});

export const createEnvironment = defineOperation({
  operationId: 'createEnvironment',
  method: 'post',
  path: '/projects/{projectId}/environments',
  summary: 'Create an environment in a project',
  tag: 'Environments',
  access: 'authenticated',
  params: projectParamsSchema,
  body: createNamedResourceRequestSchema,
  success: { status: 201, schema: dataResponseSchema(environmentSchema) },
  errors: [400, 403, 404, 409],
});

export const listEnvironments = defineOperation({
  operationId: 'listEnvironments',
  method: 'get',
  path: '/projects/{projectId}/environments',
  summary: 'Environments of a project, newest first',
  tag: 'Environments',
  access: 'authenticated',
  params: projectParamsSchema,
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(environmentSchema) },
  errors: [400, 403, 404],
});

export const getEnvironment = defineOperation({
  operationId: 'getEnvironment',
  method: 'get',
  path: '/projects/{projectId}/environments/{id}',
  summary: 'One environment',
  tag: 'Environments',
  access: 'authenticated',
  params: environmentParamsSchema,
  success: { status: 200, schema: dataResponseSchema(environmentSchema) },
  errors: [403, 404],
});

export const updateEnvironment = defineOperation({
  operationId: 'updateEnvironment',
  method: 'patch',
  path: '/projects/{projectId}/environments/{id}',
  summary: 'Rename or describe an environment',
  tag: 'Environments',
  access: 'authenticated',
  params: environmentParamsSchema,
  body: updateNamedResourceRequestSchema,
  success: { status: 200, schema: dataResponseSchema(environmentSchema) },
  errors: [400, 403, 404],
});

export const deleteEnvironment = defineOperation({
  operationId: 'deleteEnvironment',
  method: 'delete',
  path: '/projects/{projectId}/environments/{id}',
  summary: 'Delete an environment',
  tag: 'Environments',
  access: 'authenticated',
  params: environmentParamsSchema,
  success: { status: 204 },
  errors: [403, 404, 409],
});
