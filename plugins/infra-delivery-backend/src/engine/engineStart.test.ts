import { mockServices } from '@backstage/backend-test-utils';
import { Knex } from 'knex';
import {
  migratedStores,
  pipelineRunTally,
  recordingEngine,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { CreateRunInput } from '../database/PipelineRunStore';
import { PipelineEngine } from './PipelineEngine';

jest.setTimeout(120_000);

const databases = createTestDatabases();

/** The statements `knex` runs while `work` does, as their SQL. */
async function statementsOf(
  knex: Knex,
  work: () => Promise<unknown>,
): Promise<string[]> {
  const seen: string[] = [];
  const listener = (query: { sql: string }) => void seen.push(query.sql);
  knex.on('query', listener);
  try {
    await work();
  } finally {
    knex.removeListener('query', listener);
  }
  return seen;
}

const isCommit = (sql: string) => /^\s*commit\b/i.test(sql);
const isWrite = (sql: string) => /^\s*(insert|update|delete)\b/i.test(sql);

describe.each(databases.eachSupportedId())(
  'PipelineEngine.start on %s',
  databaseId => {
    async function setup() {
      const knex = await databases.init(databaseId);
      const stores = await migratedStores(knex);
      const seed = await seedStacks(stores, 1);
      const { engine, changes } = recordingEngine(stores);
      const [stack] = seed.stacks;
      const version = await stores.pipelines.getVersion(
        seed.organizationId,
        stack.versionId,
      );
      const input = (extra: Partial<CreateRunInput> = {}): CreateRunInput => ({
        organizationId: seed.organizationId,
        pipelineId: stack.pipelineId,
        pipelineVersionId: stack.versionId,
        projectId: seed.projectId,
        attachedEntityId: stack.stackId,
        attachedEntityType: 'STACK',
        steps: version!.steps,
        ...extra,
      });
      return { knex, stores, seed, stack, engine, changes, input };
    }

    async function pointers(
      knex: Knex,
      { stackId, pipelineId }: { stackId: string; pipelineId: string },
    ) {
      const stack = await knex('stacks').where({ id: stackId }).first();
      return {
        ...(await pipelineRunTally(knex, pipelineId)),
        stackLatest: stack.latest_run_id,
      };
    }

    it('creates, admits and starts a run in one commit, its pointers and count included, and announces it after', async () => {
      const { knex, stores, stack, engine, changes, input } = await setup();
      let run: Awaited<ReturnType<typeof engine.start>> | undefined;
      const statements = await statementsOf(knex, async () => {
        run = await engine.start(input({ description: 'first' }));
      });

      expect(statements.filter(isCommit)).toHaveLength(1);
      // Every write is inside that one transaction: none after its commit.
      const commitAt = statements.findIndex(isCommit);
      expect(statements.slice(commitAt + 1).filter(isWrite)).toEqual([]);
      const current = await stores.pipelineRuns.getRunForEngine(run!.id);
      expect(current?.status).toBe('RUNNING');
      expect(
        (await stores.pipelineRuns.listSteps(run!.id)).map(s => s.status),
      ).toEqual(['QUEUED', 'PENDING', 'PENDING']);
      expect(await pointers(knex, stack)).toEqual({
        runCount: 1,
        pipelineLatest: [run!.id, 'RUNNING'],
        stackLatest: run!.id,
      });
      // Created, admitted, its first step started: the statuses views have always been told.
      expect(changes).toEqual([
        expect.objectContaining({
          runId: run!.id,
          status: 'QUEUED',
          attachedEntityId: stack.stackId,
          pipelineId: stack.pipelineId,
        }),
        expect.objectContaining({ runId: run!.id, status: 'RUNNING' }),
        expect.objectContaining({ runId: run!.id, status: 'RUNNING' }),
      ]);
    });

    it('admits a run of a free stack inside its admission lock with one read and one write, and returns it as committed', async () => {
      const { knex, stores, stack, engine, input } = await setup();
      let run: Awaited<ReturnType<typeof engine.start>> | undefined;
      const statements = await statementsOf(knex, async () => {
        run = await engine.start(input());
      });

      // The lock, the read that finds no run holding the stack or waiting for it, then the
      // run, its steps, the pipeline's count and the stack's pointer: one statement
      // on PostgreSQL, inside the transaction that holds the lock until its commit.
      const label = (sql: string) =>
        [
          ['BEGIN', /^\s*begin\b/i],
          ['COMMIT', /^\s*commit\b/i],
          ['lock', /pg_advisory_xact_lock/i],
          ['free?', /^select ["`]id["`] from ["`]pipeline_runs["`]/i],
          ['run', /insert into ["`]pipeline_runs["`]/i],
          ['steps', /insert into ["`]step_executions["`]/i],
          ['pipeline', /insert into ["`]pipeline_run_counters["`]/i],
          ['stack', /update ["`]stacks["`] set ["`]latest_run_id["`]/i],
        ]
          .filter(([, pattern]) => (pattern as RegExp).test(sql))
          .map(([name]) => name)
          .join(' + ') || sql;
      expect(statements.map(label)).toEqual(
        databaseId.startsWith('POSTGRES')
          ? [
              'BEGIN',
              'lock',
              'free?',
              'run + steps + pipeline + stack',
              'COMMIT',
            ]
          : ['BEGIN', 'free?', 'run', 'steps', 'pipeline', 'stack', 'COMMIT'],
      );
      expect(run).toEqual(await stores.pipelineRuns.getRunForEngine(run!.id));
      expect(run).toMatchObject({
        status: 'RUNNING',
        attachedEntityId: stack.stackId,
        engineRunId: `${run!.id}/attempt-1`,
      });
      expect(await pointers(knex, stack)).toEqual({
        runCount: 1,
        pipelineLatest: [run!.id, 'RUNNING'],
        stackLatest: run!.id,
      });
    });

    it('holds a new run behind an older queued run of the stack even when no run holds it', async () => {
      const { knex, stores, engine, input } = await setup();
      const first = await engine.start(input());
      const second = await engine.start(input());
      // The holder gone without its release (a crash between its end and the admission of
      // the next): the stack is held by nothing, but a run waits for it.
      await knex('pipeline_runs')
        .where({ id: first.id })
        .update({ status: 'FAILED' });
      const third = await engine.start(input());
      const held = await stores.pipelineRuns.getRunForEngine(third.id);
      expect(held).toMatchObject({
        status: 'QUEUED',
        queueState: { reason: 'STACK_BUSY', blockingRunId: second.id },
      });
      expect(held?.queueReason).toContain('has an older queued run');
      expect(
        (await stores.pipelineRuns.getRunForEngine(second.id))?.status,
      ).toBe('QUEUED');
    });

    describe('a run attached to nothing', () => {
      /** A pipeline of `steps` in the seeded project, and the input of a run of it. */
      async function freePipeline(
        stores: Awaited<ReturnType<typeof setup>>['stores'],
        seed: Awaited<ReturnType<typeof setup>>['seed'],
        steps: CreateRunInput['steps'],
      ) {
        const pipeline = await stores.pipelines.create({
          organizationId: seed.organizationId,
          projectId: seed.projectId,
          givenId: `free-${steps.length}-${steps[0]?.type ?? 'none'}`,
          name: 'Free',
          steps,
        });
        return {
          pipeline,
          input: {
            organizationId: seed.organizationId,
            pipelineId: pipeline.id,
            pipelineVersionId: pipeline.latestVersionId!,
            projectId: seed.projectId,
            steps,
          } satisfies CreateRunInput,
        };
      }

      it('is written once, already admitted with its first step queued, and returned as committed', async () => {
        const { knex, stores, seed, engine, changes } = await setup();
        const { pipeline, input } = await freePipeline(stores, seed, [
          { type: 'iac.plan', name: 'Plan' },
          { type: 'iac.apply', name: 'Apply' },
        ]);
        let run: Awaited<ReturnType<typeof engine.start>> | undefined;
        const statements = await statementsOf(knex, async () => {
          run = await engine.start(input);
        });

        // One insert of the run, one of its steps, the pipeline's count: no update of a run,
        // step or pipeline row, and no read of them. On PostgreSQL the three are one
        // statement, atomic without a transaction; on SQLite one transaction.
        const writes: [string, RegExp][] = [
          ['run', /insert into ["`]pipeline_runs["`]/i],
          ['steps', /insert into ["`]step_executions["`]/i],
          ['count', /insert into ["`]pipeline_run_counters["`]/i],
        ];
        const label = (sql: string) =>
          /^\s*(begin|commit)\b/i.test(sql)
            ? sql.trim().replace(/;$/, '').toUpperCase()
            : writes
                .filter(([, pattern]) => pattern.test(sql))
                .map(([name]) => name)
                .join(' + ') || sql;
        expect(statements.map(label)).toEqual(
          databaseId.startsWith('POSTGRES')
            ? ['run + steps + count']
            : ['BEGIN', 'run', 'steps', 'count', 'COMMIT'],
        );

        expect(run).toEqual(await stores.pipelineRuns.getRunForEngine(run!.id));
        expect(run).toMatchObject({
          status: 'RUNNING',
          queueState: { preflightBlockedByAdmissionCondition: false },
          engineRunId: `${run!.id}/attempt-1`,
        });
        expect(run!.startedAt).toBeDefined();
        const steps = await stores.pipelineRuns.listSteps(run!.id);
        expect(steps.map(s => [s.name, s.status, s.attemptEpoch])).toEqual([
          ['Plan', 'QUEUED', 1],
          ['Apply', 'PENDING', 1],
        ]);
        expect(await pipelineRunTally(knex, pipeline.id)).toEqual({
          runCount: 1,
          pipelineLatest: [run!.id, 'RUNNING'],
        });
        expect(changes.map(c => [c.runId, c.status])).toEqual([
          [run!.id, 'QUEUED'],
          [run!.id, 'RUNNING'],
          [run!.id, 'RUNNING'],
        ]);
      });

      it('waits for its first approval, and finishes at once without steps', async () => {
        const { knex, stores, seed, engine, changes } = await setup();
        const approval = await freePipeline(stores, seed, [
          { type: 'approval', name: 'Approve' },
          { type: 'iac.apply', name: 'Apply' },
        ]);
        const waiting = await engine.start(approval.input);
        expect(waiting.status).toBe('WAITING_FOR_APPROVAL');
        expect(waiting).toEqual(
          await stores.pipelineRuns.getRunForEngine(waiting.id),
        );
        const [first] = await stores.pipelineRuns.listSteps(waiting.id);
        expect(first.status).toBe('WAITING_FOR_APPROVAL');
        expect(first.startedAt).toBeDefined();
        expect(changes.map(c => c.status)).toEqual([
          'QUEUED',
          'RUNNING',
          'WAITING_FOR_APPROVAL',
        ]);

        changes.length = 0;
        const empty = await freePipeline(stores, seed, []);
        const done = await engine.start(empty.input);
        expect(done.status).toBe('SUCCEEDED');
        expect(done.completedAt).toBeDefined();
        expect(await stores.pipelineRuns.listSteps(done.id)).toEqual([]);
        expect(await pipelineRunTally(knex, empty.pipeline.id)).toEqual({
          runCount: 1,
          pipelineLatest: [done.id, 'SUCCEEDED'],
        });
        expect(changes.map(c => c.status)).toEqual([
          'QUEUED',
          'RUNNING',
          'SUCCEEDED',
        ]);
      });
    });

    it('announces only after the commit: a listener reads the run as announced', async () => {
      const { knex, stores, input } = await setup();
      const seen: (string | undefined)[] = [];
      const listening = new PipelineEngine({
        stores,
        logger: mockServices.logger.mock(),
        events: {
          runChanged: async change => {
            // A second connection's read on PostgreSQL; SQLite's one connection would wait
            // for the transaction to end, so the read also shows it is over.
            const row = await knex('pipeline_runs')
              .where({ id: change.runId })
              .first();
            seen.push(row?.status);
          },
        },
      });
      await listening.start(input());
      expect(seen).toEqual(['RUNNING', 'RUNNING', 'RUNNING']);
    });

    it('holds a second run of the stack in the same commit, counted and pointed at', async () => {
      const { knex, stores, stack, engine, changes, input } = await setup();
      const first = await engine.start(input());
      changes.length = 0;
      let second: typeof first | undefined;
      const statements = await statementsOf(knex, async () => {
        second = await engine.start(input());
      });
      expect(statements.filter(isCommit)).toHaveLength(1);
      const held = await stores.pipelineRuns.getRunForEngine(second!.id);
      expect(held?.status).toBe('QUEUED');
      expect(held?.queueReason).toContain('is busy with run');
      expect(held?.queueState).toMatchObject({
        reason: 'STACK_BUSY',
        blockingRunId: first.id,
      });
      expect(await pointers(knex, stack)).toEqual({
        runCount: 2,
        pipelineLatest: [second!.id, 'QUEUED'],
        stackLatest: second!.id,
      });
      expect(changes.map(c => [c.runId, c.status])).toEqual([
        [second!.id, 'QUEUED'],
      ]);
    });

    it('skips a drift check started on a busy stack, and lets a drift check give way to a change run', async () => {
      const { knex, stores, stack, engine, changes, input } = await setup();
      const planOnly = input().steps.filter(s => s.type === 'iac.plan');
      const change = await engine.start(input());
      const skipped = await engine.start(
        input({ kind: 'DRIFT_CHECK', steps: planOnly }),
      );
      expect(
        (await stores.pipelineRuns.getRunForEngine(skipped.id))?.status,
      ).toBe('CANCELLED');
      expect(
        changes.filter(c => c.runId === skipped.id).map(c => c.status),
      ).toEqual(['QUEUED', 'CANCELLED']);

      // The stack free again, a drift check holds it until a change run arrives: it gives way
      // while its plan is not yet running.
      await engine.cancel(change);
      const check = await engine.start(
        input({ kind: 'DRIFT_CHECK', steps: planOnly }),
      );
      expect(
        (await stores.pipelineRuns.getRunForEngine(check.id))?.status,
      ).toBe('RUNNING');
      changes.length = 0;
      const next = await engine.start(input());
      expect(
        (await stores.pipelineRuns.getRunForEngine(check.id))?.status,
      ).toBe('CANCELLED');
      expect((await stores.pipelineRuns.getRunForEngine(next.id))?.status).toBe(
        'RUNNING',
      );
      expect(changes.map(c => [c.runId, c.status])).toEqual([
        [next.id, 'QUEUED'],
        [check.id, 'CANCELLED'],
        [next.id, 'RUNNING'],
        [next.id, 'RUNNING'],
      ]);
      expect(await pointers(knex, stack)).toEqual({
        runCount: 4,
        pipelineLatest: [next.id, 'RUNNING'],
        stackLatest: next.id,
      });
    });
  },
);
