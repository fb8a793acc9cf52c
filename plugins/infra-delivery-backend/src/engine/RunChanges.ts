import { RunStatus } from '@infra-delivery/plugin-infra-delivery-common';
import { RunRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { RunStatusChange } from './RunEvents';

/**
 * What one of the engine's transactions did to runs: the run counts and the stacks' latest-run
 * pointers it writes before its commit, and the announcements that go out after it, in the
 * order the changes happened. (A pipeline's latest run and its status are read from the runs
 * themselves: nothing on the pipeline changes with them.)
 *
 * Only a run the transaction moved (created it, or won a compare-and-set on its status) has its
 * stack's pointer written: that transaction holds the run's row until it commits, so the pointer
 * writes of one run's transitions land in the order of the transitions. A run the transaction
 * only read is announced as read, and leaves the pointers to whichever transaction moved it.
 *
 * These writes come last in the transaction, the created runs' counts before the stacks'
 * pointers (each in id order), so that on PostgreSQL every engine transaction takes its locks in
 * one order: an entity's admission lock, then runs and their steps, then run counters, then
 * stacks. Two transactions that both change runs of one stack then wait for each other instead
 * of deadlocking.
 */
export class RunChanges {
  private readonly changes: RunStatusChange[] = [];
  /** Runs this transaction created, to be counted in their pipelines. */
  private readonly created = new Map<string, RunRecord>();
  /** The stack whose pointer each changed run moves, by run id. */
  private readonly stacks = new Map<string, string>();

  /** A run this transaction moved to `status`: announced after commit, its pointers written. */
  record(run: RunRecord, status: RunStatus = run.status): void {
    this.announce(run, status);
    if (run.attachedEntityType === 'STACK' && run.attachedEntityId) {
      this.stacks.set(run.id, run.attachedEntityId);
    }
  }

  /**
   * A run recorded as moved whose next compare-and-set this transaction lost: another
   * transaction moved it meanwhile and writes its pointers; its announcement stays.
   */
  withdraw(runId: string): void {
    if (!this.created.has(runId)) {
      this.stacks.delete(runId);
    }
  }

  /** A run this transaction read but did not move: announced after commit only. */
  announce(run: RunRecord, status: RunStatus = run.status): RunStatusChange {
    const change: RunStatusChange = {
      organizationId: run.organizationId,
      runId: run.id,
      pipelineId: run.pipelineId,
      attachedEntityId: run.attachedEntityId,
      status,
      kind: run.kind,
    };
    this.changes.push(change);
    return change;
  }

  /** A run inserted in the transaction without its pipeline's count: counted with the pointers. */
  recordCreated(run: RunRecord): void {
    this.created.set(run.id, run);
    this.record(run);
  }

  get announcements(): readonly RunStatusChange[] {
    return this.changes;
  }

  /** Counts each created run in its pipeline and writes each moved run's stack pointer. */
  async writePointers(tx: Stores): Promise<void> {
    const created = [...this.created.values()].sort(
      (a, b) => compare(a.pipelineId, b.pipelineId) || compare(a.id, b.id),
    );
    for (const run of created) {
      await tx.pipelines.countRun(run.organizationId, run.pipelineId);
    }
    const byStack = [...this.stacks.entries()].sort(
      ([runA, stackA], [runB, stackB]) =>
        compare(stackA, stackB) || compare(runA, runB),
    );
    for (const [runId, stackId] of byStack) {
      await tx.stacks.recordLatestRun(stackId, runId);
    }
  }
}

function compare(a: string, b: string): number {
  if (a === b) {
    return 0;
  }
  return a < b ? -1 : 1;
}
