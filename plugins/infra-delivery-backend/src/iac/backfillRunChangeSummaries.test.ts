import {
  migratedStores,
  queueStackRun,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { newId } from '../database/ids';
import { Stores } from '../database/stores';
import { backfillRunChangeSummaries } from './backfillRunChangeSummaries';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const COUNTS = {
  addCount: 0,
  changeCount: 0,
  destroyCount: 0,
  importCount: 0,
  readCount: 0,
  replaceCount: 0,
  unchangedCount: 4,
};

describe.each(databases.eachSupportedId())(
  'backfillRunChangeSummaries on %s',
  databaseId => {
    async function summaryOf(
      stores: Stores,
      run: { id: string; organizationId: string; pipelineId: string },
      stackId: string,
      runType: 'PLAN' | 'APPLY',
      counts: Partial<typeof COUNTS>,
      applyable: boolean,
    ) {
      await stores.iacResults.insertSummary(
        {
          organizationId: run.organizationId,
          pipelineId: run.pipelineId,
          pipelineRunId: run.id,
          stepExecutionId: newId(),
          stackId,
          runType,
        },
        { ...COUNTS, ...counts },
        { applyable },
      );
    }

    it("gives the runs planned before the migration their latest plan's summary, batch by batch", async () => {
      const knex = await databases.init(databaseId);
      const stores = await migratedStores(knex);
      const seed = await seedStacks(stores, 4);
      const [replanned, unchanged, applied, ingested] = await Promise.all(
        [0, 1, 2, 3].map(i => queueStackRun(stores, seed, i)),
      );
      const stackOf = (i: number) => seed.stacks[i].stackId;
      // Planned twice (a new attempt): the second plan is the run's.
      await summaryOf(
        stores,
        replanned,
        stackOf(0),
        'PLAN',
        { addCount: 9 },
        true,
      );
      await summaryOf(stores, unchanged, stackOf(1), 'PLAN', {}, false);
      await summaryOf(
        stores,
        replanned,
        stackOf(0),
        'PLAN',
        { addCount: 2, destroyCount: 1 },
        true,
      );
      // The apply's summary is not the plan's.
      await summaryOf(
        stores,
        applied,
        stackOf(2),
        'PLAN',
        { changeCount: 3, importCount: 1 },
        true,
      );
      await summaryOf(
        stores,
        applied,
        stackOf(2),
        'APPLY',
        { changeCount: 7 },
        false,
      );
      // Ingested after the migration, by the new code: kept as it is.
      await summaryOf(
        stores,
        ingested,
        stackOf(3),
        'PLAN',
        { addCount: 5 },
        true,
      );
      await stores.pipelineRuns.recordChangeSummary(ingested.id, {
        add: 1,
        change: 0,
        destroy: 0,
        import: 0,
        noChanges: false,
      });
      const summaryNow = async (id: string) =>
        (await stores.pipelineRuns.getRun(seed.organizationId, id))
          ?.changeSummary;
      expect(await summaryNow(replanned.id)).toBeUndefined();

      const batches = jest.spyOn(
        stores.pipelineRuns,
        'backfillChangeSummaries',
      );
      await backfillRunChangeSummaries(stores.pipelineRuns, {
        batch: 2,
        pauseMs: 0,
      });
      // Five plan summaries, two at a time, and the call that finds none left.
      expect(batches).toHaveBeenCalledTimes(4);

      expect(await summaryNow(replanned.id)).toEqual({
        add: 2,
        change: 0,
        destroy: 1,
        import: 0,
        noChanges: false,
      });
      expect(await summaryNow(unchanged.id)).toEqual({
        add: 0,
        change: 0,
        destroy: 0,
        import: 0,
        noChanges: true,
      });
      expect(await summaryNow(applied.id)).toEqual({
        add: 0,
        change: 3,
        destroy: 0,
        import: 1,
        noChanges: false,
      });
      expect((await summaryNow(ingested.id))?.add).toBe(1);

      // Done: the task's next runs read one missing row.
      expect(await knex('run_change_summary_backfill')).toEqual([]);
      batches.mockClear();
      await backfillRunChangeSummaries(stores.pipelineRuns);
      expect(batches).toHaveBeenCalledTimes(1);
      await knex.destroy();
    });

    it('leaves the rest to its next run when its time is up', async () => {
      const knex = await databases.init(databaseId);
      const stores = await migratedStores(knex);
      const seed = await seedStacks(stores, 3);
      for (let i = 0; i < 3; i++) {
        const run = await queueStackRun(stores, seed, i);
        await summaryOf(stores, run, seed.stacks[i].stackId, 'PLAN', {}, false);
      }
      await backfillRunChangeSummaries(stores.pipelineRuns, {
        batch: 1,
        pauseMs: 0,
        budgetMs: 0,
      });
      const filled = await knex('pipeline_runs').whereNotNull(
        'plan_no_changes',
      );
      expect(filled).toHaveLength(1);
      expect(await knex('run_change_summary_backfill')).toHaveLength(1);
      await knex.destroy();
    });
  },
);
