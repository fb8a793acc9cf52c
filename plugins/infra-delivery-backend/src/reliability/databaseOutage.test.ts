import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JsonObject } from '@backstage/types';
import {
  BackendProcess,
  dropProcessDatabase,
  postgresProcessDatabase,
  ProcessDatabase,
} from '../__testUtils__/backendProcess';
import { CutKind, CuttableProxy } from '../__testUtils__/cuttableProxy';
import {
  ProcessApi,
  ProcessResponse,
  seedOrganization,
} from '../__testUtils__/processApi';

jest.setTimeout(180_000);

/** Longer than any answer here may take: a call still unanswered by then hangs. */
const HANG_MS = 25_000;

/**
 * The client settings docs/reliability.md and the backend's README recommend, shortened so
 * that the test waits seconds, not half a minute.
 */
const RECOMMENDED = {
  connection: { connectionTimeoutMillis: 3_000, query_timeout: 5_000 },
  database: { knexConfig: { acquireConnectionTimeout: 5_000 } },
};

async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise(resolve => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const cases: {
  name: string;
  kind: CutKind;
  connectionSettings?: JsonObject;
  databaseSettings?: JsonObject;
}[] = [
  {
    name: 'PostgreSQL restarting (connections reset, new ones refused), default client settings',
    kind: 'refused',
  },
  {
    name: 'a network partition (nothing answered, nothing reset), recommended client settings',
    kind: 'silent',
    connectionSettings: RECOMMENDED.connection,
    databaseSettings: RECOMMENDED.database,
  },
];

describe.each(cases)('while the database is away: $name', scenario => {
  const maybeDatabase = postgresProcessDatabase();
  if (!maybeDatabase) {
    it('needs PostgreSQL (BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING)', () => {
      expect(process.env.INFRA_DELIVERY_REQUIRE_POSTGRES).not.toBe('1');
    });
    return;
  }
  const database = maybeDatabase as Extract<ProcessDatabase, { client: 'pg' }>;
  const logFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'infra-delivery-outage-')),
    'backend.log',
  );
  let proxy: CuttableProxy | undefined;
  let backend: BackendProcess | undefined;
  const api = new ProcessApi(() => backend!.baseUrl);

  afterAll(async () => {
    await backend?.stop();
    await proxy?.close();
    await dropProcessDatabase(database);
  });

  it('answers 503 with Retry-After at once or within the timeouts, and serves again when it is back', async () => {
    const target = new URL(database.connectionString);
    proxy = await CuttableProxy.start({
      host: target.hostname,
      port: Number(target.port || 5432),
    });
    backend = await BackendProcess.start({
      database: {
        ...database,
        connectionString: proxy.rewrite(database.connectionString),
      },
      logFile,
      connectionSettings: scenario.connectionSettings,
      databaseSettings: scenario.databaseSettings,
    });
    const org = await seedOrganization(api, { stacks: 1 });
    const pipelineId = org.stacks[0].changePipelineId;
    const calls: Record<string, () => Promise<ProcessResponse>> = {
      'a list': () =>
        api.call('GET', '/projects', { token: org.token, timeoutMs: HANG_MS }),
      'a trigger': () =>
        api.call('POST', `/pipelines/${pipelineId}/runs`, {
          token: org.token,
          body: { data: { description: 'while away' } },
          timeoutMs: HANG_MS,
        }),
      "a runner's claim": () =>
        api.call('POST', '/runner/claims', {
          token: org.runnerKey,
          body: { data: { runnerId: 'outage', waitSeconds: 0 } },
          timeoutMs: HANG_MS,
        }),
    };
    const before = await api.expect(
      201,
      'POST',
      `/pipelines/${pipelineId}/runs`,
      { token: org.token, body: { data: { description: 'before' } } },
    );

    await proxy.cutOff(scenario.kind);
    const away: Record<string, unknown> = {};
    for (const [what, call] of Object.entries(calls)) {
      const response = await call();
      away[what] = {
        status: response.status,
        code: response.body?.code,
        retryAfter: response.headers.get('retry-after'),
      };
    }
    const unavailable = {
      status: 503,
      code: 'InfraDelivery:Database:UNAVAILABLE',
      retryAfter: '5',
    };
    expect(away).toEqual({
      'a list': unavailable,
      'a trigger': unavailable,
      "a runner's claim": unavailable,
    });

    await proxy.restore();
    await waitUntil(
      'the list to answer 200 again',
      async () => (await calls['a list']()).status === 200,
      30_000,
    );
    expect((await calls['a trigger']()).status).toBe(201);
    // The run triggered before the outage is still there, and goes to a runner.
    let claimed: ProcessResponse | undefined;
    await waitUntil(
      'a runner to get the first run',
      async () => {
        claimed = await calls["a runner's claim"]();
        return claimed.status === 200;
      },
      30_000,
    );
    expect(claimed!.body.data.pipelineRun.id).toBe(before.data.id);
    expect(backend.running).toBe(true);
    expect(backend.logs()).not.toContain('Unexpected error while handling');
  });
});
