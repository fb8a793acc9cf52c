import {
  Runner,
  RunnerOfflineCause,
  RunnerStatus,
  StepExecution,
  StepLease,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { isUniqueViolation } from './dbErrors';
import { readRows } from './directReads';
import { leaseOf } from './PipelineRunStore';
import { newId } from './ids';
import { fromJsonColumn } from './json';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { optional, toOptionalTimestamp, toTimestamp } from './timestamps';

interface RunnerRow {
  id: string;
  organization_id: string;
  runner_id: string;
  /** The runner's process, as its claims name it; '' when they name none. */
  instance_id: string;
  service_account_id: string;
  /** Joined when listed; null once the account is deleted. */
  service_account_name: string | null;
  labels: string;
  version: string | null;
  hostname: string | null;
  poll_interval_ms: number | null;
  current_step_execution_id: string | null;
  /** Of the step it works on, joined when listed. */
  current_pipeline_run_id: string | null;
  current_step_name: string | null;
  current_step_status: StepExecution['status'] | null;
  current_step_lease_runner_id: string | null;
  current_step_lease_runner_instance_id: string | null;
  current_step_lease_renewed_at: string | Date | null;
  current_step_started_at: string | Date | null;
  current_step_lease_heartbeat_interval_ms: number | null;
  current_step_lease_expires_at: string | Date | null;
  first_seen_at: string | Date;
  last_seen_at: string | Date;
  /** When its held claim lost its connection unanswered, until it asks again. */
  claim_dropped_at: string | Date | null;
  signed_off_at: string | Date | null;
  offline_cause: RunnerOfflineCause | null;
  offline_by: string | null;
  api_key_id: string | null;
}

/** What a runner says of itself when it claims work. */
export interface RunnerSighting {
  organizationId: string;
  runnerId: string;
  /** Its process, where it names one (the reference runner makes one up at start). */
  instanceId?: string;
  serviceAccountId: string;
  /** The API key it signed in with, where the caller used one. */
  apiKeyId?: string;
  labels: string[];
  version?: string;
  hostname?: string;
  /** How long it waits between claims when it finds no work, if it says. */
  pollIntervalMs?: number;
  /** The step it was handed, or null when it found no work. */
  currentStepExecutionId: string | null;
  seenAt: string;
}

/** Runners seen at or after `onlineSince` are ONLINE; rows seen before `keptSince` are gone. */
export interface RunnerWindow {
  onlineSince: string;
  keptSince: string;
}

/**
 * Runners seen at or after `onlineSince`, not signed off since and not turned OFFLINE by the
 * service (`offline_cause`): the ONLINE ones, as the list's status filter and the count of
 * waiting runs' runners read them (`toRunner` says the same of one row).
 */
function whereOnline<Q extends Knex.QueryBuilder>(
  query: Q,
  onlineSince: string,
): Q {
  return query
    .where('runners.last_seen_at', '>=', onlineSince)
    .whereNull('runners.signed_off_at')
    .whereNull('runners.offline_cause') as Q;
}

/**
 * The runner's lease on the step it works on, while it holds it: a step whose lease ran out and
 * went to another runner is no longer this one's.
 */
function currentStepLeaseOf(row: RunnerRow): StepLease | undefined {
  if (!row.current_step_status) {
    return undefined;
  }
  const lease = leaseOf({
    status: row.current_step_status,
    leaseRunnerId: optional(row.current_step_lease_runner_id),
    leaseRenewedAt: toOptionalTimestamp(row.current_step_lease_renewed_at),
    leaseExpiresAt: toOptionalTimestamp(row.current_step_lease_expires_at),
    runnerName: optional(row.service_account_name),
    runnerLastSeenAt: toTimestamp(row.last_seen_at),
    startedAt: toOptionalTimestamp(row.current_step_started_at),
    leaseHeartbeatIntervalMs: optional(
      row.current_step_lease_heartbeat_interval_ms,
    ),
  });
  return lease?.runnerId === row.runner_id &&
    (row.current_step_lease_runner_instance_id ?? '') === row.instance_id
    ? lease
    : undefined;
}

function toRunner(row: RunnerRow, onlineSince: string): Runner {
  const lastSeenAt = toTimestamp(row.last_seen_at);
  const signedOffAt = toOptionalTimestamp(row.signed_off_at);
  const currentStepLease = currentStepLeaseOf(row);
  return {
    runnerId: row.runner_id,
    ...(row.instance_id ? { instanceId: row.instance_id } : {}),
    serviceAccountId: row.service_account_id,
    serviceAccountName: optional(row.service_account_name),
    labels: fromJsonColumn<string[]>(row.labels) ?? [],
    version: optional(row.version),
    hostname: optional(row.hostname),
    pollIntervalMs: optional(row.poll_interval_ms),
    firstSeenAt: toTimestamp(row.first_seen_at),
    lastSeenAt,
    ...(row.claim_dropped_at
      ? { claimDroppedAt: toTimestamp(row.claim_dropped_at) }
      : {}),
    status:
      lastSeenAt >= onlineSince && !signedOffAt && !row.offline_cause
        ? 'ONLINE'
        : 'OFFLINE',
    currentStepExecutionId: optional(row.current_step_execution_id),
    currentPipelineRunId: optional(row.current_pipeline_run_id),
    currentStepName: optional(row.current_step_name),
    ...(currentStepLease ? { currentStepLease } : {}),
    signedOffAt,
    offlineCause: optional(row.offline_cause),
    offlineBy: optional(row.offline_by),
  };
}

/**
 * The runners that can no longer report: those that claimed with the revoked API key
 * (`apiKeyId`) and, given `serviceAccountId`, all of that account's (deleted, or left without a
 * key).
 */
export interface RevokedRunners {
  organizationId: string;
  apiKeyId?: string;
  serviceAccountId?: string;
  cause: Extract<RunnerOfflineCause, 'KEY_REVOKED' | 'ACCOUNT_DELETED'>;
  /** Who revoked the key or deleted the account, as people call them. */
  by?: string;
}

/** A runner the service turned OFFLINE while it held a step, now queued again. */
export interface LostRunner {
  runnerId: string;
  stepExecutionId: string;
  cause: RunnerOfflineCause;
  by?: string;
}

/**
 * An organization's ONLINE runners, how many of them hold a step, and of the free ones: when the
 * latest was last seen, the longest poll interval they said, and one's id (to name it when it is
 * the only one).
 */
export interface OnlineRunners {
  online: number;
  busy: number;
  freeLastSeenAt?: string;
  freePollIntervalMs?: number;
  freeRunnerId?: string;
  /**
   * When the last of the free runners' held claims lost its connection unanswered, where every
   * free runner's did and none has asked for work since (`claim_dropped_at`, on every instance).
   */
  freeDroppedAt?: string;
}

/** An ONLINE runner process, as `listOnline` reads it. */
export interface OnlineRunner {
  runnerId: string;
  labels: string[];
  /** It holds a step. */
  busy: boolean;
  lastSeenAt: string;
  pollIntervalMs?: number;
  claimDroppedAt?: string;
}

/** The later of two timestamps, either absent. */
function later(a: string | undefined, b: string | undefined) {
  if (a === undefined || b === undefined) {
    return a ?? b;
  }
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * How many of `runners` there are and how many hold a step, and of the free ones when the
 * latest was last seen, the longest poll interval they said, one's id (the first by id), and
 * when the last of their held claims dropped where every one did.
 */
export function tallyOnline(runners: OnlineRunner[]): OnlineRunners {
  const free = runners.filter(runner => !runner.busy);
  const tally: OnlineRunners = {
    online: runners.length,
    busy: runners.length - free.length,
  };
  let droppedAt: string | undefined;
  for (const runner of free) {
    tally.freeLastSeenAt = later(tally.freeLastSeenAt, runner.lastSeenAt);
    if (runner.pollIntervalMs !== undefined) {
      tally.freePollIntervalMs = Math.max(
        tally.freePollIntervalMs ?? 0,
        runner.pollIntervalMs,
      );
    }
    if (
      tally.freeRunnerId === undefined ||
      runner.runnerId < tally.freeRunnerId
    ) {
      tally.freeRunnerId = runner.runnerId;
    }
    droppedAt = later(droppedAt, runner.claimDroppedAt);
  }
  // Only where every free runner's claim dropped: one that asks takes the step.
  if (free.length > 0 && free.every(runner => runner.claimDroppedAt)) {
    tally.freeDroppedAt = droppedAt;
  }
  return tally;
}

/**
 * The runner registry's rows: one per runner process (runner id and instance id) and
 * organization; a runner that names no process has one row per runner id.
 */

export class RunnerStore {
  constructor(private readonly db: Knex) {}

  /**
   * Records a claim: creates the runner process's row or refreshes all it said of itself. A
   * process new to the registry takes over the row of a process of the same runner id that is
   * OFFLINE (it stopped, or a restart left it behind; `onlineSince` says which are), rather than
   * each restart leaving a row OFFLINE for the retention period.
   */
  async recordClaim(
    sighting: RunnerSighting,
    onlineSince?: string,
  ): Promise<void> {
    const instanceId = sighting.instanceId ?? '';
    const changes = {
      service_account_id: sighting.serviceAccountId,
      api_key_id: sighting.apiKeyId ?? null,
      labels: JSON.stringify(sighting.labels),
      version: sighting.version ?? null,
      hostname: sighting.hostname ?? null,
      poll_interval_ms: sighting.pollIntervalMs ?? null,
      current_step_execution_id: sighting.currentStepExecutionId,
      last_seen_at: sighting.seenAt,
      claim_dropped_at: null,
      signed_off_at: null,
      offline_cause: null,
      offline_by: null,
    };
    if (
      onlineSince !== undefined &&
      (await this.takeOverOfflineRow(
        sighting,
        instanceId,
        onlineSince,
        changes,
      ))
    ) {
      return;
    }
    await this.db('runners')
      .insert({
        id: newId(),
        organization_id: sighting.organizationId,
        runner_id: sighting.runnerId,
        instance_id: instanceId,
        first_seen_at: sighting.seenAt,
        ...changes,
      })
      .onConflict(['organization_id', 'runner_id', 'instance_id'])
      .merge(changes);
  }

  /**
   * For a process without a row yet: moves an OFFLINE row of its runner id to it, a signed-off
   * one first, then the longest unseen. False
   * when it has a row, or no row is OFFLINE (another process of the id runs), or another claim
   * took that row first.
   */
  private async takeOverOfflineRow(
    sighting: RunnerSighting,
    instanceId: string,
    onlineSince: string,
    changes: Record<string, unknown>,
  ): Promise<boolean> {
    const ofRunner = () =>
      this.db('runners').where({
        organization_id: sighting.organizationId,
        runner_id: sighting.runnerId,
      });
    if (await ofRunner().where({ instance_id: instanceId }).first('id')) {
      return false;
    }
    const offline: Pick<RunnerRow, 'id' | 'instance_id'> | undefined =
      await ofRunner()
        .whereNot(online => whereOnline(online, onlineSince))
        // A process that signed off is gone; one only unseen for a while may yet answer.
        .orderByRaw('CASE WHEN signed_off_at IS NULL THEN 1 ELSE 0 END')
        .orderBy('last_seen_at', 'asc')
        .first('id', 'instance_id');
    if (!offline) {
      return false;
    }
    try {
      const moved = await this.db('runners')
        .where({ id: offline.id, instance_id: offline.instance_id })
        .update({ instance_id: instanceId, ...changes });
      return moved > 0;
    } catch (error) {
      // The process's row was inserted meanwhile (its own claim, on another instance).
      if (isUniqueViolation(error)) {
        return false;
      }
      throw error;
    }
  }

  /**
   * Records activity on a leased step (a heartbeat, a log append): the step's lease holder was
   * seen and is working on it. One statement; nothing when the step has no lease holder.
   */
  async recordStepActivity(
    organizationId: string,
    stepExecutionId: string,
    seenAt: string,
  ): Promise<void> {
    // The process that holds the lease, not every process of its runner id.
    await this.db('runners')
      .where({ organization_id: organizationId })
      .whereExists(
        this.db('step_executions')
          .where({ organization_id: organizationId, id: stepExecutionId })
          .whereRaw('step_executions.lease_runner_id = runners.runner_id')
          .whereRaw(
            'step_executions.lease_runner_instance_id = runners.instance_id',
          ),
      )
      .update({
        last_seen_at: seenAt,
        current_step_execution_id: stepExecutionId,
        claim_dropped_at: null,
        signed_off_at: null,
        offline_cause: null,
        offline_by: null,
      });
  }

  /**
   * The service account of the runner `runnerId` while it is ONLINE (seen since
   * `onlineSince`, not signed off); undefined when no runner of that id is.
   */
  async onlineHolderOf(
    organizationId: string,
    runnerId: string,
    onlineSince: string,
  ): Promise<{ serviceAccountId: string; lastSeenAt: string } | undefined> {
    const row = await this.db<RunnerRow>('runners')
      .select('service_account_id', 'last_seen_at')
      .where({ organization_id: organizationId, runner_id: runnerId })
      .where('last_seen_at', '>=', onlineSince)
      .whereNull('signed_off_at')
      .first();
    return (
      row && {
        serviceAccountId: row.service_account_id,
        lastSeenAt: toTimestamp(row.last_seen_at),
      }
    );
  }

  /** The row of one process of a runner (`instanceId`: absent for runners that name none). */
  private processRow(
    organizationId: string,
    runnerId: string,
    instanceId: string | undefined,
  ) {
    return this.db('runners').where({
      organization_id: organizationId,
      runner_id: runnerId,
      instance_id: instanceId ?? '',
    });
  }

  /**
   * Records that a runner process of `serviceAccountId` stops: OFFLINE from `at` until it
   * claims again. Another account's runner of the same id, and the other processes of the id,
   * are left as they are.
   */
  async signOff(
    organizationId: string,
    runnerId: string,
    serviceAccountId: string,
    at: string,
    instanceId?: string,
  ): Promise<void> {
    await this.processRow(organizationId, runnerId, instanceId)
      .where({ service_account_id: serviceAccountId })
      .update({
        last_seen_at: at,
        signed_off_at: at,
        current_step_execution_id: null,
        claim_dropped_at: null,
        offline_cause: null,
        offline_by: null,
      });
  }

  /**
   * Records that the claim held for a runner process lost its connection unanswered (`at`):
   * every instance then counts it silent a few seconds later, unless it asks again.
   */
  async recordClaimDropped(
    organizationId: string,
    runnerId: string,
    instanceId: string | undefined,
    at: string,
  ): Promise<void> {
    await this.processRow(organizationId, runnerId, instanceId).update({
      claim_dropped_at: at,
    });
  }

  /**
   * Forgets a dropped claim of a runner process that asks again: for a claim whose sighting is
   * not written (it was, moments ago), where a drop another instance noted would stay. A read
   * of one row; the write only where a drop is recorded (no write lock taken on SQLite for
   * each poll).
   */
  async clearClaimDropped(
    organizationId: string,
    runnerId: string,
    instanceId: string | undefined,
  ): Promise<void> {
    const row = () => this.processRow(organizationId, runnerId, instanceId);
    const dropped = await row().whereNotNull('claim_dropped_at').first('id');
    if (dropped) {
      await row().update({ claim_dropped_at: null });
    }
  }

  /**
   * Turns the runner that holds `stepExecutionId` OFFLINE for `cause`, the step being queued
   * again: it no longer counts as connected, nor as busy with that step, which it keeps naming
   * (the step it stopped reporting during) until it is seen again. A runner that has moved on to
   * another step is left as it is.
   */
  async markLost(
    organizationId: string,
    runnerId: string,
    stepExecutionId: string,
    cause: RunnerOfflineCause,
  ): Promise<void> {
    await this.db('runners')
      .where({
        organization_id: organizationId,
        runner_id: runnerId,
        current_step_execution_id: stepExecutionId,
      })
      .update({ offline_cause: cause });
  }

  /** The runners the service turned OFFLINE while they held one of `stepExecutionIds`. */
  async lostRunnersOf(stepExecutionIds: string[]): Promise<LostRunner[]> {
    if (stepExecutionIds.length === 0) {
      return [];
    }
    const rows = await this.db<RunnerRow>('runners')
      .select(
        'runner_id',
        'current_step_execution_id',
        'offline_cause',
        'offline_by',
      )
      .whereIn('current_step_execution_id', stepExecutionIds)
      .whereNotNull('offline_cause')
      .orderBy('runner_id', 'asc');
    return rows.map(row => ({
      runnerId: row.runner_id,
      stepExecutionId: row.current_step_execution_id!,
      cause: row.offline_cause!,
      by: optional(row.offline_by),
    }));
  }

  /**
   * Turns the runners that can no longer report (`target`) OFFLINE for its cause; they keep
   * naming the step they held. Returns their ids.
   */
  async markRevoked(target: RevokedRunners): Promise<string[]> {
    const { organizationId, apiKeyId, serviceAccountId } = target;
    if (!apiKeyId && !serviceAccountId) {
      return [];
    }
    const query = () =>
      this.db('runners')
        .where({ organization_id: organizationId })
        .where(which => {
          if (apiKeyId) {
            which.orWhere({ api_key_id: apiKeyId });
          }
          if (serviceAccountId) {
            which.orWhere({ service_account_id: serviceAccountId });
          }
        });
    const rows: { runner_id: string }[] = await query().select('runner_id');
    if (rows.length > 0) {
      await query().update({
        offline_cause: target.cause,
        offline_by: target.by ?? null,
      });
    }
    // Each runner id once, however many of its processes there are.
    return [...new Set(rows.map(row => row.runner_id))];
  }

  /**
   * Records the end of a step: its runner was seen and is free again. A runner that lost an
   * earlier attempt of it (`markLost`) was not seen, and keeps naming it.
   */
  async recordStepEnd(
    organizationId: string,
    stepExecutionId: string,
    seenAt: string,
  ): Promise<void> {
    await this.db('runners')
      .where({
        organization_id: organizationId,
        current_step_execution_id: stepExecutionId,
      })
      .whereNull('offline_cause')
      .update({ last_seen_at: seenAt, current_step_execution_id: null });
  }

  async list(
    organizationId: string,
    window: RunnerWindow,
    status: RunnerStatus | undefined,
    page: KeysetRequest,
  ): Promise<KeysetPage<Runner>> {
    // The step it works on, for its run and name (what the portal links to), and the lease on
    // it; the name of the service account it signs in with, what people call it.
    const query = this.db<RunnerRow>('runners')
      .leftJoin('service_accounts', join =>
        join
          .on('service_accounts.id', 'runners.service_account_id')
          .andOn('service_accounts.organization_id', 'runners.organization_id'),
      )
      .leftJoin('step_executions', join =>
        join
          .on('step_executions.id', 'runners.current_step_execution_id')
          .andOn('step_executions.organization_id', 'runners.organization_id'),
      )
      .select(
        'runners.*',
        'service_accounts.name as service_account_name',
        'step_executions.pipeline_run_id as current_pipeline_run_id',
        'step_executions.name as current_step_name',
        'step_executions.status as current_step_status',
        'step_executions.lease_runner_id as current_step_lease_runner_id',
        'step_executions.lease_runner_instance_id as current_step_lease_runner_instance_id',
        'step_executions.lease_renewed_at as current_step_lease_renewed_at',
        'step_executions.started_at as current_step_started_at',
        'step_executions.lease_heartbeat_interval_ms as current_step_lease_heartbeat_interval_ms',
        'step_executions.lease_expires_at as current_step_lease_expires_at',
      )
      .where('runners.organization_id', organizationId)
      .where('runners.last_seen_at', '>=', window.keptSince);
    if (status === 'ONLINE') {
      whereOnline(query, window.onlineSince);
    } else if (status === 'OFFLINE') {
      query.whereNot(online => whereOnline(online, window.onlineSince));
    }
    return keysetPage(query, 'runners.id', page, (row: RunnerRow) =>
      toRunner(row, window.onlineSince),
    );
  }

  /**
   * The organization's ONLINE runners, with what a waiting step's reason reads of them: the
   * labels each carries, whether it holds a step, and of a free one when it was last seen, its
   * poll interval and its dropped claim. A few rows (one per runner process).
   */
  async listOnline(
    organizationId: string,
    onlineSince: string,
  ): Promise<OnlineRunner[]> {
    const rows = await readRows<
      Pick<
        RunnerRow,
        | 'runner_id'
        | 'labels'
        | 'current_step_execution_id'
        | 'last_seen_at'
        | 'poll_interval_ms'
        | 'claim_dropped_at'
      >
    >(
      whereOnline(
        this.db('runners').where({ organization_id: organizationId }),
        onlineSince,
      )
        .select(
          'runner_id',
          'labels',
          'current_step_execution_id',
          'last_seen_at',
          'poll_interval_ms',
          'claim_dropped_at',
        )
        // Named in this order in a waiting step's reason.
        .orderBy([
          { column: 'runner_id', order: 'asc' },
          { column: 'instance_id', order: 'asc' },
        ]),
      // Bound to the clock: the same read is never asked for again.
      { remember: false },
    );
    return rows.map(row => ({
      runnerId: row.runner_id,
      labels: fromJsonColumn<string[]>(row.labels) ?? [],
      busy: row.current_step_execution_id !== null,
      lastSeenAt: toTimestamp(row.last_seen_at),
      pollIntervalMs:
        row.poll_interval_ms === null
          ? undefined
          : Number(row.poll_interval_ms),
      claimDroppedAt: toOptionalTimestamp(row.claim_dropped_at),
    }));
  }

  /** `listOnline`, counted (`tallyOnline`). */
  async countOnline(
    organizationId: string,
    onlineSince: string,
  ): Promise<OnlineRunners> {
    return tallyOnline(await this.listOnline(organizationId, onlineSince));
  }

  /** How many runners of every organization are ONLINE: for the service's metrics. */
  async countAllOnline(onlineSince: string): Promise<number> {
    const [row] = await readRows<{ count: number | string }>(
      whereOnline(this.db('runners'), onlineSince).count('* as count'),
      { remember: false },
    );
    return Number(row.count);
  }

  /** Forgets runners last seen before `keptSince`; returns how many. */
  async deleteSeenBefore(keptSince: string): Promise<number> {
    return this.db('runners').where('last_seen_at', '<', keptSince).delete();
  }
}
