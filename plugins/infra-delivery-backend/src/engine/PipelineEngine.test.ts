import {
  migratedStores,
  queueStackRun,
  recordingEngine,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { InfraDeliveryError } from '../errors';

jest.setTimeout(120_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'PipelineEngine on %s',
  databaseId => {
    async function setup(
      options: { leaseSeconds?: number; stacks?: number } = {},
    ) {
      const knex = await databases.init(databaseId);
      const stores = await migratedStores(knex);
      const seed = await seedStacks(stores, options.stacks ?? 1);
      const { engine, changes } = recordingEngine(stores, options.leaseSeconds);
      return { knex, stores, seed, engine, changes };
    }

    it('admits the first run of a stack and holds the next one behind it', async () => {
      const { stores, seed, engine } = await setup();
      const first = await queueStackRun(stores, seed, 0);
      const second = await queueStackRun(stores, seed, 0);
      await engine.admit(first.id);
      await engine.admit(second.id);

      const running = await stores.pipelineRuns.getRunForEngine(first.id);
      expect(running?.status).toBe('RUNNING');
      expect(running?.engineWorkflowId).toBe(`pipeline-run/${first.id}`);
      expect(running?.engineRunId).toBe(`${first.id}/attempt-1`);

      const held = await stores.pipelineRuns.getRunForEngine(second.id);
      expect(held?.status).toBe('QUEUED');
      expect(held?.queueState).toMatchObject({
        preflightBlockedByAdmissionCondition: true,
        blockingEntityType: 'STACK',
        blockingEntityId: seed.stacks[0].stackId,
        blockingRunId: first.id,
        conditionKey: `stack:${seed.stacks[0].stackId}`,
      });
      expect(held?.queueReason).toBe(
        // Named where it has names: the stack by its name, an undescribed run by its id.
        `Held: stack Stack 0 is busy with run ${first.id}`,
      );
      const steps = await stores.pipelineRuns.listSteps(first.id);
      expect(steps.map(s => [s.type, s.status])).toEqual([
        ['iac.plan', 'QUEUED'],
        ['approval', 'PENDING'],
        ['iac.apply', 'PENDING'],
      ]);
    });

    it('runs plan → approval → apply and then admits the held run, oldest first', async () => {
      const { stores, seed, engine, changes } = await setup();
      const org = seed.organizationId;
      const first = await queueStackRun(stores, seed, 0);
      const second = await queueStackRun(stores, seed, 0);
      const third = await queueStackRun(stores, seed, 0);
      for (const run of [third, second, first]) {
        await engine.admit(run.id);
      }
      expect(
        (await stores.pipelineRuns.getRunForEngine(first.id))?.status,
      ).toBe('RUNNING');

      const plan = await engine.claim(org, 'runner-1');
      expect(plan?.step.type).toBe('iac.plan');
      expect(plan?.step.pipelineRunId).toBe(first.id);
      await engine.appendLogs(org, plan!.step.id, plan!.leaseToken, [
        { text: 'Plan: 1 to add, 0 to change, 0 to destroy.' },
      ]);
      await engine.complete(org, plan!.step.id, plan!.leaseToken, {
        status: 'SUCCEEDED',
      });
      let run = await stores.pipelineRuns.getRunForEngine(first.id);
      expect(run?.status).toBe('WAITING_FOR_APPROVAL');
      expect(await engine.claim(org, 'runner-1')).toBeUndefined();

      await engine.approve(run!, true, 'looks right');
      const apply = await engine.claim(org, 'runner-2');
      expect(apply?.step.type).toBe('iac.apply');
      await engine.complete(org, apply!.step.id, apply!.leaseToken, {
        status: 'SUCCEEDED',
        outputs: { url: 'https://example.com' },
      });

      run = await stores.pipelineRuns.getRunForEngine(first.id);
      expect(run?.status).toBe('SUCCEEDED');
      expect(run?.completedAt).toEqual(expect.any(String));
      expect(
        (await stores.pipelineRuns.getRunForEngine(second.id))?.status,
      ).toBe('RUNNING');
      expect(
        (await stores.pipelineRuns.getRunForEngine(third.id))?.status,
      ).toBe('QUEUED');
      expect(
        changes.filter(c => c.runId === first.id).map(c => c.status),
      ).toEqual(
        expect.arrayContaining([
          'RUNNING',
          'WAITING_FOR_APPROVAL',
          'SUCCEEDED',
        ]),
      );
      const logs = await stores.pipelineRuns.listLogs(plan!.step.id, {
        limit: 10,
      });
      expect(logs.items.map(l => l.text)).toEqual([
        'Plan: 1 to add, 0 to change, 0 to destroy.',
      ]);
    });

    it('fails the run when a step fails, skips the rest and frees the stack', async () => {
      const { stores, seed, engine } = await setup();
      const org = seed.organizationId;
      const first = await queueStackRun(stores, seed, 0);
      const second = await queueStackRun(stores, seed, 0);
      await engine.admit(first.id);
      await engine.admit(second.id);
      const plan = await engine.claim(org, 'runner');
      await engine.complete(org, plan!.step.id, plan!.leaseToken, {
        status: 'FAILED',
        error: {
          code: 'InfraDelivery:Iac:PLAN_FAILED',
          message: 'Invalid provider configuration',
        },
      });
      const failed = await stores.pipelineRuns.getRunForEngine(first.id);
      expect(failed?.status).toBe('FAILED');
      expect(failed?.error?.code).toBe('InfraDelivery:Iac:PLAN_FAILED');
      expect(
        (await stores.pipelineRuns.listSteps(first.id)).map(s => s.status),
      ).toEqual(['FAILED', 'SKIPPED', 'SKIPPED']);
      expect(
        (await stores.pipelineRuns.getRunForEngine(second.id))?.status,
      ).toBe('RUNNING');
    });

    it('rejects, then retries as a new attempt from the failed step', async () => {
      const { stores, seed, engine } = await setup();
      const org = seed.organizationId;
      const run = await queueStackRun(stores, seed, 0);
      await engine.admit(run.id);
      const plan = await engine.claim(org, 'runner');
      await engine.complete(org, plan!.step.id, plan!.leaseToken, {
        status: 'SUCCEEDED',
      });
      await engine.approve(
        (await stores.pipelineRuns.getRunForEngine(run.id))!,
        false,
        'wrong region',
      );
      let current = await stores.pipelineRuns.getRunForEngine(run.id);
      expect(current?.status).toBe('FAILED');
      expect(current?.error).toEqual({
        code: 'InfraDelivery:Approval:REJECTED',
        message: 'The approval was rejected: wrong region',
      });

      await engine.retry(current!);
      current = await stores.pipelineRuns.getRunForEngine(run.id);
      expect(current?.attemptEpoch).toBe(2);
      expect(current?.status).toBe('WAITING_FOR_APPROVAL');
      expect(
        (await stores.pipelineRuns.listSteps(run.id)).map(s => s.status),
      ).toEqual(['SUCCEEDED', 'WAITING_FOR_APPROVAL', 'PENDING']);

      await expect(engine.retry(current!)).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:PipelineRun:NOT_RETRYABLE',
      });
    });

    it('cancels a queued run and a running one; the runner learns of it', async () => {
      const { stores, seed, engine } = await setup();
      const org = seed.organizationId;
      const first = await queueStackRun(stores, seed, 0);
      const second = await queueStackRun(stores, seed, 0);
      await engine.admit(first.id);
      await engine.admit(second.id);

      await engine.cancel(
        (await stores.pipelineRuns.getRunForEngine(second.id))!,
      );
      const cancelledQueued = await stores.pipelineRuns.getRunForEngine(
        second.id,
      );
      expect(cancelledQueued?.status).toBe('CANCELLED');
      expect(cancelledQueued?.isCancellable).toBe(false);

      const plan = await engine.claim(org, 'runner');
      await engine.cancel(
        (await stores.pipelineRuns.getRunForEngine(first.id))!,
      );
      await expect(
        engine.heartbeat(org, plan!.step.id, plan!.leaseToken),
      ).resolves.toMatchObject({ cancelRequested: true });
      // The runner's report says its command stopped: the step stays cancelled, nothing counts.
      await expect(
        engine.complete(org, plan!.step.id, plan!.leaseToken, {
          status: 'SUCCEEDED',
        }),
      ).resolves.toMatchObject({ status: 'CANCELLED' });
      await expect(
        engine.complete(org, plan!.step.id, plan!.leaseToken, {
          status: 'SUCCEEDED',
        }),
      ).rejects.toMatchObject({ status: 409 });
      await expect(
        engine.cancel((await stores.pipelineRuns.getRunForEngine(first.id))!),
      ).rejects.toBeInstanceOf(InfraDeliveryError);
    });

    it('says in the log of a step cancelled while queued who cancelled the run and that no runner had taken it', async () => {
      const { stores, seed, engine } = await setup();
      const org = seed.organizationId;
      const run = await queueStackRun(stores, seed, 0);
      await engine.admit(run.id);
      const [queued] = await stores.pipelineRuns.listSteps(run.id);
      expect(queued.status).toBe('QUEUED');

      await engine.cancel(
        (await stores.pipelineRuns.getRunForEngine(run.id))!,
        { id: 'membership-1', name: 'Ada' },
      );

      expect(
        (await stores.pipelineRuns.listSteps(run.id)).map(s => s.status),
      ).toEqual(['CANCELLED', 'SKIPPED', 'SKIPPED']);
      const logs = await stores.pipelineRuns.listLogs(queued.id, {
        limit: 10,
      });
      expect(logs.items.map(l => [l.attemptEpoch, l.text])).toEqual([
        [1, 'The run was cancelled by Ada; no runner had taken the step yet'],
      ]);
      // Nor does a runner take it afterwards.
      expect(await engine.claim(org, 'runner')).toBeUndefined();
    });

    it('keeps a cancelled step’s lines for a lease’s length, then closes its log with who cancelled it', async () => {
      const { stores, seed, engine } = await setup({ leaseSeconds: 1 });
      const org = seed.organizationId;
      const run = await queueStackRun(stores, seed, 0);
      await engine.admit(run.id);
      const plan = await engine.claim(org, 'runner-that-abandons');
      await engine.cancel(
        (await stores.pipelineRuns.getRunForEngine(run.id))!,
        {
          id: 'membership-1',
          name: 'Ada',
        },
      );

      await expect(
        engine.appendLogs(org, plan!.step.id, plan!.leaseToken, [
          { text: 'Interrupt received.' },
        ]),
      ).resolves.toEqual({
        cancelRequested: true,
        acceptLogsUntil: expect.any(String),
      });
      // Within the grace, nothing closes it.
      expect(await engine.closeExpiredCancelGraces()).toBe(0);
      await new Promise(resolve => setTimeout(resolve, 1200));

      // The runner never reports (an older runner abandons the step): the tick closes it once.
      await engine.tick();
      expect(await engine.closeExpiredCancelGraces()).toBe(0);
      await expect(
        engine.appendLogs(org, plan!.step.id, plan!.leaseToken, [
          { text: 'too late' },
        ]),
      ).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:Runner:LEASE_LOST',
        message: 'The step is CANCELLED',
      });
      await expect(
        engine.complete(org, plan!.step.id, plan!.leaseToken, {
          status: 'FAILED',
        }),
      ).rejects.toMatchObject({ status: 409 });
      const logs = await stores.pipelineRuns.listLogs(plan!.step.id, {
        limit: 10,
      });
      expect(logs.items.map(l => l.text)).toEqual([
        'The run was cancelled by Ada; runner runner-that-abandons is stopping the step',
        'Interrupt received.',
        'The run was cancelled by Ada; runner runner-that-abandons did not report the step within 1 s, and its later lines are not kept',
      ]);
      expect(
        (await stores.pipelineRuns.getStep(org, plan!.step.id))?.status,
      ).toBe('CANCELLED');
    });

    it.each([
      ['another runner than the plan', 'runner-b', true],
      ['the runner of the plan', 'runner-a', false],
    ])(
      'explains a PLAN_CHANGED apply on %s by the runners that planned and applied',
      async (_, applier, explained) => {
        const { stores, seed, engine } = await setup();
        const org = seed.organizationId;
        const queued = await queueStackRun(stores, seed, 0);
        await engine.admit(queued.id);
        const plan = await engine.claim(org, 'runner-a');
        await engine.complete(org, plan!.step.id, plan!.leaseToken, {
          status: 'SUCCEEDED',
        });
        await engine.approve(
          (await stores.pipelineRuns.getRunForEngine(queued.id))!,
          true,
        );
        const apply = await engine.claim(org, applier);
        await engine.complete(org, apply!.step.id, apply!.leaseToken, {
          status: 'FAILED',
          error: {
            code: 'InfraDelivery:Runner:PLAN_CHANGED',
            message: 'The plan changed since it was approved',
          },
        });

        const run = await stores.pipelineRuns.getRunForEngine(queued.id);
        expect(run?.status).toBe('FAILED');
        expect(run?.error?.code).toBe('InfraDelivery:Runner:PLAN_CHANGED');
        expect(run?.error?.description).toBe(
          explained
            ? 'The plan ran on runner runner-a and this step on runner runner-b. If the state or the working directory is local to each runner, they plan against different states: use a remote state backend shared by the runners, or run one runner for these stacks.'
            : undefined,
        );
      },
    );

    it('queues a step again as a new attempt when its lease expires', async () => {
      const { stores, seed, engine } = await setup({ leaseSeconds: 1 });
      const org = seed.organizationId;
      const run = await queueStackRun(stores, seed, 0);
      await engine.admit(run.id);
      const lost = await engine.claim(org, 'runner-that-dies');
      await new Promise(resolve => setTimeout(resolve, 1200));

      expect(await engine.expireLeases()).toBe(1);
      const requeued = await stores.pipelineRuns.getRunForEngine(run.id);
      expect(requeued?.attemptEpoch).toBe(2);
      expect(requeued?.engineRunId).toBe(`${run.id}/attempt-2`);

      await expect(
        engine.complete(org, lost!.step.id, lost!.leaseToken, {
          status: 'SUCCEEDED',
        }),
      ).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:Runner:LEASE_LOST',
      });
      await expect(
        engine.heartbeat(org, lost!.step.id, lost!.leaseToken),
      ).rejects.toMatchObject({ status: 409 });

      const retried = await engine.claim(org, 'runner-2');
      expect(retried?.step.id).toBe(lost!.step.id);
      expect(retried?.step.attemptEpoch).toBe(2);
    });

    it('renews a lease past its time that no other attempt took, and takes its report', async () => {
      // The runner was cut off from the service for longer than the lease while its apply went
      // on; the step was not queued again yet.
      const { stores, seed, engine } = await setup({ leaseSeconds: 1 });
      const org = seed.organizationId;
      const run = await queueStackRun(stores, seed, 0);
      await engine.admit(run.id);
      const claim = await engine.claim(org, 'runner-cut-off');
      await new Promise(resolve => setTimeout(resolve, 1200));

      const beat = await engine.heartbeat(
        org,
        claim!.step.id,
        claim!.leaseToken,
      );
      expect(Date.parse(beat.leaseExpiresAt)).toBeGreaterThan(Date.now());
      expect(await engine.expireLeases()).toBe(0);
      await new Promise(resolve => setTimeout(resolve, 1200));
      const step = await engine.complete(
        org,
        claim!.step.id,
        claim!.leaseToken,
        { status: 'SUCCEEDED' },
      );
      expect(step).toMatchObject({ status: 'SUCCEEDED', attemptEpoch: 1 });
      expect(await engine.claim(org, 'runner-2')).toBeUndefined();
    });

    it('expires no lease in the first lease after it started: its runners could not renew while it was down', async () => {
      const { stores, seed, engine } = await setup({ leaseSeconds: 1 });
      const org = seed.organizationId;
      const run = await queueStackRun(stores, seed, 0);
      await engine.admit(run.id);
      const claim = await engine.claim(org, 'runner-of-the-old-instance');
      await new Promise(resolve => setTimeout(resolve, 1200));

      // The instance restarts (down for longer than the lease).
      const restarted = recordingEngine(stores, 1).engine;
      expect(await restarted.expireLeases()).toBe(0);
      await restarted.heartbeat(org, claim!.step.id, claim!.leaseToken);
      // A runner that does not come back loses the step one lease later.
      await new Promise(resolve => setTimeout(resolve, 2200));
      expect(await restarted.expireLeases()).toBe(1);
      expect(
        (await stores.pipelineRuns.getRunForEngine(run.id))?.attemptEpoch,
      ).toBe(2);
    });

    it('expires no lease in the first lease after the instance woke from a pause: its runners could not renew while it was frozen', async () => {
      const { stores, seed, engine } = await setup({ leaseSeconds: 1 });
      const stopWatching = engine.watchForPauses();
      try {
        const org = seed.organizationId;
        const run = await queueStackRun(stores, seed, 0);
        await engine.admit(run.id);
        const claim = await engine.claim(org, 'runner-still-working');
        // The process is frozen (SIGSTOP, a suspended VM) for longer than the lease: no timer
        // runs, no request is answered. It wakes, and the scheduler's tick comes first.
        const frozenUntil = Date.now() + 1300;
        while (Date.now() < frozenUntil) {
          // frozen
        }
        expect(await engine.expireLeases()).toBe(0);
        // The runner's heartbeat, waiting in the socket, is answered next and renews.
        await engine.heartbeat(org, claim!.step.id, claim!.leaseToken);
        const step = await engine.complete(
          org,
          claim!.step.id,
          claim!.leaseToken,
          { status: 'SUCCEEDED' },
        );
        expect(step).toMatchObject({ status: 'SUCCEEDED', attemptEpoch: 1 });
        expect(
          (await stores.pipelineRuns.getRunForEngine(run.id))?.attemptEpoch,
        ).toBe(1);
      } finally {
        stopWatching();
      }
    });

    it('still expires the lease of a runner that stopped while the instance ran on, pause watch or not', async () => {
      const { stores, seed, engine } = await setup({ leaseSeconds: 1 });
      const stopWatching = engine.watchForPauses();
      try {
        const org = seed.organizationId;
        const run = await queueStackRun(stores, seed, 0);
        await engine.admit(run.id);
        await engine.claim(org, 'runner-that-dies');
        await new Promise(resolve => setTimeout(resolve, 1200));
        expect(await engine.expireLeases()).toBe(1);
      } finally {
        stopWatching();
      }
    });

    it('takes a late turn of a busy event loop, shorter than half a lease, for no pause', async () => {
      // The clock and the pause watch's timer only: the databases keep their own timers.
      jest.useFakeTimers({
        doNotFake: [
          'nextTick',
          'setImmediate',
          'clearImmediate',
          'setTimeout',
          'clearTimeout',
          'queueMicrotask',
          'hrtime',
          'performance',
        ],
      });
      const { stores, seed, engine } = await setup({ leaseSeconds: 2 });
      const stopWatching = engine.watchForPauses();
      try {
        const org = seed.organizationId;
        const run = await queueStackRun(stores, seed, 0);
        await engine.admit(run.id);
        await engine.claim(org, 'runner-that-dies');
        jest.advanceTimersByTime(1000);
        // A loaded machine runs the watch's timer 0.7 s late: more than a quarter of the lease
        // (the threshold that once kept a lapsed lease on CI), less than half.
        jest.setSystemTime(Date.now() + 700);
        jest.advanceTimersByTime(1500);
        expect(await engine.expireLeases()).toBe(1);
      } finally {
        stopWatching();
        jest.useRealTimers();
      }
    });

    it('does not queue a step again whose lease was renewed after the expiry read it', async () => {
      const { stores, seed, engine } = await setup({ leaseSeconds: 1 });
      const org = seed.organizationId;
      const run = await queueStackRun(stores, seed, 0);
      await engine.admit(run.id);
      const claim = await engine.claim(org, 'runner-1');
      await new Promise(resolve => setTimeout(resolve, 1200));
      const now = new Date().toISOString();
      const [expired] = await stores.pipelineRuns.expiredLeases(now, 10);
      expect(expired.id).toBe(claim!.step.id);

      await engine.heartbeat(org, claim!.step.id, claim!.leaseToken);
      expect(
        await stores.pipelineRuns.transitionExpiredLease(expired, now, {
          status: 'QUEUED',
        }),
      ).toBe(false);
      expect(
        (await stores.pipelineRuns.getStep(org, claim!.step.id))?.status,
      ).toBe('RUNNING');
    });

    it('moves on a run that a stopped instance left between two transactions', async () => {
      const { stores, seed, engine } = await setup();
      const org = seed.organizationId;
      const first = await queueStackRun(stores, seed, 0);
      const second = await queueStackRun(stores, seed, 0);
      await engine.admit(first.id);
      await engine.admit(second.id);

      /** A runner's report committed, and the instance gone before it started the next step. */
      async function reportedThenStopped() {
        const claim = await engine.claim(org, 'runner-1');
        expect(
          await stores.pipelineRuns.transitionStep(
            claim!.step.id,
            ['RUNNING'],
            {
              status: 'SUCCEEDED',
              completedAt: new Date().toISOString(),
              leaseTokenHash: null,
              leaseExpiresAt: null,
            },
          ),
        ).toBe(true);
      }
      const statuses = async (runId: string) =>
        (await stores.pipelineRuns.listSteps(runId)).map(s => s.status);

      await reportedThenStopped();
      expect(await statuses(first.id)).toEqual([
        'SUCCEEDED',
        'PENDING',
        'PENDING',
      ]);
      expect(await stores.pipelineRuns.stalledRunIds(10)).toEqual([first.id]);
      await engine.tick();
      expect(
        (await stores.pipelineRuns.getRunForEngine(first.id))?.status,
      ).toBe('WAITING_FOR_APPROVAL');

      await engine.approve(
        (await stores.pipelineRuns.getRunForEngine(first.id))!,
        true,
      );
      await reportedThenStopped();
      expect(
        (await stores.pipelineRuns.getRunForEngine(first.id))?.status,
      ).toBe('RUNNING');
      await engine.tick();
      expect(
        (await stores.pipelineRuns.getRunForEngine(first.id))?.status,
      ).toBe('SUCCEEDED');
      // The stack it held is free again: the held run is admitted and started.
      expect(
        (await stores.pipelineRuns.getRunForEngine(second.id))?.status,
      ).toBe('RUNNING');
      expect(await statuses(second.id)).toEqual([
        'QUEUED',
        'PENDING',
        'PENDING',
      ]);
      expect(await stores.pipelineRuns.stalledRunIds(10)).toEqual([]);
    });

    it('never hands a step of one organization to a runner of another', async () => {
      const { stores, seed, engine } = await setup();
      const other = await stores.organizations.create({ name: 'other' });
      const run = await queueStackRun(stores, seed, 0);
      await engine.admit(run.id);
      expect(await engine.claim(other.id, 'foreign-runner')).toBeUndefined();
      expect(
        await engine.claim(seed.organizationId, 'own-runner'),
      ).toBeDefined();
    });
  },
);
