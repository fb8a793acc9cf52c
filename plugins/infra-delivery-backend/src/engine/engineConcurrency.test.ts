import knexFactory, { Knex } from 'knex';
import {
  migratedStores,
  pipelineRunTally,
  queueStackRun,
  recordingEngine,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { CreateRunInput } from '../database/PipelineRunStore';
import { createStores } from '../database/stores';
import { changePipelineSteps } from '../services/StackService';
import { reportFigures } from '../__testUtils__/figures';

jest.setTimeout(600_000);

const databases = createTestDatabases();
const postgres = databases
  .eachSupportedId()
  .filter(([id]) => id.startsWith('POSTGRES'));

const STACKS = 50;
const RUNS_PER_STACK = 20;
const RUNNERS = 4;
/**
 * Leases short enough that the step of the runner that dies is queued again within the test,
 * long enough that a live runner on a loaded 2-core machine (pool waits included) completes
 * its step before its lease ends: with 3 s, a fresh-clone CI run saw a live runner's lease
 * expire once (LEASE_LOST on complete).
 */
const LEASE_SECONDS = 8;
/** Runners keep polling this long without a claim before they give up. */
const IDLE_GIVE_UP_MS = 3 * LEASE_SECONDS * 1000;
/** The runner that dies holding a lease on its this-many-th claim. */
const DYING_RUNNER = 0;
const DIES_AT_CLAIM = 25;

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
  const pools: Knex[] = [];
  afterAll(async () => {
    await second?.destroy();
    await Promise.all(pools.map(pool => pool.destroy()));
  });

  it('executes every step exactly once per attempt, never runs two runs of one stack at once, and retries a dead runner’s step', async () => {
    const first = await databases.init(databaseId);
    second = knexFactory(first.client.config);
    const storesA = await migratedStores(first);
    const storesB = createStores(second);
    const seed = await seedStacks(storesA, STACKS, { autoApprove: true });
    const engines = [
      recordingEngine(storesA, LEASE_SECONDS).engine,
      recordingEngine(storesB, LEASE_SECONDS).engine,
    ];

    // Runs of one stack are created in order (admission goes oldest first), stacks at once.
    const started = Date.now();
    const runIds = (
      await Promise.all(
        seed.stacks.map(async (_stack, stackIndex) => {
          const ids: string[] = [];
          for (let i = 0; i < RUNS_PER_STACK; i++) {
            ids.push((await queueStackRun(storesA, seed, stackIndex)).id);
          }
          return ids;
        }),
      )
    ).flat();
    // Both instances try to admit every run at the same time (a batch at a time, so that
    // the pools' queues stay within their acquire timeout on a busy machine).
    for (let i = 0; i < runIds.length; i += 100) {
      await Promise.all(
        runIds
          .slice(i, i + 100)
          .flatMap(id => engines.map(engine => engine.admit(id))),
      );
    }

    const claimsPerStepAttempt = new Map<string, number>();
    const attemptsPerStep = new Map<string, number[]>();
    let dead:
      | { stepId: string; attemptEpoch: number; leaseToken: string }
      | undefined;
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
      let lastClaimAt = Date.now();
      let claims = 0;
      while (Date.now() - lastClaimAt < IDLE_GIVE_UP_MS) {
        const claim = await engine.claim(org, `runner-${index}`);
        if (!claim) {
          await engine.tick();
          if ((await unfinishedRuns()) === 0) return;
          await new Promise(resolve => setTimeout(resolve, 20));
          continue;
        }
        lastClaimAt = Date.now();
        claims += 1;
        const key = `${claim.step.id}#${claim.step.attemptEpoch}`;
        claimsPerStepAttempt.set(key, (claimsPerStepAttempt.get(key) ?? 0) + 1);
        attemptsPerStep.set(claim.step.id, [
          ...(attemptsPerStep.get(claim.step.id) ?? []),
          claim.step.attemptEpoch,
        ]);
        overlaps.push(...(await activeRunsPerStack()));
        if (index === DYING_RUNNER && claims === DIES_AT_CLAIM) {
          // Killed mid-step: no heartbeat, no report, ever.
          dead = {
            stepId: claim.step.id,
            attemptEpoch: claim.step.attemptEpoch,
            leaseToken: claim.leaseToken,
          };
          return;
        }
        await engine.complete(org, claim.step.id, claim.leaseToken, {
          status: 'SUCCEEDED',
        });
      }
    }

    await Promise.all(Array.from({ length: RUNNERS }, (_, i) => runner(i)));

    reportFigures('two-engines', {
      runs: STACKS * RUNS_PER_STACK,
      stacks: STACKS,
      runners: RUNNERS,
      claims: [...claimsPerStepAttempt.values()].reduce((a, b) => a + b, 0),
      stepAttempts: claimsPerStepAttempt.size,
      ms: Date.now() - started,
    });
    expect(overlaps).toEqual([]);
    expect(await unfinishedRuns()).toBe(0);
    const [{ count: succeeded }] = await first
      .from('pipeline_runs')
      .where({ status: 'SUCCEEDED' })
      .count({ count: '*' });
    expect(Number(succeeded)).toBe(STACKS * RUNS_PER_STACK);
    // plan + apply per run, each attempt claimed once; the dead runner's step twice, as the
    // attempt it held and as the next one.
    expect(claimsPerStepAttempt.size).toBe(STACKS * RUNS_PER_STACK * 2 + 1);
    expect([...claimsPerStepAttempt.values()].every(n => n === 1)).toBe(true);
    expect(dead).toBeDefined();
    expect(attemptsPerStep.get(dead!.stepId)).toEqual([
      dead!.attemptEpoch,
      dead!.attemptEpoch + 1,
    ]);
    const retried = [...attemptsPerStep.values()].filter(a => a.length > 1);
    expect(retried).toHaveLength(1);
    // The dead runner's report, were it to arrive now, is refused.
    await expect(
      engines[0].complete(org, dead!.stepId, dead!.leaseToken, {
        status: 'SUCCEEDED',
      }),
    ).rejects.toMatchObject({ status: 409 });
  });
  it('triggers one stack through two pipelines and one pipeline from both instances at once, without a deadlock, the stack held by one run at a time', async () => {
    const first = await databases.init(databaseId);
    const otherPool = knexFactory(first.client.config);
    pools.push(otherPool);
    const storesA = await migratedStores(first);
    const storesB = createStores(otherPool);
    const seed = await seedStacks(storesA, 1, { autoApprove: true });
    const [{ stackId, pipelineId: changePipelineId, versionId }] = seed.stacks;
    const org = seed.organizationId;
    // A pipeline of no stack whose runs attach to the same stack.
    const other = await storesA.pipelines.create({
      organizationId: org,
      projectId: seed.projectId,
      givenId: 'free-pipeline',
      name: 'Free pipeline',
      steps: changePipelineSteps(true),
    });
    const changeSteps = (await storesA.pipelines.getVersion(org, versionId))!
      .steps;
    const engines = [
      recordingEngine(storesA, LEASE_SECONDS).engine,
      recordingEngine(storesB, LEASE_SECONDS).engine,
    ];
    const TRIGGERS = 24;
    const input = (i: number): CreateRunInput => {
      const base = {
        organizationId: org,
        projectId: seed.projectId,
        attachedEntityId: stackId,
        attachedEntityType: 'STACK' as const,
      };
      if (i % 4 === 3) {
        // A drift check: skipped, or gives way to the change runs queued behind it.
        return {
          ...base,
          pipelineId: changePipelineId,
          pipelineVersionId: versionId,
          kind: 'DRIFT_CHECK',
          steps: changeSteps.filter(step => step.type === 'iac.plan'),
        };
      }
      return i % 2 === 0
        ? {
            ...base,
            pipelineId: changePipelineId,
            pipelineVersionId: versionId,
            steps: changeSteps,
          }
        : {
            ...base,
            pipelineId: other.id,
            pipelineVersionId: other.latestVersionId!,
            steps: changePipelineSteps(true),
          };
    };

    const overlaps: unknown[] = [];
    let triggering = true;
    // A runner works the stack's runs meanwhile: its reports end runs and admit the next
    // queued ones while the triggers admit theirs.
    const runner = async (index: number) => {
      const engine = engines[index];
      while (triggering || (await unfinished()) > 0) {
        const claim = await engine.claim(org, `runner-${index}`);
        if (!claim) {
          await engine.tick();
          await new Promise(resolve => setTimeout(resolve, 10));
          continue;
        }
        overlaps.push(
          ...(await first
            .from('pipeline_runs')
            .where({ attached_entity_id: stackId })
            .whereIn('status', ['RUNNING', 'WAITING_FOR_APPROVAL'])
            .havingRaw('count(*) > 1')
            .groupBy('attached_entity_id')
            .select('attached_entity_id')),
        );
        await engine.complete(org, claim.step.id, claim.leaseToken, {
          status: 'SUCCEEDED',
        });
      }
    };
    async function unfinished() {
      const [{ count }] = await first
        .from('pipeline_runs')
        .whereNotIn('status', ['SUCCEEDED', 'FAILED', 'CANCELLED'])
        .count({ count: '*' });
      return Number(count);
    }
    const runners = [runner(0), runner(1)];
    const triggers = await Promise.allSettled(
      Array.from({ length: TRIGGERS }, (_, i) =>
        engines[i % 2].start(input(i)),
      ),
    );
    triggering = false;
    await Promise.all(runners);

    expect(triggers.filter(t => t.status === 'rejected')).toEqual([]);
    expect(overlaps).toEqual([]);
    const runs = await first
      .from('pipeline_runs')
      .where({ attached_entity_id: stackId })
      .select('id', 'pipeline_id', 'status', 'kind');
    expect(runs).toHaveLength(TRIGGERS);
    // Every change run ran to its end; a drift check either ran or was skipped.
    expect(
      runs.filter(r => r.kind !== 'DRIFT_CHECK' && r.status !== 'SUCCEEDED'),
    ).toEqual([]);
    expect(
      runs.filter(
        r =>
          r.kind === 'DRIFT_CHECK' &&
          !['SUCCEEDED', 'CANCELLED'].includes(r.status),
      ),
    ).toEqual([]);
    // Counters and pointers as the runs left them.
    const newest = (ids: string[]) => [...ids].sort().at(-1);
    for (const pipelineId of [changePipelineId, other.id]) {
      const own = runs.filter(r => r.pipeline_id === pipelineId);
      const latest = newest(own.map(r => r.id));
      expect(await pipelineRunTally(first, pipelineId)).toEqual({
        runCount: own.length,
        pipelineLatest: [latest, own.find(r => r.id === latest)!.status],
      });
    }
    const stack = await first('stacks').where({ id: stackId }).first();
    expect(stack.latest_run_id).toBe(newest(runs.map(r => r.id)));
  });
  it('lets a trigger wait for a drift check’s run held by an advancing transaction that then writes the stack’s row, instead of deadlocking with it', async () => {
    const first = await databases.init(databaseId);
    const otherPool = knexFactory(first.client.config);
    pools.push(otherPool);
    const stores = await migratedStores(first);
    const seed = await seedStacks(stores, 1, { autoApprove: true });
    const [{ stackId, pipelineId, versionId }] = seed.stacks;
    const org = seed.organizationId;
    const steps = (await stores.pipelines.getVersion(org, versionId))!.steps;
    const input = (extra: Partial<CreateRunInput> = {}): CreateRunInput => ({
      organizationId: org,
      pipelineId,
      pipelineVersionId: versionId,
      projectId: seed.projectId,
      attachedEntityId: stackId,
      attachedEntityType: 'STACK',
      steps,
      ...extra,
    });
    const { engine } = recordingEngine(createStores(otherPool));
    // A drift check holds the stack, its plan queued for a runner: a change run takes the
    // stack from it.
    const check = await engine.start(
      input({
        kind: 'DRIFT_CHECK',
        steps: steps.filter(step => step.type === 'iac.plan'),
      }),
    );
    // Another transaction moves the check, as the engine's advance does: the run's row
    // first, the stack's row (its latest-run pointer) after.
    const advancing = await first.transaction();
    try {
      await advancing('pipeline_runs')
        .where({ id: check.id })
        .update({ updated_at: new Date().toISOString() });
      const trigger = engine.start(input());
      // The trigger now waits for the check's row (giving way cancels it).
      for (let waited = 0; ; waited += 20) {
        const [{ count }] = await first('pg_stat_activity')
          .whereRaw('datname = current_database()')
          .where({ wait_event_type: 'Lock' })
          .count({ count: '*' });
        if (Number(count) > 0) break;
        if (waited > 30_000) throw new Error('the trigger never waited');
        await new Promise(resolve => setTimeout(resolve, 20));
      }
      // Were the trigger holding the stack's row (pointing it at its run at creation), this
      // would wait for it while it waits for us: PostgreSQL would abort one of the two.
      await advancing('stacks')
        .where({ id: stackId })
        .update({ latest_run_id: check.id });
      await advancing.commit();
      const run = await trigger;
      expect(
        (await stores.pipelineRuns.getRunForEngine(check.id))?.status,
      ).toBe('CANCELLED');
      expect((await stores.pipelineRuns.getRunForEngine(run.id))?.status).toBe(
        'RUNNING',
      );
      expect(await pipelineRunTally(first, pipelineId)).toEqual({
        runCount: 2,
        pipelineLatest: [run.id, 'RUNNING'],
      });
      const stack = await first('stacks').where({ id: stackId }).first();
      expect(stack.latest_run_id).toBe(run.id);
    } finally {
      if (!advancing.isCompleted()) {
        await advancing.rollback();
      }
    }
  });
});
