import {
  codeSourceSchema,
  createCodeSourceRequestSchema,
  dataResponseSchema,
  listResponseSchema,
  moduleYamlExistsQuerySchema,
  moduleYamlExistsSchema,
  pageQuerySchema,
} from '../schemas';
import { defineOperation } from './defineOperation';
import { idParamsSchema } from './params';

export const createCodeSource = defineOperation({
  operationId: 'createCodeSource',
  method: 'post',
  path: '/code-sources',
  summary:
    'Connect a repository through a GitHub App installation; its id, default branch and visibility are read from the forge',
  description:
    'The repository host must be configured in `integrations.github` with an App. An installation the App cannot use (removed, suspended, unknown) or a repository it does not reach is a 422.',
  tag: 'Code sources',
  access: 'authenticated',
  body: createCodeSourceRequestSchema,
  success: { status: 201, schema: dataResponseSchema(codeSourceSchema) },
  errors: [400, 403, 409, 422, 503],
});

export const listCodeSources = defineOperation({
  operationId: 'listCodeSources',
  method: 'get',
  path: '/code-sources',
  summary: 'Code sources of the organization, newest first',
  tag: 'Code sources',
  access: 'authenticated',
  query: pageQuerySchema,
  success: { status: 200, schema: listResponseSchema(codeSourceSchema) },
  errors: [400, 403],
});

export const getCodeSource = defineOperation({
  operationId: 'getCodeSource',
  method: 'get',
  path: '/code-sources/{id}',
  summary: 'One code source',
  tag: 'Code sources',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(codeSourceSchema) },
  errors: [403, 404],
});

export const verifyCodeSource = defineOperation({
  operationId: 'verifyCodeSource',
  method: 'post',
  path: '/code-sources/{id}/verify',
  summary:
    'Check that the installation still reaches the repository; sets `accessLost` and refreshes the default branch and visibility',
  tag: 'Code sources',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 200, schema: dataResponseSchema(codeSourceSchema) },
  errors: [403, 404, 503],
});

export const deleteCodeSource = defineOperation({
  operationId: 'deleteCodeSource',
  method: 'delete',
  path: '/code-sources/{id}',
  summary: 'Disconnect a code source that no module definition or stack uses',
  tag: 'Code sources',
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404, 409],
});

export const getModuleYamlExists = defineOperation({
  operationId: 'getModuleYamlExists',
  method: 'get',
  path: '/code-source/{id}/module-yaml-exists',
  summary: 'Whether `module.yaml` exists at a base path on a branch (#26)',
  description:
    'A missing branch, like a missing file, is `exists: false`; a repository or installation out of reach is a 422 ErrorBody.',
  tag: 'Code sources',
  access: 'authenticated',
  params: idParamsSchema,
  query: moduleYamlExistsQuerySchema,
  success: {
    status: 200,
    schema: dataResponseSchema(moduleYamlExistsSchema),
  },
  errors: [400, 403, 404, 422, 503],
});
