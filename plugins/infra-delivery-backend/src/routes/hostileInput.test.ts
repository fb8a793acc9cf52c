import zlib from 'node:zlib';
import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
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

  /** POSTs bytes as they are: supertest would serialize a Buffer as JSON. */
  const postBytes = (
    path: string,
    bytes: Buffer,
    encoding: string,
    token?: string,
  ) => {
    const test = request(api.server)
      .post(`${BASE}${path}`)
      .set('content-type', 'application/json')
      .set('content-encoding', encoding)
      .serialize(body => body);
    return (token ? test.set('authorization', `Bearer ${token}`) : test).send(
      bytes,
    );
  };
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const anyStepExecution =
    '/runner/step-executions/0193a8c0-0000-7000-8000-000000000000';

  it('reads no runner body, compressed or not, before the caller is authenticated', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(32 * 1024 * 1024, ' '));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(answer(await postBytes('/runner/claims', bomb, 'gzip'))).toEqual([
      401,
      'InfraDelivery:Auth:MISSING_CREDENTIAL',
    ]);
  });

  it('inflates a runner’s gzip, deflate and br bodies', async () => {
    const run = await request(api.server)
      .post(`${BASE}/pipelines/${stack.changePipelineId}/runs`)
      .set('authorization', `Bearer ${owner.token}`)
      .send({ data: {} });
    expectStatus(run, 201);
    const claimed = await postBytes(
      '/runner/claims',
      zlib.gzipSync(json({ data: { runnerId: 'compressing-runner' } })),
      'gzip',
      runnerKey,
    );
    expectStatus(claimed, 200);
    const { stepExecution, leaseToken } = claimed.body.data;
    const logs = await postBytes(
      `/runner/step-executions/${stepExecution.id}/logs`,
      zlib.deflateSync(
        json({ data: { leaseToken, lines: [{ text: 'compressed line' }] } }),
      ),
      'deflate',
      runnerKey,
    );
    expect(logs.status).toBeLessThan(300);
    const completed = await postBytes(
      `/runner/step-executions/${stepExecution.id}/complete`,
      zlib.brotliCompressSync(json({ data: { leaseToken, status: 'FAILED' } })),
      'br',
      runnerKey,
    );
    expectStatus(completed, 200);
    expect(completed.body.data.status).toBe('FAILED');
    const stored = await request(api.server)
      .get(`${BASE}/pipeline-step-executions/${stepExecution.id}/logs`)
      .set('authorization', `Bearer ${owner.token}`);
    expect(
      stored.body.data.map((line: { text: string }) => line.text),
    ).toContain('compressed line');
  });

  it('stops inflating a runner’s bomb: at 1 MiB for a claim, at the ratio cap for a report', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(32 * 1024 * 1024, ' '));
    expect(
      answer(await postBytes('/runner/claims', bomb, 'gzip', runnerKey)),
    ).toEqual([413, 'InfraDelivery:Request:BODY_TOO_LARGE']);
    const report = await postBytes(
      `${anyStepExecution}/complete`,
      bomb,
      'gzip',
      runnerKey,
    );
    expect(answer(report)).toEqual([
      413,
      'InfraDelivery:Request:INFLATES_TOO_FAR',
    ]);
    expect(report.body.metadata).toEqual({ maxRatio: 100 });
  });

  it('measures the nesting of a runner’s report parsed a slice at a time', async () => {
    const deep = `{"data":{"pad":"${'x'.repeat(300 * 1024)}","output":${nested(
      10_000,
    )}}}`;
    expect(
      answer(await post(`${anyStepExecution}/complete`, deep, runnerKey)),
    ).toEqual([400, 'InfraDelivery:Request:TOO_DEEP']);
    expect(
      answer(
        await postBytes(
          `${anyStepExecution}/complete`,
          zlib.gzipSync(Buffer.from(deep)),
          'gzip',
          runnerKey,
        ),
      ),
    ).toEqual([400, 'InfraDelivery:Request:TOO_DEEP']);
  });

  it('answers a compressed body anywhere but the runner routes with a 415', async () => {
    expect(
      answer(
        await postBytes(
          '/projects',
          zlib.gzipSync(json({ data: { givenId: 'zipped', name: 'Zipped' } })),
          'gzip',
          owner.token,
        ),
      ),
    ).toEqual([415, 'InfraDelivery:Request:UNSUPPORTED_ENCODING']);
  });

  it('answers a runner’s corrupt compressed body with a 400', async () => {
    expect(
      answer(
        await postBytes(
          '/runner/claims',
          Buffer.from('not gzip at all'),
          'gzip',
          runnerKey,
        ),
      ),
    ).toEqual([400, 'InfraDelivery:Request:UNREADABLE_BODY']);
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
