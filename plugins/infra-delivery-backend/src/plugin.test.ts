import {
  mockServices,
  startTestBackend,
  TestDatabases,
} from '@backstage/backend-test-utils';
import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { infraDeliveryPlugin } from './plugin';

/** Closed after the tests: the test backend's default database never is, and kept Jest's worker alive. */
const databases = TestDatabases.create({ ids: ['SQLITE_3'] });

describe('infraDeliveryPlugin', () => {
  async function startBackend() {
    const { server } = await startTestBackend({
      features: [
        infraDeliveryPlugin,
        mockServices.database.factory({
          knex: await databases.init('SQLITE_3'),
        }),
      ],
    });
    return server;
  }

  it('answers /health without a credential', async () => {
    const server = await startBackend();
    const response = await request(server).get('/api/infra-delivery/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  });

  it('serves an OpenAPI 3.1 document that a validator accepts', async () => {
    const server = await startBackend();
    const response = await request(server).get(
      '/api/infra-delivery/openapi.json',
    );
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(response.body.paths['/health'].get.operationId).toBe('getHealth');
  });

  it('answers an unknown route with a 404 ErrorBody carrying the request id', async () => {
    const server = await startBackend();
    const response = await request(server)
      .get('/api/infra-delivery/no-such-thing')
      .set('x-request-id', 'trace-12345678');
    expect(response.status).toBe(404);
    expect(errorBodySchema.parse(response.body)).toEqual({
      code: 'InfraDelivery:Route:NOT_FOUND',
      message: 'No operation at GET /no-such-thing',
      requestId: 'trace-12345678',
    });
    expect(response.headers['x-request-id']).toBe('trace-12345678');
  });

  it('answers a method a path does not take with a 405 that names the methods it takes', async () => {
    const server = await startBackend();
    const response = await request(server).put('/api/infra-delivery/stacks');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
    expect(errorBodySchema.parse(response.body)).toMatchObject({
      code: 'InfraDelivery:Route:METHOD_NOT_ALLOWED',
      message: '/stacks does not take PUT; it takes GET, HEAD, POST',
      metadata: { allowed: ['GET', 'HEAD', 'POST'] },
    });

    const byId = await request(server).post(
      '/api/infra-delivery/stacks/some-id',
    );
    expect(byId.status).toBe(405);
    expect(byId.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
  });

  it('replaces a malformed incoming request id', async () => {
    const server = await startBackend();
    const response = await request(server)
      .get('/api/infra-delivery/health')
      .set('x-request-id', 'bad id with spaces');
    expect(response.headers['x-request-id']).not.toBe('bad id with spaces');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers malformed JSON with a 400 ErrorBody, not a stack trace', async () => {
    const server = await startBackend();
    const response = await request(server)
      .post('/api/infra-delivery/auth/token')
      .set('content-type', 'application/json')
      .send('{"data": ');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('InfraDelivery:Request:MALFORMED_JSON');
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.js/);
  });

  it('answers an oversized body with 413', async () => {
    const server = await startBackend();
    const response = await request(server)
      .post('/api/infra-delivery/auth/token')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ data: 'x'.repeat(1_100_000) }));
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('InfraDelivery:Request:BODY_TOO_LARGE');
    expect(response.body.requestId).toEqual(expect.any(String));
  });
});
