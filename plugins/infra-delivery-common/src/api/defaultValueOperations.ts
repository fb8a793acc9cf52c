import {
  createDefaultValueDefinitionRequestSchema,
  dataResponseSchema,
  defaultValueDefinitionSchema,
  listResponseSchema,
  pageQuerySchema,
  updateDefaultValueDefinitionRequestSchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const createDefaultValueDefinition = defineOperation({
  operationId: 'createDefaultValueDefinition',
  method: 'post',
  path: '/default-value-definitions',
  summary: 'Define a default value (its ValueSchema) for module inputs',
  tag: 'Default values',
  access: 'authenticated',
  body: createDefaultValueDefinitionRequestSchema,
  success: {
    status: 201,
    schema: dataResponseSchema(defaultValueDefinitionSchema),
  },
  errors: [400, 403, 409],
});

export const updateDefaultValueDefinition = defineOperation({
  operationId: 'updateDefaultValueDefinition',
  method: 'patch',
  path: '/default-value-definitions/{id}',
  summary: 'Change the name, description or schema of a default value',
  tag: 'Default values',
  access: 'authenticated',
  params: idParamsSchema,
  body: updateDefaultValueDefinitionRequestSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(defaultValueDefinitionSchema),
  },
  errors: [400, 403, 404],
});

export const listDefaultValueDefinitions = defineOperation({
  operationId: 'listDefaultValueDefinitions',
  method: 'get',
  path: '/default-value-definitions',
  summary: 'Default value definitions of the organization, newest first',
  tag: 'Default values',
  access: 'authenticated',
  query: pageQuerySchema,
  success: {
    status: 200,
    schema: listResponseSchema(defaultValueDefinitionSchema),
  },
  errors: [400, 403],
});

export const deleteDefaultValueDefinition = defineOperation({
  operationId: 'deleteDefaultValueDefinition',
  method: 'delete',
  path: '/default-value-definitions/{id}',
  summary: 'Delete a default value that no module version’s input names',
  description:
    'A definition that an input of a released module version names in `default_from` is still in use: 409 `IN_USE`, naming those modules and versions, so that instances of them keep their default.',
  tag: 'Default values',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404, 409],
});
