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
import {
  serviceReachableSince,
  ServiceReachability,
} from './ServiceReachability';

jest.setTimeout(60_000);

const at = (seconds: number) =>
  new Date(Date.parse('2026-12-01T10:00:00.000Z') + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();
const ms = (seconds: number) => at(seconds).getTime();

describe('serviceReachableSince', () => {
  it('is the start of the one instance after a restart: it was down before', () => {
    const instances = [
      // The instance before the restart, last alive at 60 s; the new one since 70 s.
      { reachableSince: iso(0), aliveAt: iso(60) },
      { reachableSince: iso(70), aliveAt: iso(90) },
    ];
    expect(serviceReachableSince(instances, ms(92))).toBe(ms(70));
  });

  it('reaches back through instances that stayed up while another restarted', () => {
    const instances = [
      // b came at 50 s while a was up, a went at 60 s, c came at 80 s while b was up.
      { reachableSince: iso(0), aliveAt: iso(60) },
      { reachableSince: iso(50), aliveAt: iso(100) },
      { reachableSince: iso(80), aliveAt: iso(100) },
    ];
    expect(serviceReachableSince(instances, ms(102))).toBe(ms(0));
  });

  it('counts an instance alive for one alive interval after it last said so, and no longer', () => {
    // a last said it at 60 s: alive until 66 s (5 s, and a second late); b started at 66 s and
    // at 67 s.
    const a = { reachableSince: iso(0), aliveAt: iso(60) };
    expect(
      serviceReachableSince(
        [a, { reachableSince: iso(66), aliveAt: iso(70) }],
        ms(70),
      ),
    ).toBe(ms(0));
    expect(
      serviceReachableSince(
        [a, { reachableSince: iso(67), aliveAt: iso(70) }],
        ms(70),
      ),
    ).toBe(ms(67));
  });

  it('is unknown while no instance is alive', () => {
    expect(
      serviceReachableSince(
        [{ reachableSince: iso(0), aliveAt: iso(10) }],
        ms(30),
      ),
    ).toBeUndefined();
  });
});

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())('ServiceReachability on %s', id => {
  let knex: Knex;
  let stores: Stores;
  let now: number;

  beforeAll(async () => {
    knex = await databases.init(id);
    stores = await migratedStores(knex);
  });

  afterAll(async () => {
    await knex.destroy();
  });

  beforeEach(async () => {
    await knex('service_instances').delete();
  });

  /** An instance started (answering) at `now`, reachable since then. */
  async function instanceStarted() {
    const started = now;
    const reachability = new ServiceReachability({
      stores,
      instanceReachableSince: () => started,
      now: () => now,
    });
    const stop = await reachability.watch();
    stop();
    return reachability;
  }

  it('tells every instance since when the service has been reachable, across restarts', async () => {
    now = ms(0);
    const a = await instanceStarted();
    expect(a.reachableSince()).toBe(ms(0));

    // b starts a minute later beside a: the service did not stop.
    now = ms(60);
    await a.recordAlive();
    const b = await instanceStarted();
    expect(b.reachableSince()).toBe(ms(0));

    // a restarts while b stays up: still not.
    now = ms(65);
    await b.recordAlive();
    const a2 = await instanceStarted();
    expect(a2.reachableSince()).toBe(ms(0));

    // Both stop; one starts 20 s later: the service was down until then.
    now = ms(70);
    await a2.recordAlive();
    await b.recordAlive();
    now = ms(90);
    const c = await instanceStarted();
    expect(c.reachableSince()).toBe(ms(90));

    // Gone instances are forgotten after an hour; the one alive is kept.
    now = ms(3690);
    await c.recordAlive();
    expect(await c.forgetGoneInstances()).toBe(3);
    expect(await knex('service_instances').count({ n: '*' })).toEqual([
      { n: expect.anything() },
    ]);
    expect(c.reachableSince()).toBe(ms(90));
  });

  describe('what the runner registry says after a restart', () => {
    async function restartedRegistry() {
      // The service came back 3 s ago; it had been down for 20 s.
      now = Date.now() - 3_000;
      const reachability = await instanceStarted();
      now = Date.now();
      return {
        since: new Date(reachability.reachableSince()).toISOString(),
        registry: new RunnerRegistry({
          stores,
          settings: { onlineSeconds: 60, retentionDays: 7 },
          reachability,
          now: () => now,
        }),
      };
    }

    it('does not call a free runner seen before the outage silent until it has had its polls since', async () => {
      const seed = await seedStacks(stores, 1);
      const { engine } = recordingEngine(stores);
      const queued = await queueStackRun(stores, seed, 0);
      await engine.admit(queued.id);
      const run = (await stores.pipelineRuns.getRunForEngine(queued.id))!;
      const { since, registry } = await restartedRegistry();
      // Last seen 25 s ago, before the backend went down: it could not ask meanwhile.
      const seenAt = now - 25_000;
      const realNow = now;
      now = seenAt;
      await registry.recordClaim({
        organizationId: seed.organizationId,
        runnerId: 'local-runner',
        serviceAccountId: '0193a8c0-0000-7000-8000-0000000000aa',
        labels: [],
        currentStepExecutionId: null,
      });
      now = realNow;

      const [described] = await registry.describeRuns([run]);
      expect(described.queueState).toMatchObject({
        reason:
          'Queued for a runner: the one connected runner is free and takes it next',
      });
      expect(described.queueState?.runnersSilent).toBeUndefined();
      const page = await registry.list(seed.organizationId, undefined, {
        limit: 10,
      });
      expect(page.items[0]).toMatchObject({
        runnerId: 'local-runner',
        serviceReachableSince: since,
      });

      // Twenty seconds after the return without a claim, it is.
      now += 18_000;
      const [later] = await registry.describeRuns([run]);
      expect(later.queueState?.runnersSilent).toBe(true);
    });

    it('says on the lease of a step whose runner was last heard from before the outage when the service came back', async () => {
      const seed = await seedStacks(stores, 1);
      const { engine } = recordingEngine(stores);
      const queued = await queueStackRun(stores, seed, 0);
      await engine.admit(queued.id);
      const claim = await engine.claim(seed.organizationId, 'local-runner');
      // Its claim, and so its last heartbeat, 20 s ago.
      await knex('step_executions')
        .where({ id: claim!.step.id })
        .update({
          lease_renewed_at: new Date(Date.now() - 20_000).toISOString(),
        });
      const { since, registry } = await restartedRegistry();

      const run = (await stores.pipelineRuns.getRunForEngine(queued.id))!;
      const [described] = await registry.describeRuns([run]);
      expect(described.leasedStep?.lease.serviceReachableSince).toBe(since);
      const steps = registry.describeSteps(
        await stores.pipelineRuns.listSteps(run.id),
      );
      expect(
        steps.find(step => step.id === claim!.step.id)?.lease,
      ).toMatchObject({ serviceReachableSince: since });

      // A heartbeat after the return: nothing to say.
      await knex('step_executions')
        .where({ id: claim!.step.id })
        .update({ lease_renewed_at: new Date().toISOString() });
      const [heard] = await registry.describeRuns([run]);
      expect(heard.leasedStep?.lease).not.toHaveProperty(
        'serviceReachableSince',
      );
    });
  });
});
