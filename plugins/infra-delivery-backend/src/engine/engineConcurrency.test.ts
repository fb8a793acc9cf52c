import knexFactory, { Knex } from 'knex';
import {
  migratedStores,
  queueStackRun,
  recordingEngine,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { createStores } from '../database/stores';

jest.setTimeout(300_000);

const databases = createTestDatabases();
const postgres = databases
  .eachSupportedId()
  .filter(([id]) => id.startsWith('POSTGRES'));

const STACKS = 10;
const RUNS_PER_STACK = 20;
const RUNNERS = 6;

if (postgres.length === 0) {
  // Without PostgreSQL there is nothing to run; createTestDatabases fails the run instead
  // when INFRA_DELIVERY_REQUIRE_POSTGRES=1 (as the README's test command sets it).
  it('needs PostgreSQL (BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING)', () => {
    expect(process.env.INFRA_DELIVERY_REQUIRE_POSTGRES).not.toBe('1');
  });
}

/**
 * Two engine instances (two connection pools, as two backends would have) on one PostgreSQL
 * database, several runners claiming at once.
 */
const eachPostgres = postgres.length > 0 ? describe.each(postgres) : undefined;

eachPostgres?.('two engines on one %s', databaseId => {
  let second: Knex | undefined;
  afterAll(async () => {
    await second?.destroy();
  });

  it('executes every step exactly once and never runs two runs of one stack at once', async () => {
    const first = await databases.init(databaseId);
    second = knexFactory(first.client.config);
    const storesA = await migratedStores(first);
    const storesB = createStores(second);
    const seed = await seedStacks(storesA, STACKS, { autoApprove: true });
    const engines = [
      recordingEngine(storesA).engine,
      recordingEngine(storesB).engine,
    ];

    const runIds: string[] = [];
    for (let i = 0; i < STACKS * RUNS_PER_STACK; i++) {
      runIds.push((await queueStackRun(storesA, seed, i % STACKS)).id);
    }
    // Both instances try to admit every run at the same time.
    await Promise.all(
      runIds.flatMap(id => engines.map(engine => engine.admit(id))),
    );

    const claimsPerStepAttempt = new Map<string, number>();
    const overlaps: unknown[] = [];
    const org = seed.organizationId;

    async function activeRunsPerStack() {
      return first
        .from('pipeline_runs')
        .whereIn('status', ['RUNNING', 'WAITING_FOR_APPROVAL'])
        .groupBy('attached_entity_id')
        .havingRaw('count(*) > 1')
        .select('attached_entity_id');
    }

    async function unfinishedRuns() {
      const [{ count }] = await first
        .from('pipeline_runs')
        .whereNotIn('status', ['SUCCEEDED', 'FAILED', 'CANCELLED'])
        .count({ count: '*' });
      return Number(count);
    }

    async function runner(index: number) {
      const engine = engines[index % engines.length];
      let idle = 0;
      while (idle < 20) {
        const claim = await engine.claim(org, `runner-${index}`);
        if (!claim) {
          idle += 1;
          await engine.tick();
          if ((await unfinishedRuns()) === 0) return;
          await new Promise(resolve => setTimeout(resolve, 20));
          continue;
        }
        idle = 0;
        const key = `${claim.step.id}#${claim.step.attemptEpoch}`;
        claimsPerStepAttempt.set(key, (claimsPerStepAttempt.get(key) ?? 0) + 1);
        overlaps.push(...(await activeRunsPerStack()));
        await engine.complete(org, claim.step.id, claim.leaseToken, {
          status: 'SUCCEEDED',
        });
      }
    }

    await Promise.all(Array.from({ length: RUNNERS }, (_, i) => runner(i)));

    expect(overlaps).toEqual([]);
    expect(await unfinishedRuns()).toBe(0);
    const [{ count: succeeded }] = await first
      .from('pipeline_runs')
      .where({ status: 'SUCCEEDED' })
      .count({ count: '*' });
    expect(Number(succeeded)).toBe(STACKS * RUNS_PER_STACK);
    // plan + apply per run, each claimed once.
    expect(claimsPerStepAttempt.size).toBe(STACKS * RUNS_PER_STACK * 2);
    expect([...claimsPerStepAttempt.values()].every(n => n === 1)).toBe(true);
  });
});
