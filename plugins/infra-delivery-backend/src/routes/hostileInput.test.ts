import zlib from 'node:zlib';
import { errorBodySchema } from '@internal/plugin-infra-delivery-common';
import request from 'supertest';
import {
  createRunner,
  createStack,
  expectStatus,
} from '../__testUtils__/pipelineFixtures';
import {
  BASE,
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const nested = (depth: number) =>
  `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A response as its status and ErrorBody code. */
function answer(response: request.Response): [number, string] {
  return [response.status, errorBodySchema.parse(response.body).code];
}

/**
 * What an attacker or a broken client sends, answered as the client's error (a 4xx
 * ErrorBody), never as a 500, and without doing work for a caller without credentials.
 */
describe('hostile input', () => {
  let api: InfraDeliveryTestClient;
  let owner: TestOrganization;
  let stack: Awaited<ReturnType<typeof createStack>>;
  let runnerKey: string;

  beforeAll(async () => {
    api = await startInfraDeliveryBackend(await databases.init('SQLITE_3'));
    owner = await api.signup();
    stack = await createStack(api, owner);
    runnerKey = (await createRunner(api, owner)).key;
  });

  const post = (path: string, raw: string | Buffer, token?: string) => {
    const test = request(api.server)
      .post(`${BASE}${path}`)
      .set('content-type', 'application/json');
    return (token ? test.set('authorization', `Bearer ${token}`) : test).send(
      raw,
    );
  };

  it('refuses JSON nested 10,000 deep in free-form fields with a 400', async () => {
    expect(
      answer(
        await post(
          `/pipelines/${stack.changePipelineId}/runs`,
          `{"data":{"input":${nested(10_000)}}}`,
          owner.token,
        ),
      ),
    ).toEqual([400, 'InfraDelivery:Request:TOO_DEEP']);
    expect(
      answer(
        await post(
          '/pipelines',
          `{"data":{"projectId":"${
            stack.projectId
          }","givenId":"deep","name":"Deep","steps":[{"type":"approval","name":"a","config":${nested(
            10_000,
          )}}]}}`,
          owner.token,
        ),
      ),
    ).toEqual([400, 'InfraDelivery:Request:TOO_DEEP']);
    // Ordinary nesting still goes through.
    expectStatus(
      await post(
        `/pipelines/${stack.changePipelineId}/runs`,
        `{"data":{"input":${nested(20)}}}`,
        owner.token,
      ),
      201,
    );
  });

  it('answers malformed %-encoding in a path parameter with a 400', async () => {
    const response = await request(api.server)
      .get(`${BASE}/pipeline-runs/%E0%A4%A`)
      .set('authorization', `Bearer ${owner.token}`);
    expect(answer(response)).toEqual([
      400,
      'InfraDelivery:Request:MALFORMED_PATH',
    ]);
  });

  it('reads no runner body, compressed or not, before the caller is authenticated', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(32 * 1024 * 1024, ' '));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const anonymous = await request(api.server)
      .post(`${BASE}/runner/claims`)
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send(bomb);
    expect(answer(anonymous)).toEqual([
      401,
      'InfraDelivery:Auth:MISSING_CREDENTIAL',
    ]);

    // A runner's compressed claim is a client error, never a 500.
    const inflated = await request(api.server)
      .post(`${BASE}/runner/claims`)
      .set('authorization', `Bearer ${runnerKey}`)
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send(bomb);
    expect([400, 413]).toContain(inflated.status);
    errorBodySchema.parse(inflated.body);
  });

  it('answers a runner’s corrupt compressed body with a 400', async () => {
    const corrupt = await request(api.server)
      .post(`${BASE}/runner/claims`)
      .set('authorization', `Bearer ${runnerKey}`)
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send(Buffer.from('not gzip at all'));
    expect(answer(corrupt)).toEqual([
      400,
      'InfraDelivery:Request:UNREADABLE_BODY',
    ]);
  });

  it('keeps the large body limit to a step’s report: a claim over 1 MiB is a 413', async () => {
    const big = await post(
      '/runner/claims',
      JSON.stringify({
        data: { runnerId: 'x', pad: 'x'.repeat(2 * 1024 * 1024) },
      }),
      runnerKey,
    );
    expect(answer(big)).toEqual([413, 'InfraDelivery:Request:BODY_TOO_LARGE']);
  });
});
