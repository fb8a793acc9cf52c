import { setTimeout as sleep } from 'node:timers/promises';
import { PipelineRunStore } from '../database/PipelineRunStore';

/** Plan summaries per transaction: a few milliseconds of writes, on SQLite too. */
const BATCH = 200;
/** Between two batches, for the requests waiting on the database (one connection on SQLite). */
const PAUSE_MS = 20;
/** How long one run of the task copies before it leaves the rest to its next run. */
const BUDGET_MS = 50_000;

/**
 * Gives the runs planned before runs carried their change summary (migration 20261207N0000)
 * the summary of their latest plan, batch by batch, until none is left or the time is up;
 * once it is done, each run of the task is one read of a missing row.
 */
export async function backfillRunChangeSummaries(
  runs: Pick<PipelineRunStore, 'backfillChangeSummaries'>,
  options: { batch?: number; pauseMs?: number; budgetMs?: number } = {},
): Promise<void> {
  const { batch = BATCH, pauseMs = PAUSE_MS, budgetMs = BUDGET_MS } = options;
  const until = Date.now() + budgetMs;
  while (!(await runs.backfillChangeSummaries(batch))) {
    if (Date.now() >= until) return;
    await sleep(pauseMs);
  }
}
