import { z } from 'zod';
import { healthSchema } from '../schemas';
import { defineOperation } from './defineOperation';

export const getHealth = defineOperation({
  operationId: 'getHealth',
  method: 'get',
  path: '/health',
  summary: 'Liveness of the service',
  tag: 'Service',
  access: 'public',
  success: { status: 200, schema: healthSchema },
  errors: [],
});

export const getOpenApiDocument = defineOperation({
  operationId: 'getOpenApiDocument',
  method: 'get',
  path: '/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  tag: 'Service',
  access: 'public',
  success: { status: 200, schema: z.record(z.string(), z.unknown()) },
  errors: [],
});
