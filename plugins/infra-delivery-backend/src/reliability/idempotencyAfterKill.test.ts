import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BackendProcess,
  dropProcessDatabase,
  inspectDatabase,
  postgresProcessDatabase,
} from '../__testUtils__/backendProcess';
import { ProcessApi, seedOrganization } from '../__testUtils__/processApi';

jest.setTimeout(240_000);

/**
 * A trigger sent with an Idempotency-Key whose backend is killed (`kill -9`) mid-request, then
 * sent again to the restarted backend: answered as soon as the killed instance's lease on the
 * key lapsed (10 s), with exactly one run. Before leases the retry waited 30 s and heard 409
 * IN_PROGRESS for 5 minutes, as nothing told a lost request from a slow one.
 *
 * PostgreSQL only: several instances are a PostgreSQL deployment, and a row lock held by the
 * test is what keeps the request mid-work until the kill.
 */
describe('an Idempotency-Key whose first request died with its backend', () => {
  const database = postgresProcessDatabase();
  if (!database) {
    it('needs PostgreSQL (BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING)', () => {
      expect(process.env.INFRA_DELIVERY_REQUIRE_POSTGRES).not.toBe('1');
    });
    return;
  }
  const logFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'infra-delivery-idempotency-')),
    'backend.log',
  );
  let backend: BackendProcess | undefined;
  const api = new ProcessApi(() => backend!.baseUrl);
  const inspect = inspectDatabase(database);

  afterAll(async () => {
    await backend?.stop();
    await inspect.destroy();
    await dropProcessDatabase(database);
  });

  function trigger(pipelineId: string, token: string, key: string) {
    return fetch(`${backend!.baseUrl}/pipelines/${pipelineId}/runs`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify({ data: { description: 'once' } }),
      signal: AbortSignal.timeout(60_000),
    });
  }

  it('is answered once the lease lapsed, and the work is done once', async () => {
    backend = await BackendProcess.start({ database, logFile });
    const org = await seedOrganization(api, { stacks: 1 });
    const pipelineId = org.stacks[0].changePipelineId;

    // Hold the stack's row: the trigger's transaction writes it last, so the request stops
    // there, its key claimed and its work uncommitted, until the kill.
    const held = await inspect.transaction();
    await held('stacks')
      .where({ id: org.stacks[0].id })
      .forUpdate()
      .select('id');
    const first = trigger(pipelineId, org.token, 'deploy-42').catch(
      () => undefined,
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      const waiting = await inspect.raw(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (waiting.rows[0].n > 0) break;
      if (Date.now() > deadline) throw new Error('The trigger never waited');
      await new Promise(resolve => setTimeout(resolve, 100));
    }
    expect(
      await inspect('idempotency_keys').where({ idempotency_key: 'deploy-42' }),
    ).toEqual([expect.objectContaining({ state: 'PENDING' })]);
    await backend.kill9();
    // The dead instance's transaction ends when PostgreSQL next reads its connection.
    await held.rollback();
    await first;

    backend = await BackendProcess.start({ database, logFile });
    const started = Date.now();
    const retry = await trigger(pipelineId, org.token, 'deploy-42');
    const waitedMs = Date.now() - started;
    const body = await retry.json();
    expect({ status: retry.status, code: body.code }).toEqual({
      status: 201,
      code: undefined,
    });
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    // Within the lease (10 s), not the 30 s wait of a request still under way.
    expect(waitedMs).toBeLessThan(15_000);
    const runs = await inspect('pipeline_runs').where({
      pipeline_id: pipelineId,
    });
    expect(runs.map(run => run.id)).toEqual([body.data.id]);

    // Sent again: the recorded answer.
    const replay = await trigger(pipelineId, org.token, 'deploy-42');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await replay.json()).data.id).toBe(body.data.id);
    // eslint-disable-next-line no-console
    console.log(
      `Idempotency-Key after kill -9: the retry was answered 201 in ${waitedMs} ms after the restart`,
    );
  });
});
