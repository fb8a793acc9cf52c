import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { migratedStores } from '../__testUtils__/engineFixtures';
import { Stores } from '../database/stores';
import {
  NO_RUNNER_REASON,
  queuedForRunnerReason,
  RunnerRegistry,
} from './RunnerRegistry';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())('RunnerRegistry on %s', id => {
  let knex: Knex;
  let stores: Stores;
  let organizationId: string;
  let now: number;

  beforeAll(async () => {
    knex = await databases.init(id);
    stores = await migratedStores(knex);
  });

  afterAll(async () => {
    await knex.destroy();
  });

  beforeEach(async () => {
    organizationId = (await stores.organizations.create({ name: 'acme' })).id;
    now = Date.parse('2026-11-25T12:00:00.000Z');
  });

  const registry = () =>
    new RunnerRegistry({
      stores,
      settings: { onlineSeconds: 60, retentionDays: 7 },
      now: () => now,
    });

  const idleClaim = (runnerId: string, labels: string[] = []) => ({
    organizationId,
    runnerId,
    serviceAccountId: '0193a8c0-0000-7000-8000-0000000000aa',
    labels,
    currentStepExecutionId: null,
  });

  async function lastSeen(runners: RunnerRegistry, runnerId: string) {
    const page = await runners.list(organizationId, undefined, { limit: 10 });
    return page.items.find(r => r.runnerId === runnerId)?.lastSeenAt;
  }

  it('writes an unchanged idle poll at most every ten seconds, and a changed one at once', async () => {
    const runners = registry();
    await runners.recordClaim(idleClaim('poller'));
    const first = await lastSeen(runners, 'poller');

    now += 2_000;
    await runners.recordClaim(idleClaim('poller'));
    expect(await lastSeen(runners, 'poller')).toBe(first);

    now += 2_000;
    await runners.recordClaim(idleClaim('poller', ['gpu']));
    expect(await lastSeen(runners, 'poller')).toBe(new Date(now).toISOString());

    now += 10_000;
    await runners.recordClaim(idleClaim('poller', ['gpu']));
    expect(await lastSeen(runners, 'poller')).toBe(new Date(now).toISOString());
  });

  it('forgets the runners not seen within the retention, and only those', async () => {
    const runners = registry();
    await runners.recordClaim(idleClaim('old'));
    now += 6 * 86_400_000;
    await runners.recordClaim(idleClaim('recent'));
    now += 2 * 86_400_000;

    // Other tests' runners on this database are as old: count at least this one.
    expect(await runners.forgetOfflineRunners()).toBeGreaterThanOrEqual(1);
    const rows = await knex('runners')
      .where({ organization_id: organizationId })
      .select('runner_id');
    expect(rows.map(row => row.runner_id)).toEqual(['recent']);
  });
});

describe('queuedForRunnerReason', () => {
  it.each([
    [0, 0, NO_RUNNER_REASON],
    [
      1,
      1,
      'Queued for a runner: the one connected runner is busy with another step',
    ],
    [
      3,
      3,
      'Queued for a runner: all 3 connected runners are busy with other steps',
    ],
    [1, 0, 'Queued for a runner: the one connected runner is free'],
    [3, 2, 'Queued for a runner: 1 of 3 connected runners is free'],
    [3, 1, 'Queued for a runner: 2 of 3 connected runners are free'],
  ])(
    'says why a step waits with %i runners online, %i of them busy',
    (online, busy, reason) => {
      expect(queuedForRunnerReason({ online, busy })).toBe(reason);
    },
  );
});
