import { DriftStatus } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { nowTimestamp } from './timestamps';

/** A stack whose scheduled drift check is due. */
export interface DueDriftCheck {
  stackId: string;
  organizationId: string;
  intervalHours: number;
  /** The due time read, for the compare-and-set that takes the check. */
  nextDriftCheckAt: string;
}

/** The drift columns of stacks: the schedule and what the latest drift check found. */
export class StackDriftStore {
  constructor(private readonly db: Knex) {}

  /** Stacks across organizations whose drift check is due, the longest overdue first. */
  async due(now: string, limit: number): Promise<DueDriftCheck[]> {
    const rows = await this.db('stacks')
      .whereNotNull('drift_check_interval_hours')
      .where('next_drift_check_at', '<=', now)
      .orderBy('next_drift_check_at', 'asc')
      .limit(limit)
      .select(
        'id',
        'organization_id',
        'drift_check_interval_hours',
        'next_drift_check_at',
      );
    return rows.map(row => ({
      stackId: row.id,
      organizationId: row.organization_id,
      intervalHours: row.drift_check_interval_hours,
      nextDriftCheckAt:
        row.next_drift_check_at instanceof Date
          ? row.next_drift_check_at.toISOString()
          : row.next_drift_check_at,
    }));
  }

  /**
   * Moves a due check's time on to `nextAt`; false when another instance took it first (the
   * due time it read is no longer the stack's).
   */
  async takeDueCheck(check: DueDriftCheck, nextAt: string): Promise<boolean> {
    const updated = await this.db('stacks')
      .where({ id: check.stackId })
      .where('next_drift_check_at', check.nextDriftCheckAt)
      .update({ next_drift_check_at: nextAt });
    return updated === 1;
  }

  /** What a drift check found. `driftedResourceCount` is absent when it could not plan. */
  async recordOutcome(
    stackId: string,
    outcome: {
      runId: string;
      driftStatus: DriftStatus;
      driftedResourceCount?: number;
    },
  ): Promise<void> {
    const now = nowTimestamp();
    await this.db('stacks')
      .where({ id: stackId })
      .update({
        drift_status: outcome.driftStatus,
        drifted_resource_count: outcome.driftedResourceCount ?? null,
        last_drift_check_at: now,
        last_drift_check_run_id: outcome.runId,
        updated_at: now,
      });
  }

  /**
   * After a successful apply the infrastructure is what the code says: a stack that drift
   * checks watch is in sync again until the next check says otherwise.
   */
  async recordReconciled(stackId: string): Promise<void> {
    await this.db('stacks')
      .where({ id: stackId })
      .whereNotNull('last_drift_check_at')
      .update({
        drift_status: 'IN_SYNC',
        drifted_resource_count: 0,
        updated_at: nowTimestamp(),
      });
  }
}
