import {
  errorBodySchema,
  OperationDefinition,
  OperationId,
  operations,
} from '@infra-delivery/plugin-infra-delivery-common';
import fc from 'fast-check';
import { Knex } from 'knex';
import request from 'supertest';
import { FakeGithub } from '../__testUtils__/fakeGithub';
import { FakeGitHubEnterprise } from '../__testUtils__/fakeGitHubEnterprise';
import {
  OPERATION_CALLS,
  OperationCall,
} from '../__testUtils__/operationCalls';
import {
  createOperationWorld,
  OperationWorld,
  worldConfig,
} from '../__testUtils__/operationWorld';
import { arbitraryFor, toQueryValue } from '../__testUtils__/schemaArbitraries';
import { fillPath, queryString } from '../__testUtils__/sendOperation';
import {
  BASE,
  createTestDatabases,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(300_000);

const databases = createTestDatabases();

/** Generated requests per operation and database: enough to find holes, bounded for CI. */
const RUNS_PER_OPERATION = 12;

/** Written on first use by any request, refused or not (signing keys shared by instances). */
const TABLES_WRITTEN_REGARDLESS = new Set(['service_secrets']);

async function tableNames(knex: Knex): Promise<string[]> {
  const client = String(knex.client.config.client);
  const names: string[] = client.includes('sqlite')
    ? (
        await knex.raw(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
      ).map((row: { name: string }) => row.name)
    : (
        await knex.raw(
          'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()',
        )
      ).rows.map((row: { name: string }) => row.name);
  return names
    .filter(
      name => !name.startsWith('knex_') && !TABLES_WRITTEN_REGARDLESS.has(name),
    )
    .sort();
}

/** Row counts of every table of the plugin, in one query. */
async function rowCounts(
  knex: Knex,
  tables: string[],
): Promise<Record<string, number>> {
  const rows = await knex.raw(
    tables
      .map(table => `SELECT '${table}' AS name, COUNT(*) AS n FROM "${table}"`)
      .join(' UNION ALL '),
  );
  const list: { name: string; n: string | number }[] = Array.isArray(rows)
    ? rows
    : rows.rows;
  return Object.fromEntries(list.map(row => [row.name, Number(row.n)]));
}

interface GeneratedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown> | undefined;
  body: unknown;
}

/**
 * Requests of one operation: path parameters that name the world's resources, are well-formed
 * but unknown, or are any text; queries and bodies that are the known-good ones, valid by the
 * schema, or wrong somewhere.
 */
function requestsOf(
  operation: OperationDefinition,
  good: OperationCall,
): fc.Arbitrary<GeneratedRequest> {
  const paramNames = [...operation.path.matchAll(/\{(\w+)\}/g)].map(m => m[1]);
  const params = fc.record(
    Object.fromEntries(
      paramNames.map(name => [
        name,
        fc.oneof(
          fc.constant(good.params?.[name] ?? 'missing'),
          fc.uuid(),
          fc.string({ minLength: 1, maxLength: 100, unit: 'grapheme' }),
        ),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, unknown>>;
  const query = operation.query
    ? (fc.oneof(
        fc.constant(good.query ?? {}),
        arbitraryFor(operation.query),
        arbitraryFor(operation.query, { wrongness: 0.3 }),
      ) as fc.Arbitrary<Record<string, unknown>>)
    : fc.constant(undefined);
  const body = operation.body
    ? fc.oneof(
        fc.constant(good.body),
        arbitraryFor(operation.body),
        arbitraryFor(operation.body, { wrongness: 0.3 }),
        fc.jsonValue({ maxDepth: 3 }),
      )
    : fc.constant(undefined);
  return fc.record({ params, query, body });
}

function send(
  world: OperationWorld,
  operation: OperationDefinition,
  generated: GeneratedRequest,
  headers: Record<string, string> = {},
) {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(generated.query ?? {})) {
    const text = toQueryValue(value);
    if (text !== undefined) {
      query[name] = text;
    }
  }
  const params = Object.fromEntries(
    Object.entries(generated.params).map(([name, value]) => [
      name,
      String(value),
    ]),
  );
  let req = request(world.api.server)
    [operation.method](
      `${BASE}${fillPath(operation.path, params)}${queryString(query)}`,
    )
    .set('authorization', `Bearer ${world.owner.token}`)
    .timeout(20_000);
  for (const [name, value] of Object.entries(headers)) {
    req = req.set(name, value);
  }
  return generated.body === undefined
    ? req
    : req
        .set('content-type', 'application/json')
        .send(JSON.stringify(generated.body));
}

/** Problems with one answer; none when it is a success or a well-formed refusal. */
function answerProblems(response: request.Response): string[] {
  if (response.status >= 500) {
    return [`status ${response.status}: ${JSON.stringify(response.body)}`];
  }
  if (response.status >= 400) {
    const parsed = errorBodySchema.safeParse(response.body);
    if (!parsed.success || !parsed.data.code.startsWith('InfraDelivery:')) {
      return [`not an ErrorBody: ${response.text?.slice(0, 200)}`];
    }
  }
  return [];
}

const operationIds = Object.keys(operations) as OperationId[];
const generatedRequests = new Map<string, number>();

afterAll(() => {
  const summary = [...generatedRequests]
    .map(([databaseId, count]) => `${count} on ${databaseId}`)
    .join(', ');
  process.stdout.write(
    `Bad input: ${operationIds.length} operations, generated requests: ${summary}\n`,
  );
});

describe.each(databases.eachSupportedId())('bad input on %s', databaseId => {
  let knex: Knex;
  let world: OperationWorld;
  let github: FakeGithub;
  let enterprise: FakeGitHubEnterprise;
  let tables: string[];

  beforeAll(async () => {
    knex = await databases.init(databaseId);
    github = await FakeGithub.start();
    enterprise = new FakeGitHubEnterprise();
    await enterprise.start();
    const api = await startInfraDeliveryBackend(knex, {
      config: worldConfig(github),
    });
    world = await createOperationWorld({ api, knex, github, enterprise });
    tables = await tableNames(knex);
  });

  afterAll(async () => {
    await github?.close();
    await enterprise?.stop();
  });

  /** Sends a request; fails on a 5xx or a refusal that is not an ErrorBody or wrote rows. */
  async function expectSafeAnswer(
    operation: OperationDefinition,
    generated: GeneratedRequest,
    headers?: Record<string, string>,
  ): Promise<request.Response> {
    const before = await rowCounts(knex, tables);
    const response = await send(world, operation, generated, headers);
    generatedRequests.set(
      databaseId,
      (generatedRequests.get(databaseId) ?? 0) + 1,
    );
    const problems = answerProblems(response);
    if (response.status >= 400) {
      const after = await rowCounts(knex, tables);
      const written = tables.filter(table => after[table] !== before[table]);
      if (written.length > 0) {
        problems.push(`a refused request wrote to ${written.join(', ')}`);
      }
    }
    if (problems.length > 0) {
      throw new Error(
        `${operation.operationId} ${JSON.stringify(generated).slice(
          0,
          500,
        )} → ${problems.join('; ')}`,
      );
    }
    return response;
  }

  it.each(operationIds)(
    '%s answers generated requests without a 5xx, with ErrorBodies, and refusals write nothing',
    async operationId => {
      const operation: OperationDefinition = operations[operationId];
      const good = await OPERATION_CALLS[operationId].call(world);
      await expect(
        fc.assert(
          fc.asyncProperty(requestsOf(operation, good), async generated => {
            await expectSafeAnswer(operation, generated, good.headers);
          }),
          { numRuns: RUNS_PER_OPERATION },
        ),
      ).resolves.toBeUndefined();
    },
  );

  describe('oversized and malformed requests', () => {
    const createProject = operations.createProject;

    it('answers a body over the limit with 413 BODY_TOO_LARGE and writes nothing', async () => {
      const response = await expectSafeAnswer(createProject, {
        params: {},
        query: undefined,
        body: {
          data: {
            givenId: 'big',
            name: 'Big',
            description: 'x'.repeat(1_100_000),
          },
        },
      });
      expect(response.status).toBe(413);
      expect(response.body.code).toBe('InfraDelivery:Request:BODY_TOO_LARGE');
    });

    it('lets runners send larger bodies than other callers', async () => {
      const response = await expectSafeAnswer(operations.claimStepExecution, {
        params: {},
        query: undefined,
        body: {
          data: { runnerId: 'r', labels: Array(40_000).fill('label-text') },
        },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe(
        'InfraDelivery:Request:VALIDATION_FAILED',
      );
    });

    it('answers a body that is not JSON with 415 NOT_JSON, naming what was sent', async () => {
      const asForm = await request(world.api.server)
        .post(`${BASE}/projects`)
        .set('authorization', `Bearer ${world.owner.token}`)
        // What `curl -d` sends unless told otherwise.
        .set('content-type', 'application/x-www-form-urlencoded')
        .send('{"data":{"givenId":"form","name":"Form"}}');
      expect(asForm.status).toBe(415);
      expect(errorBodySchema.parse(asForm.body)).toMatchObject({
        code: 'InfraDelivery:Request:NOT_JSON',
        message:
          'The request body must be JSON, sent with Content-Type: application/json; this one was sent as application/x-www-form-urlencoded',
      });

      const asText = await request(world.api.server)
        .post(`${BASE}/projects`)
        .set('authorization', `Bearer ${world.owner.token}`)
        .set('content-type', 'text/plain')
        .send('hello');
      expect(asText.status).toBe(415);
      expect(asText.body.code).toBe('InfraDelivery:Request:NOT_JSON');

      // Who is not signed in hears that first.
      const anonymous = await request(world.api.server)
        .post(`${BASE}/projects`)
        .set('content-type', 'text/plain')
        .send('hello');
      expect(anonymous.status).toBe(401);

      // No body at all is the schema's to refuse, as before.
      const empty = await request(world.api.server)
        .post(`${BASE}/projects`)
        .set('authorization', `Bearer ${world.owner.token}`);
      expect(empty.status).toBe(400);
      expect(empty.body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
      expect(
        await knex('projects').where({ given_id: 'form' }).first(),
      ).toBeUndefined();
    });

    it('answers malformed and deeply nested JSON with a 400', async () => {
      const malformed = await request(world.api.server)
        .post(`${BASE}/projects`)
        .set('authorization', `Bearer ${world.owner.token}`)
        .set('content-type', 'application/json')
        .send('{"data": {"givenId": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('InfraDelivery:Request:MALFORMED_JSON');

      // Who is not signed in hears that first, whatever the body: nothing is read for them.
      for (const body of [
        '{"data": {"givenId": ',
        `{"data":"${'x'.repeat(1_100_000)}"}`,
      ]) {
        const anonymous = await request(world.api.server)
          .post(`${BASE}/projects`)
          .set('content-type', 'application/json')
          .send(body);
        expect(anonymous.status).toBe(401);
      }
      const wrongKey = await request(world.api.server)
        .post(`${BASE}/projects`)
        .set('authorization', 'Bearer not-a-key')
        .set('content-type', 'application/json')
        .send('{"data": {"givenId": ');
      expect(wrongKey.status).toBe(401);

      const depth = 200_000;
      const nested = await request(world.api.server)
        .post(`${BASE}/projects`)
        .set('authorization', `Bearer ${world.owner.token}`)
        .set('content-type', 'application/json')
        .send(`{"data":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      expect(nested.status).toBe(400);
      expect(errorBodySchema.parse(nested.body).code).toMatch(
        /^InfraDelivery:Request:/,
      );
    });

    it('refuses oversized arrays in bodies and queries with a 400 ErrorBody', async () => {
      const cases: [OperationDefinition, GeneratedRequest][] = [
        [
          operations.countStackResources,
          {
            params: {},
            query: { stackId: Array(201).fill(world.stackId) },
            body: undefined,
          },
        ],
        [
          operations.listPipelineRuns,
          {
            params: {},
            // Many more would pass Node's 16 kB header limit, which the HTTP server answers itself.
            query: { id: Array(300).fill(world.runId) },
            body: undefined,
          },
        ],
        [
          operations.createPipeline,
          {
            params: {},
            query: undefined,
            body: {
              data: {
                projectId: world.projectId,
                givenId: 'many-steps',
                name: 'Many steps',
                steps: Array(5000).fill({ type: 'approval', name: 'A' }),
              },
            },
          },
        ],
        [
          operations.appendStepExecutionLogs,
          {
            params: { id: world.stepExecutionId },
            query: undefined,
            body: {
              data: {
                leaseToken: 'a-lease-token-of-16',
                lines: Array(1001).fill({ text: 'line' }),
              },
            },
          },
        ],
      ];
      for (const [operation, generated] of cases) {
        const response = await expectSafeAnswer(operation, generated);
        expect({
          operation: operation.operationId,
          status: response.status,
        }).toEqual({
          operation: operation.operationId,
          status: 400,
        });
      }
    });

    it('refuses an over-long path parameter with a 400 ErrorBody', async () => {
      const response = await expectSafeAnswer(operations.getProject, {
        params: { id: 'x'.repeat(10_000) },
        query: undefined,
        body: undefined,
      });
      expect(response.status).toBe(400);
    });
  });
});
