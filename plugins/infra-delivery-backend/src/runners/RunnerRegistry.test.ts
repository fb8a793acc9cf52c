import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import {
  migratedStores,
  queueStackRun,
  recordingEngine,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { Stores } from '../database/stores';
import { RunnerRegistry } from './RunnerRegistry';

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

  it('gives a restarted process the row of one that signed off before that of one only unseen', async () => {
    const runners = registry();
    const twin = (instanceId: string) => ({
      ...idleClaim('twin'),
      instanceId,
    });
    await runners.recordClaim(twin('unseen'));
    now += 1_000;
    await runners.recordClaim(twin('stopped'));
    await runners.signOff(
      organizationId,
      'twin',
      idleClaim('twin').serviceAccountId,
      'stopped',
    );
    // Both are OFFLINE now; the unseen one is the longer unseen, yet may still answer.
    now += 120_000;
    await runners.recordClaim(twin('restarted'));
    const rows = await knex('runners')
      .where({ organization_id: organizationId })
      .orderBy('instance_id')
      .select('instance_id');
    expect(rows.map(row => row.instance_id)).toEqual(['restarted', 'unseen']);
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
  describe('a run whose step waits for a claim', () => {
    /** A run of a stack's change pipeline whose plan step is queued for a claim. */
    async function waitingRun() {
      const seed = await seedStacks(stores, 1);
      const { engine } = recordingEngine(stores);
      const queued = await queueStackRun(stores, seed, 0);
      await engine.admit(queued.id);
      organizationId = seed.organizationId;
      return (await stores.pipelineRuns.getRunForEngine(queued.id))!;
    }

    async function reasonAt(
      runners: RunnerRegistry,
      run: Awaited<ReturnType<typeof waitingRun>>,
    ) {
      const [described] = await runners.describeRuns([run]);
      return described.queueState;
    }

    it('says that its free runner is silent once it has not asked for work in five of its polls', async () => {
      // The step is queued on the database's clock: the registry's starts there too.
      now = Date.now();
      const runners = registry();
      const run = await waitingRun();
      await runners.recordClaim({
        ...idleClaim('build-host-1'),
        organizationId,
        pollIntervalMs: 3_000,
      });

      now += 5_000;
      expect(await reasonAt(runners, run)).toMatchObject({
        waitingForRunner: false,
        reason:
          'Queued for a runner: the one connected runner is free and takes it next',
      });
      expect((await reasonAt(runners, run))?.runnersSilent).toBeUndefined();

      // Five polls of three seconds, after the ten seconds a sighting may go unrecorded: silent
      // since its last sighting, after the step's queueing.
      now += 21_000;
      const silent = await reasonAt(runners, run);
      expect(silent).toMatchObject({
        waitingForRunner: false,
        runnersSilent: true,
      });
      expect(silent?.reason).toMatch(
        /^Queued for a runner: the one connected runner, build-host-1, is free but has not asked for work for 2[56]s; it may have stopped \(killed, or its host lost\)$/,
      );

      // Once the online window passes, it is not connected at all.
      now += 60_000;
      expect(await reasonAt(runners, run)).toMatchObject({
        waitingForRunner: true,
        reason: 'No runner is connected to this organization',
      });
    });

    it('says at once that its free runner is silent where it had not asked for work long before the step was queued', async () => {
      // Killed (kill -9) 45 s before the plan was pressed: still ONLINE for the online window,
      // its dropped held claim forgotten or known to another instance. Before, the silence was
      // counted from the step's queueing, and the run read "free and takes it next" for twenty
      // seconds while the Runners card said the runner was silent.
      const queuedAt = Date.now();
      const runners = registry();
      const run = await waitingRun();
      now = queuedAt - 45_000;
      await runners.recordClaim({
        ...idleClaim('build-host-1'),
        organizationId,
      });
      now = queuedAt + 2_000;

      const silent = await reasonAt(runners, run);
      expect(silent).toMatchObject({
        waitingForRunner: false,
        runnersSilent: true,
      });
      expect(silent?.reason).toMatch(
        /^Queued for a runner: the one connected runner, build-host-1, is free but has not asked for work for 4[6-8]s; it may have stopped \(killed, or its host lost\)$/,
      );
    });

    it('lists the lease of the runner that holds the step, not of one whose lease went to it', async () => {
      now = Date.now();
      const runners = registry();
      const run = await waitingRun();
      const { engine } = recordingEngine(stores);
      const claim = await engine.claim(organizationId, 'holder');
      // The runner that lost the step to `holder` still names it until it reports again.
      for (const runnerId of ['holder', 'lost-it']) {
        await runners.recordClaim({
          ...idleClaim(runnerId),
          organizationId,
          currentStepExecutionId: claim!.step.id,
        });
      }

      const page = await runners.list(organizationId, undefined, { limit: 10 });
      const listed = new Map(page.items.map(r => [r.runnerId, r]));
      expect(listed.get('holder')).toMatchObject({
        currentPipelineRunId: run.id,
        currentStepLease: {
          runnerId: 'holder',
          renewedAt: expect.any(String),
          expiresAt: expect.any(String),
        },
      });
      expect(listed.get('lost-it')?.currentStepExecutionId).toBe(
        claim!.step.id,
      );
      expect(listed.get('lost-it')).not.toHaveProperty('currentStepLease');

      // When the step was claimed, on the Runners card and on the run: the portal calls a runner
      // not heard from since its claim frozen or lost, ten seconds on.
      const lease = listed.get('holder')!.currentStepLease!;
      expect(lease.claimedAt).toEqual(expect.any(String));
      expect(
        Math.abs(Date.parse(lease.claimedAt!) - Date.parse(lease.renewedAt)),
      ).toBeLessThan(1000);
      const [described] = await runners.describeRuns([
        (await stores.pipelineRuns.getRunForEngine(run.id))!,
      ]);
      expect(described.leasedStep?.lease.claimedAt).toBe(lease.claimedAt);
    });

    it('says that the runner of a step queued again stopped reporting, and counts it neither connected nor busy', async () => {
      now = Date.now();
      const runners = registry();
      const run = await waitingRun();
      const { engine } = recordingEngine(stores, 1);
      const claim = await engine.claim(organizationId, 'walk-runner');
      await runners.recordClaim({
        ...idleClaim('walk-runner'),
        organizationId,
        currentStepExecutionId: claim!.step.id,
      });
      // Killed mid-step: its lease runs out and the step is queued again as attempt 2.
      await new Promise(resolve => setTimeout(resolve, 1200));
      expect(await engine.expireLeases()).toBe(1);

      expect(
        await stores.runners.countOnline(
          organizationId,
          runners.window().onlineSince,
        ),
      ).toMatchObject({ online: 0, busy: 0 });
      expect(await reasonAt(runners, run)).toMatchObject({
        waitingForRunner: true,
        reason:
          'walk-runner stopped reporting during this step (it may have been stopped); the step is queued again and no runner is connected to this organization: start a runner',
      });
      const page = await runners.list(organizationId, undefined, { limit: 10 });
      expect(page.items).toEqual([
        expect.objectContaining({
          runnerId: 'walk-runner',
          status: 'OFFLINE',
          offlineCause: 'STOPPED_REPORTING',
          currentStepExecutionId: claim!.step.id,
        }),
      ]);

      // Another runner connects: it takes the step next.
      await runners.recordClaim({ ...idleClaim('spare'), organizationId });
      expect(await reasonAt(runners, run)).toMatchObject({
        waitingForRunner: false,
        reason:
          'walk-runner stopped reporting during this step (it may have been stopped); the step is queued again. Queued for a runner: the one connected runner is free and takes it next',
      });

      // The killed runner restarts: seen again, it is ONLINE and free.
      await runners.recordClaim({
        ...idleClaim('walk-runner'),
        organizationId,
      });
      const back = await runners.list(organizationId, 'ONLINE', { limit: 10 });
      expect(back.items.map(r => [r.runnerId, r.offlineCause])).toEqual([
        ['spare', undefined],
        ['walk-runner', undefined],
      ]);
    });

    it('counts the free runners, their latest sighting and their longest poll interval', async () => {
      now = Date.now();
      const runners = registry();
      const run = await waitingRun();
      const steps = await stores.pipelineRuns.listSteps(run.id);
      await runners.recordClaim({
        ...idleClaim('busy'),
        organizationId,
        currentStepExecutionId: steps[0].id,
      });
      await runners.recordClaim({ ...idleClaim('quick'), organizationId });
      now += 1_000;
      await runners.recordClaim({
        ...idleClaim('slow'),
        organizationId,
        pollIntervalMs: 4_000,
      });
      expect(
        await stores.runners.countOnline(
          organizationId,
          runners.window().onlineSince,
        ),
      ).toEqual({
        online: 3,
        busy: 1,
        freeLastSeenAt: new Date(now).toISOString(),
        freePollIntervalMs: 4_000,
        freeRunnerId: 'quick',
      });
    });
  });
});
