import { mockServices } from '@backstage/backend-test-utils';
import { Knex } from 'knex';
import {
  migratedStores,
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
      const pipeline = await knex('pipelines')
        .where({ id: pipelineId })
        .first();
      return {
        runCount: Number(pipeline.run_count),
        pipelineLatest: [pipeline.latest_run_id, pipeline.latest_run_status],
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
