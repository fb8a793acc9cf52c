import {
  createModuleDefinitionRequestSchema,
  createModuleInstanceRequestSchema,
  createModuleVersionRequestSchema,
  dataResponseSchema,
  listModuleDefinitionsQuerySchema,
  listModuleInstancesQuerySchema,
  listResponseSchema,
  moduleDefinitionSchema,
  moduleInstanceSchema,
  moduleVersionSchema,
  pageQuerySchema,
  updateModuleDefinitionRequestSchema,
  updateModuleInstanceRequestSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const createModuleDefinition = defineOperation({
  operationId: 'createModuleDefinition',
  method: 'post',
  path: '/module-definitions',
  summary: 'Define a module kept at a path of a code source',
  tag: 'Modules',
  access: 'authenticated',
  body: createModuleDefinitionRequestSchema,
  success: {
    status: 201,
    schema: dataResponseSchema(moduleDefinitionSchema),
  },
  errors: [400, 403, 404, 409],
});

export const listModuleDefinitions = defineOperation({
  operationId: 'listModuleDefinitions',
  method: 'get',
  path: '/module-definitions',
  summary: 'Module definitions of the organization, newest first',
  tag: 'Modules',
  access: 'authenticated',
  query: listModuleDefinitionsQuerySchema,
  success: {
    status: 200,
    schema: listResponseSchema(moduleDefinitionSchema),
  },
  errors: [400, 403],
});

export const getModuleDefinition = defineOperation({
  operationId: 'getModuleDefinition',
  method: 'get',
  path: '/module-definitions/{id}',
  summary: 'One module definition',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(moduleDefinitionSchema),
  },
  errors: [403, 404],
});

export const updateModuleDefinition = defineOperation({
  operationId: 'updateModuleDefinition',
  method: 'patch',
  path: '/module-definitions/{id}',
  summary: 'Rename or describe a module definition',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  body: updateModuleDefinitionRequestSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(moduleDefinitionSchema),
  },
  errors: [400, 403, 404],
});

export const deleteModuleDefinition = defineOperation({
  operationId: 'deleteModuleDefinition',
  method: 'delete',
  path: '/module-definitions/{id}',
  summary:
    'Delete a module definition and its versions; no instance may use it',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404, 409],
});

export const createModuleVersion = defineOperation({
  operationId: 'createModuleVersion',
  method: 'post',
  path: '/module-definitions/{id}/versions',
  summary:
    "Publish a version: reads the module's `module.yaml` at a branch or tag and keeps its inputs",
  description:
    '`module.yaml` declares `inputs:`, a list of ValueSchemas that may name a default-value definition in `default_from`. A missing or invalid file is a 422 whose details list every problem.',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  body: createModuleVersionRequestSchema,
  success: { status: 201, schema: dataResponseSchema(moduleVersionSchema) },
  errors: [400, 403, 404, 409, 422, 503],
});

export const listModuleVersions = defineOperation({
  operationId: 'listModuleVersions',
  method: 'get',
  path: '/module-definitions/{id}/versions',
  summary: 'Versions of a module definition, newest first',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(moduleVersionSchema) },
  errors: [400, 403, 404],
});

export const getModuleVersion = defineOperation({
  operationId: 'getModuleVersion',
  method: 'get',
  path: '/module-versions/{id}',
  summary: 'One module version with its inputs',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(moduleVersionSchema) },
  errors: [403, 404],
});

export const createModuleInstance = defineOperation({
  operationId: 'createModuleInstance',
  method: 'post',
  path: '/module-instances',
  summary:
    'Deploy a module version into an environment; its values are validated against the inputs',
  description:
    'Missing values take the default of the default-value definition an input names in `default_from`, then the input’s own `default`. Every problem (required, patterns, allowed values, unknown inputs) is listed in the 400’s details.',
  tag: 'Modules',
  access: 'authenticated',
  body: createModuleInstanceRequestSchema,
  success: {
    status: 201,
    schema: dataResponseSchema(moduleInstanceSchema),
  },
  errors: [400, 403, 404, 409],
});

export const listModuleInstances = defineOperation({
  operationId: 'listModuleInstances',
  method: 'get',
  path: '/module-instances',
  summary:
    'Module instances of the organization, newest first, by environment or module',
  tag: 'Modules',
  access: 'authenticated',
  query: listModuleInstancesQuerySchema,
  success: {
    status: 200,
    schema: listResponseSchema(moduleInstanceSchema),
  },
  errors: [400, 403],
});

export const getModuleInstance = defineOperation({
  operationId: 'getModuleInstance',
  method: 'get',
  path: '/module-instances/{id}',
  summary: 'One module instance',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(moduleInstanceSchema),
  },
  errors: [403, 404],
});

export const updateModuleInstance = defineOperation({
  operationId: 'updateModuleInstance',
  method: 'patch',
  path: '/module-instances/{id}',
  summary:
    'Change the values, the version (of the same module) or the name of an instance; immutable inputs keep their values',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  body: updateModuleInstanceRequestSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(moduleInstanceSchema),
  },
  errors: [400, 403, 404, 409],
});

export const deleteModuleInstance = defineOperation({
  operationId: 'deleteModuleInstance',
  method: 'delete',
  path: '/module-instances/{id}',
  summary: 'Delete a module instance',
  tag: 'Modules',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404],
});
