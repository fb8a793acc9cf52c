import {
  carriesRunnerLabels,
  FINAL_STATUSES,
  ErrorBody,
  PipelineRun,
  QueueState,
  RunKind,
  RunStatus,
  RunChangeSummary,
  RunGitSource,
  RunTriggerSource,
  StepExecution,
  StepLease,
  StepLogLine,
  StepStatus,
  StepType,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { largestFirst } from '../lib/largestFirst';
import { derivedOnce, mappedOnce } from '../lib/oncePerFrozenValue';
import { newId } from './ids';
import { markIdempotentWork } from './idempotentWork';
import { runCountIncrement } from './PipelineStore';
import { stackLatestRunUpdate } from './StackStore';
import { fromJsonColumn, toJsonColumn } from './json';
import { readFirst, readRows } from './directReads';
import { whereInList } from './idLists';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import {
  nowTimestamp,
  optional,
  toOptionalTimestamp,
  toTimestamp,
} from './timestamps';

type Timestamp = string | Date;

export interface PipelineRunRow {
  id: string;
  organization_id: string;
  pipeline_id: string;
  pipeline_version_id: string;
  project_id: string;
  attached_entity_id: string | null;
  attached_entity_type: 'STACK' | null;
  status: RunStatus;
  description: string | null;
  input: string | null;
  variant_id: string | null;
  variant_name: string | null;
  attempt_epoch: number;
  created_by_id: string | null;
  trigger_metadata: string | null;
  data: string | null;
  error: string | null;
  queue_reason: string | null;
  queue_state: string | null;
  queue_condition_key: string | null;
  engine_workflow_id: string | null;
  engine_run_id: string | null;
  started_at: Timestamp | null;
  last_attempt_started_at: Timestamp | null;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  kind: RunKind;
  trigger_source: RunTriggerSource;
  reconciled_drift_check_run_id: string | null;
  git_source: string | null;
  /**
   * The run's change summary (its latest plan's counts), in columns of the run's own row so that
   * lists read it with the run: null until a plan of the run has reported.
   */
  plan_add_count: number | null;
  plan_change_count: number | null;
  plan_destroy_count: number | null;
  plan_import_count: number | null;
  /** SQLite gives 0/1. */
  plan_no_changes: boolean | number | null;
}

export interface StepExecutionRow {
  id: string;
  organization_id: string;
  pipeline_run_id: string;
  position: number;
  type: StepType;
  name: string;
  config: string | null;
  status: StepStatus;
  attempt_epoch: number;
  lease_token_hash: string | null;
  lease_runner_id: string | null;
  /** The process of the lease's runner ('' when its claims named none, or no lease). */
  lease_runner_instance_id?: string;
  lease_expires_at: Timestamp | null;
  lease_renewed_at: Timestamp | null;
  /** How often the lease's runner renews it, as its latest heartbeat said; null when unsaid. */
  lease_heartbeat_interval_ms?: number | null;
  runner_service_account_id: string | null;
  error: string | null;
  outputs: string | null;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A run plus what the engine needs that the wire format does not show. */
export interface RunRecord extends PipelineRun {
  projectId: string;
  attachedEntityType?: 'STACK';
}

/** A step plus its lease, which only the engine sees. */
export interface StepRecord extends StepExecution {
  organizationId: string;
  leaseTokenHash?: string;
  leaseRunnerId?: string;
  leaseExpiresAt?: string;
  leaseRenewedAt?: string;
  /** How often the lease's runner renews it, as its latest heartbeat said. */
  leaseHeartbeatIntervalMs?: number;
  /** The service account the runner signed in with when it claimed the step. */
  runnerServiceAccountId?: string;
  /** When the runner registry last saw the step's runner. */
  runnerLastSeenAt?: string;
}

const ACTIVE_RUN_STATUSES: RunStatus[] = ['RUNNING', 'WAITING_FOR_APPROVAL'];
/** A run in one of these holds its entity or waits for it, and can be cancelled. */
const OPEN_RUN_STATUSES: RunStatus[] = [...ACTIVE_RUN_STATUSES, 'QUEUED'];

/** Log lines per INSERT: under SQLite's 500 terms of a compound SELECT. */
const LOG_LINES_PER_INSERT = 250;

export function toRun(row: PipelineRunRow): RunRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    pipelineId: row.pipeline_id,
    pipelineVersionId: row.pipeline_version_id,
    projectId: row.project_id,
    attachedEntityId: optional(row.attached_entity_id),
    attachedEntityType: optional(row.attached_entity_type),
    status: row.status,
    isCancellable: OPEN_RUN_STATUSES.includes(row.status),
    description: optional(row.description),
    input: fromJsonColumn(row.input),
    variantId: optional(row.variant_id),
    variantName: optional(row.variant_name),
    attemptEpoch: row.attempt_epoch,
    createdById: optional(row.created_by_id),
    triggerMetadata: fromJsonColumn(row.trigger_metadata),
    data: fromJsonColumn(row.data),
    error: fromJsonColumn<ErrorBody>(row.error),
    queueReason: optional(row.queue_reason),
    queueState: fromJsonColumn<QueueState>(row.queue_state),
    queueConditionKey: optional(row.queue_condition_key),
    engineWorkflowId: optional(row.engine_workflow_id),
    engineRunId: optional(row.engine_run_id),
    startedAt: toOptionalTimestamp(row.started_at),
    lastAttemptStartedAt: toOptionalTimestamp(row.last_attempt_started_at),
    completedAt: toOptionalTimestamp(row.completed_at),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
    kind: row.kind,
    triggerSource: row.trigger_source,
    reconciledDriftCheckRunId: optional(row.reconciled_drift_check_run_id),
    gitSource: fromJsonColumn<RunGitSource>(row.git_source),
    changeSummary: changeSummaryOf(row),
  };
}

function changeSummaryOf(row: PipelineRunRow): RunChangeSummary | undefined {
  if (row.plan_no_changes === null || row.plan_no_changes === undefined) {
    return undefined;
  }
  return {
    add: row.plan_add_count ?? 0,
    change: row.plan_change_count ?? 0,
    destroy: row.plan_destroy_count ?? 0,
    import: row.plan_import_count ?? 0,
    noChanges: Boolean(row.plan_no_changes),
  };
}

/** The columns that hold a run's change summary. */
export function changeSummaryColumns(
  summary: RunChangeSummary,
): Pick<
  PipelineRunRow,
  | 'plan_add_count'
  | 'plan_change_count'
  | 'plan_destroy_count'
  | 'plan_import_count'
  | 'plan_no_changes'
> {
  return {
    plan_add_count: summary.add,
    plan_change_count: summary.change,
    plan_destroy_count: summary.destroy,
    plan_import_count: summary.import,
    plan_no_changes: summary.noChanges,
  };
}

/**
 * The wire shape of a run: the record without the engine's own fields. They are left
 * undefined rather than removed: JSON leaves undefined fields out, and an object rest that
 * excludes keys cost V8 a slow copy per run (4 % of the runs list's CPU, docs/benchmarks.md,
 * optimization 23) where a spread is one fast clone.
 */
function toPublicRun(run: RunRecord): PipelineRun {
  const engineOnly: Record<
    Exclude<keyof RunRecord, keyof PipelineRun>,
    undefined
  > = {
    projectId: undefined,
    attachedEntityType: undefined,
  };
  return { ...run, ...engineOnly };
}

/** A run's wire shape, made once for a listed run (see `toListedRun`). */
export const publicRun = mappedOnce(toPublicRun);

/**
 * A listed run: mapped once per row the read cache remembers, so that a page read again from
 * memory reuses its runs, their wire shapes and their bytes (optimization 38). Only the lists
 * use it: their runs are read, never changed (a remembered run is frozen).
 */
const toListedRun = mappedOnce(toRun);

/**
 * The run ids of the newest-per-group statement's rows (each group's ids joined in one value),
 * once per remembered rows (optimization 39).
 */
function idsOfGroups(rows: readonly { ids: string | null }[]): string[] {
  return derivedOnce(rows, 'idsOfGroups', () =>
    rows.flatMap(r => (r.ids ? r.ids.split(',') : [])),
  );
}

/**
 * A step row, with the name of its runner's service account and when the runner was last seen,
 * where the query joined them ({@link withRunner}).
 */
type NamedStepRow = StepExecutionRow & {
  runner_name?: string | null;
  runner_last_seen_at?: Timestamp | null;
};

/**
 * Reads beside the step's columns the name of the service account each step's runner signed in
 * with, as `runner_name` (what people call the runner), and when the runner registry last saw
 * that runner, as `runner_last_seen_at` (a busy runner is seen at its log appends too).
 */
function withRunner<Q extends Knex.QueryBuilder>(query: Q): Q {
  return query
    .leftJoin('service_accounts', join =>
      join
        .on('service_accounts.id', 'step_executions.runner_service_account_id')
        .andOn(
          'service_accounts.organization_id',
          'step_executions.organization_id',
        ),
    )
    .leftJoin('runners', join =>
      join
        .on('runners.runner_id', 'step_executions.lease_runner_id')
        .andOn('runners.organization_id', 'step_executions.organization_id')
        // The process that holds the lease: each process of a runner id has its row.
        .andOn(
          'runners.instance_id',
          'step_executions.lease_runner_instance_id',
        ),
    )
    .select(
      'service_accounts.name as runner_name',
      'runners.last_seen_at as runner_last_seen_at',
    ) as Q;
}

function toStep(row: NamedStepRow): StepRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    pipelineRunId: row.pipeline_run_id,
    position: row.position,
    type: row.type,
    name: row.name,
    config: fromJsonColumn(row.config),
    status: row.status,
    attemptEpoch: row.attempt_epoch,
    leaseTokenHash: optional(row.lease_token_hash),
    leaseRunnerId: optional(row.lease_runner_id),
    leaseExpiresAt: toOptionalTimestamp(row.lease_expires_at),
    leaseRenewedAt: toOptionalTimestamp(row.lease_renewed_at),
    leaseHeartbeatIntervalMs: optional(row.lease_heartbeat_interval_ms),
    runnerServiceAccountId: optional(row.runner_service_account_id),
    runnerName: optional(row.runner_name),
    runnerLastSeenAt: toOptionalTimestamp(row.runner_last_seen_at),
    error: fromJsonColumn<ErrorBody>(row.error),
    outputs: fromJsonColumn(row.outputs),
    startedAt: toOptionalTimestamp(row.started_at),
    completedAt: toOptionalTimestamp(row.completed_at),
  };
}

/** What a step's lease columns tell callers: a running step's runner and lease, never the token. */
export type LeaseColumns = Pick<
  StepRecord,
  | 'status'
  | 'leaseRunnerId'
  | 'leaseExpiresAt'
  | 'leaseRenewedAt'
  | 'leaseHeartbeatIntervalMs'
  | 'runnerName'
  | 'runnerLastSeenAt'
  | 'startedAt'
>;

/** The lease of a step a runner executes (status RUNNING); none otherwise. */
export function leaseOf(step: LeaseColumns): StepLease | undefined {
  const { leaseRunnerId, leaseExpiresAt, leaseRenewedAt, runnerName } = step;
  if (
    step.status !== 'RUNNING' ||
    !leaseRunnerId ||
    !leaseExpiresAt ||
    !leaseRenewedAt
  ) {
    return undefined;
  }
  // The registry writes a busy runner's sightings every few seconds, its heartbeat renews the
  // lease (every 5 s, the reference runner): whichever is newer is when it was last heard from.
  const seen = step.runnerLastSeenAt;
  return {
    runnerId: leaseRunnerId,
    ...(runnerName ? { runnerName } : {}),
    renewedAt: leaseRenewedAt,
    expiresAt: leaseExpiresAt,
    lastHeardAt:
      seen && Date.parse(seen) > Date.parse(leaseRenewedAt)
        ? seen
        : leaseRenewedAt,
    ...(step.startedAt ? { claimedAt: step.startedAt } : {}),
    ...(step.leaseHeartbeatIntervalMs
      ? { heartbeatIntervalMs: step.leaseHeartbeatIntervalMs }
      : {}),
  };
}

/**
 * A step as callers see it: a step a runner claimed names it (also once it ended), a running one
 * its lease; never the token.
 */
export function publicStep(step: StepRecord): StepExecution {
  const {
    organizationId: _o,
    leaseTokenHash: _h,
    leaseRunnerId: _r,
    leaseExpiresAt: _e,
    leaseRenewedAt: _n,
    leaseHeartbeatIntervalMs: _i,
    runnerServiceAccountId: _a,
    runnerLastSeenAt: _s,
    runnerName,
    ...rest
  } = step;
  const lease = leaseOf(step);
  return {
    ...rest,
    ...(step.leaseRunnerId
      ? { runnerId: step.leaseRunnerId, ...(runnerName ? { runnerName } : {}) }
      : {}),
    ...(lease ? { lease } : {}),
  };
}

/** A runner step of a running run that waits for a claim or that a runner executes. */
export interface ActiveRunnerStep extends LeaseColumns {
  id: string;
  pipelineRunId: string;
  name: string;
  /** When it last changed: for a QUEUED step, when it was queued for a claim. */
  updatedAt: string;
}

/** Columns a run update may set, in domain terms. */
export interface RunPatch {
  status?: RunStatus;
  error?: ErrorBody | null;
  queueReason?: string | null;
  queueState?: QueueState | null;
  queueConditionKey?: string | null;
  engineWorkflowId?: string;
  engineRunId?: string;
  attemptEpoch?: number;
  startedAt?: string;
  lastAttemptStartedAt?: string;
  completedAt?: string | null;
}

function runColumns(patch: RunPatch): Partial<PipelineRunRow> {
  const columns: Partial<PipelineRunRow> = { updated_at: nowTimestamp() };
  if (patch.status !== undefined) columns.status = patch.status;
  if (patch.error !== undefined) columns.error = toJsonColumn(patch.error);
  if (patch.queueReason !== undefined) columns.queue_reason = patch.queueReason;
  if (patch.queueState !== undefined)
    columns.queue_state = toJsonColumn(patch.queueState);
  if (patch.queueConditionKey !== undefined)
    columns.queue_condition_key = patch.queueConditionKey;
  if (patch.engineWorkflowId !== undefined)
    columns.engine_workflow_id = patch.engineWorkflowId;
  if (patch.engineRunId !== undefined)
    columns.engine_run_id = patch.engineRunId;
  if (patch.attemptEpoch !== undefined)
    columns.attempt_epoch = patch.attemptEpoch;
  if (patch.startedAt !== undefined) columns.started_at = patch.startedAt;
  if (patch.lastAttemptStartedAt !== undefined)
    columns.last_attempt_started_at = patch.lastAttemptStartedAt;
  if (patch.completedAt !== undefined) columns.completed_at = patch.completedAt;
  return columns;
}

export interface StepPatch {
  status?: StepStatus;
  attemptEpoch?: number;
  leaseTokenHash?: string | null;
  leaseRunnerId?: string | null;
  /** The process of the lease's runner; cleared with `leaseRunnerId` when not given. */
  leaseRunnerInstanceId?: string | null;
  runnerServiceAccountId?: string | null;
  leaseExpiresAt?: string | null;
  /**
   * How often the lease's runner renews it, as it says with its claim and each heartbeat;
   * written with each move of `leaseExpiresAt` (null unless given: a runner that does not say).
   */
  leaseHeartbeatIntervalMs?: number;
  error?: ErrorBody | null;
  outputs?: Record<string, unknown> | null;
  startedAt?: string | null;
  completedAt?: string | null;
}

function stepColumns(patch: StepPatch): Partial<StepExecutionRow> {
  const columns: Partial<StepExecutionRow> = { updated_at: nowTimestamp() };
  if (patch.status !== undefined) columns.status = patch.status;
  if (patch.attemptEpoch !== undefined)
    columns.attempt_epoch = patch.attemptEpoch;
  if (patch.leaseTokenHash !== undefined)
    columns.lease_token_hash = patch.leaseTokenHash;
  if (patch.leaseRunnerId !== undefined) {
    columns.lease_runner_id = patch.leaseRunnerId;
    columns.lease_runner_instance_id = patch.leaseRunnerInstanceId ?? '';
  }
  if (patch.runnerServiceAccountId !== undefined)
    columns.runner_service_account_id = patch.runnerServiceAccountId;
  if (patch.leaseExpiresAt !== undefined) {
    // A lease is renewed when its expiry moves: by the claim, then by each heartbeat.
    columns.lease_expires_at = patch.leaseExpiresAt;
    columns.lease_renewed_at = patch.leaseExpiresAt && columns.updated_at;
    columns.lease_heartbeat_interval_ms =
      (patch.leaseExpiresAt && patch.leaseHeartbeatIntervalMs) || null;
  }
  if (patch.error !== undefined) columns.error = toJsonColumn(patch.error);
  if (patch.outputs !== undefined)
    columns.outputs = toJsonColumn(patch.outputs);
  if (patch.startedAt !== undefined) columns.started_at = patch.startedAt;
  if (patch.completedAt !== undefined) columns.completed_at = patch.completedAt;
  return columns;
}

/** The writes by which admission and advancing move a run and its steps. */
export interface RunTransitions {
  /** Moves a run from one of `from` to a new status; false when another transition won. */
  transitionRun(
    id: string,
    from: RunStatus[],
    patch: RunPatch,
  ): Promise<boolean>;
  /** Moves a step from one of `from`; false when another transition won. */
  transitionStep(
    id: string,
    from: StepStatus[],
    patch: StepPatch,
  ): Promise<boolean>;
  /** The run's steps, by position. */
  listSteps(runId: string): Promise<StepRecord[]>;
}

/**
 * A run and its steps made in memory by `PipelineRunStore.newRun` and not yet inserted. Its
 * transitions change the rows the insert will write, with the store's compare-and-set
 * semantics on the status; nothing else can see the run before its insert, so only its own
 * moves change it. A trigger admits a run attached to nothing and starts its first step on
 * these rows, then `PipelineRunStore.insertCountedRun` writes them with its pipeline's count
 * (PipelineEngine.start).
 */
export class UnwrittenRun implements RunTransitions {
  constructor(
    private row: PipelineRunRow,
    private readonly stepRows: StepExecutionRow[],
  ) {}

  /** The run as it is now. */
  get record(): RunRecord {
    return toRun(this.row);
  }

  async transitionRun(
    id: string,
    from: RunStatus[],
    patch: RunPatch,
  ): Promise<boolean> {
    if (id !== this.row.id || !from.includes(this.row.status)) {
      return false;
    }
    this.row = { ...this.row, ...runColumns(patch) };
    return true;
  }

  async transitionStep(
    id: string,
    from: StepStatus[],
    patch: StepPatch,
  ): Promise<boolean> {
    const index = this.stepRows.findIndex(step => step.id === id);
    if (index < 0 || !from.includes(this.stepRows[index].status)) {
      return false;
    }
    this.stepRows[index] = { ...this.stepRows[index], ...stepColumns(patch) };
    return true;
  }

  async listSteps(runId: string): Promise<StepRecord[]> {
    return runId === this.row.id ? this.stepRows.map(toStep) : [];
  }

  /** The rows to insert. */
  written(): { row: PipelineRunRow; stepRows: StepExecutionRow[] } {
    return { row: this.row, stepRows: this.stepRows };
  }
}

/** The label copy of a step any runner may take (its stack requires none, or it has none). */
const ANY_RUNNER = '[]';

/** The inserts of a run made by `PipelineRunStore.newRun` and of its steps, not yet run. */
function insertsOf(db: Knex, run: UnwrittenRun): Knex.QueryBuilder[] {
  const { row, stepRows } = run.written();
  // The stack's labels as they are now: a copy for the claim's index (lockNextClaimableStep).
  const requiredLabels =
    row.attached_entity_type === 'STACK' && row.attached_entity_id
      ? db.raw(
          `COALESCE((SELECT runner_labels FROM stacks WHERE id = ?), '${ANY_RUNNER}')`,
          [row.attached_entity_id],
        )
      : ANY_RUNNER;
  return [
    db('pipeline_runs').insert(row),
    ...(stepRows.length
      ? [
          db('step_executions').insert(
            stepRows.map(step => ({
              ...step,
              required_runner_labels: requiredLabels,
            })),
          ),
        ]
      : []),
  ];
}

/**
 * The runner labels a step's stack requires now, as SQL over a `step_executions` row: what
 * its `required_runner_labels` copies.
 */
const STACK_LABELS_OF_STEP = `COALESCE((SELECT stacks.runner_labels FROM pipeline_runs
  JOIN stacks ON stacks.id = pipeline_runs.attached_entity_id
   AND stacks.organization_id = pipeline_runs.organization_id
  WHERE pipeline_runs.id = step_executions.pipeline_run_id
    AND pipeline_runs.attached_entity_type = 'STACK'), '${ANY_RUNNER}')`;

/**
 * `sets(labels)`: the distinct label copies of an organization's queued steps, then a null row
 * (a skip scan of the claim's label index: one probe per set, each after the last; neither
 * database skips by itself). Binds the organization twice. `WITH RECURSIVE` goes before it.
 */
const WAITING_LABEL_SETS = (() => {
  const next = (after: string) =>
    `SELECT required_runner_labels FROM step_executions
     WHERE organization_id = ? AND status = 'QUEUED' AND required_runner_labels > ${after}
     ORDER BY required_runner_labels LIMIT 1`;
  return `sets(labels) AS (
    SELECT (${next("''")})
    UNION ALL
    SELECT (${next('sets.labels')}) FROM sets WHERE sets.labels IS NOT NULL
  )`;
})();

/** Candidates a claim takes from the head of each label set's queue (see the claim). */
const CLAIM_CANDIDATES_PER_SET = 16;

export interface RunListFilter {
  pipelineIds?: string[];
  statuses?: RunStatus[];
  attachedEntityIds?: string[];
  ids?: string[];
  latestPerPipeline?: number;
  latestPerEntity?: number;
  kinds?: RunKind[];
}

/** A run to create: QUEUED, with one PENDING step execution per step. */
export interface CreateRunInput {
  organizationId: string;
  pipelineId: string;
  pipelineVersionId: string;
  projectId: string;
  attachedEntityId?: string;
  attachedEntityType?: 'STACK';
  description?: string;
  input?: Record<string, unknown>;
  variantId?: string;
  variantName?: string;
  createdById?: string;
  triggerMetadata?: PipelineRun['triggerMetadata'];
  data?: Record<string, unknown>;
  steps: { type: StepType; name: string; config?: Record<string, unknown> }[];
  kind?: RunKind;
  triggerSource?: RunTriggerSource;
  reconciledDriftCheckRunId?: string;
  gitSource?: RunGitSource;
}

/** Told of each run a committed write ended (SUCCEEDED, FAILED or CANCELLED). */
export interface RunEndListener {
  runEnded(status: RunStatus): void;
}

/** Runs, their step executions and the steps' logs. */
export class PipelineRunStore implements RunTransitions {
  constructor(
    private readonly db: Knex,
    private readonly runEnds?: RunEndListener,
  ) {}

  private get isPostgres() {
    return String(this.db.client.config.client).startsWith('pg');
  }

  /**
   * A QUEUED run and its PENDING steps, not yet written: the engine may move them (see
   * `UnwrittenRun`) before `insertCountedRun` writes them.
   */
  newRun(input: CreateRunInput): UnwrittenRun {
    const now = nowTimestamp();
    const id = newId();
    return new UnwrittenRun(
      {
        id,
        organization_id: input.organizationId,
        pipeline_id: input.pipelineId,
        pipeline_version_id: input.pipelineVersionId,
        project_id: input.projectId,
        attached_entity_id: input.attachedEntityId ?? null,
        attached_entity_type: input.attachedEntityType ?? null,
        status: 'QUEUED',
        description: input.description ?? null,
        input: toJsonColumn(input.input),
        variant_id: input.variantId ?? null,
        variant_name: input.variantName ?? null,
        attempt_epoch: 1,
        created_by_id: input.createdById ?? null,
        trigger_metadata: toJsonColumn(input.triggerMetadata),
        data: toJsonColumn(input.data),
        error: null,
        queue_reason: 'Waiting for admission',
        queue_state: null,
        queue_condition_key: null,
        engine_workflow_id: null,
        engine_run_id: null,
        started_at: null,
        last_attempt_started_at: null,
        completed_at: null,
        created_at: now,
        updated_at: now,
        kind: input.kind ?? 'STANDARD',
        trigger_source: input.triggerSource ?? 'API',
        reconciled_drift_check_run_id: input.reconciledDriftCheckRunId ?? null,
        git_source: toJsonColumn(input.gitSource),
        plan_add_count: null,
        plan_change_count: null,
        plan_destroy_count: null,
        plan_import_count: null,
        plan_no_changes: null,
      },
      input.steps.map((step, position) => ({
        id: newId(),
        organization_id: input.organizationId,
        pipeline_run_id: id,
        position,
        type: step.type,
        name: step.name,
        config: toJsonColumn(step.config),
        status: 'PENDING',
        attempt_epoch: 1,
        lease_token_hash: null,
        lease_runner_id: null,
        lease_runner_instance_id: '',
        lease_expires_at: null,
        lease_renewed_at: null,
        runner_service_account_id: null,
        error: null,
        outputs: null,
        started_at: null,
        completed_at: null,
        created_at: now,
        updated_at: now,
      })),
    );
  }

  /**
   * Writes a run made by `newRun` as it now is, counts it in its pipeline and points the
   * stack it is attached to at it, as one atomic write. On PostgreSQL that is one statement,
   * the writes as data-modifying `WITH` queries in the engine's lock order (runs and steps,
   * run counters, stacks); outside a transaction it commits on its own: in one, the counter's
   * and the stack's rows would stay locked across the round trips to its commit
   * (docs/benchmarks.md, optimizations 30 and 31). On SQLite, whose statements have no round
   * trips, it is one transaction.
   */
  async insertCountedRun(run: UnwrittenRun): Promise<void> {
    const { row } = run.written();
    const writes = (db: Knex) => [
      ...insertsOf(db, run),
      runCountIncrement(db, row.organization_id, row.pipeline_id),
      ...(row.attached_entity_type === 'STACK' && row.attached_entity_id
        ? [stackLatestRunUpdate(db, row.attached_entity_id, row.id)]
        : []),
    ];
    if (this.isPostgres) {
      const statements = writes(this.db);
      await this.db.raw(
        `WITH ${statements.map((_, i) => `w${i} AS (?)`).join(', ')} SELECT 1`,
        statements,
      );
      return;
    }
    const writeAll = async (db: Knex) => {
      for (const statement of writes(db)) {
        await statement;
      }
    };
    await (this.db.isTransaction
      ? writeAll(this.db)
      : this.db.transaction(async trx => {
          await markIdempotentWork(trx);
          await writeAll(trx);
        }));
  }

  /**
   * Creates a QUEUED run and its steps, and counts it in its pipeline's run counters unless
   * `countRun` is false: then the caller counts it in the same transaction (the engine does,
   * in its lock order).
   */
  async createRun(
    input: CreateRunInput,
    options: { countRun?: boolean } = {},
  ): Promise<RunRecord> {
    const run = this.newRun(input);
    for (const insert of insertsOf(this.db, run)) {
      await insert;
    }
    if (options.countRun !== false) {
      await runCountIncrement(this.db, input.organizationId, input.pipelineId);
    }
    return run.record;
  }

  async getRun(
    organizationId: string,
    id: string,
  ): Promise<RunRecord | undefined> {
    const row = await readFirst<PipelineRunRow>(
      this.db('pipeline_runs').where({ organization_id: organizationId, id }),
    );
    return row && toRun(row);
  }

  /** The engine's own read, across organizations (the run id came from its own state). */
  async getRunForEngine(id: string): Promise<RunRecord | undefined> {
    const row = await readFirst<PipelineRunRow>(
      this.db('pipeline_runs').where({ id }),
    );
    return row && toRun(row);
  }

  /**
   * The run, its row locked until the transaction ends (PostgreSQL; SQLite has a single
   * writer already). An engine transaction that changes a run's steps takes this first, so
   * that it and any other transition of the run (a cancel, a decision, a runner's report)
   * run one after the other on what the previous one committed, and take their locks in one
   * order — the run, then its steps — instead of deadlocking.
   */
  async lockRunForEngine(id: string): Promise<RunRecord | undefined> {
    const query = this.db<PipelineRunRow>('pipeline_runs')
      .where({ id })
      .first();
    if (this.isPostgres) {
      query.forUpdate();
    }
    const row = await query;
    return row && toRun(row);
  }

  /**
   * Records what the run's plan would change, in the transaction that ingests the plan; a later
   * plan of the run (a new attempt) replaces it.
   */
  async recordChangeSummary(
    id: string,
    summary: RunChangeSummary,
  ): Promise<void> {
    await this.db('pipeline_runs')
      .where({ id })
      .update({ ...changeSummaryColumns(summary), updated_at: nowTimestamp() });
  }

  /**
   * Copies the change summaries of runs planned before runs carried them (migration
   * 20261207N0000) from their plans' execution summaries: the next `batch` plan summaries,
   * newest first, in one short transaction, so that the backend keeps answering between
   * batches. Each run takes its latest plan; a run whose summary plan ingestion has written
   * meanwhile keeps it. True once there is nothing left to copy.
   */
  async backfillChangeSummaries(batch: number): Promise<boolean> {
    return this.db.transaction(async trx => {
      const progress = await trx('run_change_summary_backfill')
        .where({ id: 1 })
        .first<{ before_id: string | null } | undefined>();
      if (!progress) return true;
      const ids: string[] = await trx('iac_execution_summaries')
        .where('run_type', 'PLAN')
        .modify(q => {
          if (progress.before_id) q.where('id', '<', progress.before_id);
        })
        .orderBy('id', 'desc')
        .limit(batch)
        .pluck('id');
      if (ids.length === 0) {
        await trx('run_change_summary_backfill').delete();
        return true;
      }
      const oldest = ids[ids.length - 1];
      // `NOT applyable` of a PLAN summary: the rule of `plansNothingToApply`.
      await trx.raw(
        `UPDATE pipeline_runs SET
           plan_add_count = s.add_count,
           plan_change_count = s.change_count,
           plan_destroy_count = s.destroy_count,
           plan_import_count = s.import_count,
           plan_no_changes = NOT s.applyable
         FROM (
           SELECT pipeline_run_id, add_count, change_count, destroy_count, import_count, applyable
           FROM iac_execution_summaries s
           WHERE s.run_type = 'PLAN' AND s.id >= ? AND s.id <= ?
             AND s.id = (
               SELECT max(l.id) FROM iac_execution_summaries l
               WHERE l.organization_id = s.organization_id
                 AND l.pipeline_run_id = s.pipeline_run_id AND l.run_type = 'PLAN'
             )
         ) AS s
         WHERE pipeline_runs.id = s.pipeline_run_id
           AND pipeline_runs.plan_no_changes IS NULL`,
        [oldest, ids[0]],
      );
      await trx('run_change_summary_backfill')
        .where({ id: 1 })
        .update({ before_id: oldest });
      return false;
    });
  }

  async updateRun(id: string, patch: RunPatch): Promise<void> {
    await this.db('pipeline_runs').where({ id }).update(runColumns(patch));
  }

  /**
   * Moves a run from one of `from` to a new status; false when another transition won.
   */
  async transitionRun(
    id: string,
    from: RunStatus[],
    patch: RunPatch,
  ): Promise<boolean> {
    const updated = await this.db('pipeline_runs')
      .where({ id })
      .whereIn('status', from)
      .update(runColumns(patch));
    if (
      updated === 1 &&
      patch.status &&
      FINAL_STATUSES.includes(patch.status)
    ) {
      this.runEnds?.runEnded(patch.status);
    }
    return updated === 1;
  }

  /** Runs still waiting to be admitted, oldest first. */
  async queuedRunIds(limit: number): Promise<string[]> {
    const rows = await this.db('pipeline_runs')
      .where({ status: 'QUEUED' })
      .orderBy('id', 'asc')
      .limit(limit)
      .select('id');
    return rows.map(r => r.id);
  }

  /**
   * Running runs with no step queued, running or waiting: an instance stopped between two of
   * the engine's transactions (a step's report and the next step's start), or is about to
   * take the next one.
   */
  async stalledRunIds(limit: number): Promise<string[]> {
    const rows = await this.db('pipeline_runs as r')
      .where('r.status', 'RUNNING')
      .whereNotExists(q =>
        q
          .select('s.id')
          .from('step_executions as s')
          .whereRaw('s.pipeline_run_id = r.id')
          .whereIn('s.status', ['QUEUED', 'RUNNING', 'WAITING_FOR_APPROVAL']),
      )
      .orderBy('r.id', 'asc')
      .limit(limit)
      .select('r.id');
    return rows.map(r => r.id);
  }

  /**
   * Whether no run holds the entity or waits for it: then a new run of it, the newest, is
   * admitted at once. Read under the entity's admission lock.
   */
  async entityIsFree(
    organizationId: string,
    entityId: string,
  ): Promise<boolean> {
    const row = await readFirst<{ id: string }>(
      this.openRunsOf(organizationId, entityId).select('id'),
    );
    return !row;
  }

  /**
   * An entity's open runs, oldest first, from one read: the active run that holds it, if any,
   * and the queued runs that wait for it (the first is the next to be admitted).
   */
  async entityQueue(
    organizationId: string,
    entityId: string,
  ): Promise<{ holder?: RunRecord; queued: RunRecord[] }> {
    const rows = await readRows<PipelineRunRow>(
      this.openRunsOf(organizationId, entityId).orderBy('id', 'asc'),
    );
    const open = rows.map(toRun);
    return {
      holder: open.find(run => ACTIVE_RUN_STATUSES.includes(run.status)),
      queued: open.filter(run => run.status === 'QUEUED'),
    };
  }

  /**
   * The filter of an entity's open runs. An entity has one holder and a short queue, so every
   * read of them has this one shape, which both databases answer from
   * `pipeline_runs_org_entity_status_idx`, and its readers pick by status themselves: asked
   * for one status, SQLite's planner went through that status's runs in the whole
   * organization (24.6 ms per admission with 8,934 runs waiting for approval in it).
   */
  private openRunsOf(organizationId: string, entityId: string) {
    return this.db<PipelineRunRow>('pipeline_runs')
      .where({ organization_id: organizationId, attached_entity_id: entityId })
      .whereIn('status', OPEN_RUN_STATUSES);
  }

  /**
   * Serialises admission of one entity's runs across transactions and backend instances. On
   * PostgreSQL a transaction-scoped advisory lock; SQLite has a single writer already.
   */
  async lockEntityForAdmission(entityId: string): Promise<void> {
    if (this.isPostgres) {
      await this.db.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [
        `infra-delivery:entity:${entityId}`,
      ]);
    }
  }

  /**
   * #13. Filters combine with AND; `latestPerPipeline` / `latestPerEntity` keep the newest N
   * runs of each group among those matching the status filter.
   */
  async listRuns(
    organizationId: string,
    filter: RunListFilter,
    page: KeysetRequest,
  ): Promise<KeysetPage<RunRecord>> {
    const query = this.db<PipelineRunRow>('pipeline_runs').where({
      organization_id: organizationId,
    });
    if (filter.statuses?.length) query.whereIn('status', filter.statuses);
    if (filter.ids?.length) whereInList(query, 'id', filter.ids);
    if (filter.kinds?.length) query.whereIn('kind', filter.kinds);
    const groups: [
      'pipeline_id' | 'attached_entity_id',
      string[] | undefined,
      number | undefined,
    ][] = [
      ['pipeline_id', filter.pipelineIds, filter.latestPerPipeline],
      ['attached_entity_id', filter.attachedEntityIds, filter.latestPerEntity],
    ];
    const given = groups.filter(([, values]) => values?.length);
    if (
      given.length === 1 &&
      given[0][2] &&
      !filter.ids?.length &&
      !filter.kinds?.length
    ) {
      // Only the newest-per-group filter: its ids are the whole answer, so the page and the
      // total come from them, and only the page's rows are read.
      const [column, values, perGroup] = given[0];
      const ids = await this.latestPerGroup(
        organizationId,
        column,
        values!,
        perGroup,
        filter.statuses,
      );
      return this.pageOfIds(organizationId, ids, page);
    }
    for (const [column, values, perGroup] of groups) {
      if (!values?.length) continue;
      if (perGroup) {
        whereInList(
          query,
          'id',
          await this.latestPerGroup(
            organizationId,
            column,
            values,
            perGroup,
            filter.statuses,
            filter.kinds,
          ),
        );
      } else {
        whereInList(query, column, values);
      }
    }
    const countedByPipelines =
      !filter.statuses?.length &&
      !filter.kinds?.length &&
      !filter.ids?.length &&
      !filter.attachedEntityIds?.length &&
      !filter.latestPerPipeline;
    return keysetPage(
      query,
      'id',
      page,
      toListedRun,
      'desc',
      countedByPipelines
        ? () => this.countByPipelines(organizationId, filter.pipelineIds)
        : undefined,
    );
  }

  /** A newest-first keyset page over a known set of run ids; the total is their number. */
  private async pageOfIds(
    organizationId: string,
    ids: string[],
    page: KeysetRequest,
  ): Promise<KeysetPage<RunRecord>> {
    const afterId = page.afterId;
    // The same ids (remembered rows) give the same page.
    const { pageIds, remainingCount } = derivedOnce(
      ids,
      `page:${page.limit}:${afterId ?? ''}`,
      () => {
        const remaining = afterId ? ids.filter(id => id < afterId) : ids;
        return {
          pageIds: Object.freeze(largestFirst(remaining, page.limit)),
          remainingCount: remaining.length,
        };
      },
    );
    const rows = pageIds.length
      ? await readRows<PipelineRunRow>(
          this.db<PipelineRunRow>('pipeline_runs')
            .where({ organization_id: organizationId })
            .modify(q => whereInList(q, 'id', pageIds))
            .orderBy('id', 'desc'),
        )
      : [];
    return {
      items: rows.map(toListedRun),
      totalCount: ids.length,
      nextAfterId:
        remainingCount > page.limit ? pageIds[pageIds.length - 1] : undefined,
    };
  }

  /**
   * Runs of the organization (or of some of its pipelines) from the pipelines' run counters:
   * an index-only sum over at most a few counter rows per pipeline instead of a count over
   * every run.
   */
  private async countByPipelines(
    organizationId: string,
    pipelineIds: string[] | undefined,
  ): Promise<number> {
    const query = this.db('pipeline_run_counters')
      .where({ organization_id: organizationId })
      .sum({ count: 'run_count' });
    if (pipelineIds?.length) whereInList(query, 'pipeline_id', pipelineIds);
    const [{ count }] = await readRows<{ count: number | string | null }>(
      query,
    );
    return Number(count ?? 0);
  }

  /**
   * Ids of the newest `perGroup` runs of each group: one index range scan per group (a
   * `LATERAL` join on PostgreSQL, a correlated subquery on SQLite), far cheaper than ranking
   * every run with `ROW_NUMBER()`.
   */
  private async latestPerGroup(
    organizationId: string,
    column: 'pipeline_id' | 'attached_entity_id',
    groups: string[],
    perGroup: number,
    statuses: RunStatus[] | undefined,
    kinds: RunKind[] = [],
  ): Promise<string[]> {
    const unique = [...new Set(groups)];
    const statusFilter = [
      statuses?.length
        ? `AND status IN (${statuses.map(() => '?').join(', ')})`
        : '',
      kinds.length ? `AND kind IN (${kinds.map(() => '?').join(', ')})` : '',
    ].join(' ');
    if (this.isPostgres) {
      const rows = await readRows<{ id: string }>(
        this.db.raw(
          `SELECT r.id FROM unnest(?::text[]) AS g(value)
         CROSS JOIN LATERAL (
           SELECT id FROM pipeline_runs
           WHERE organization_id = ? AND ${column} = g.value ${statusFilter}
           ORDER BY id DESC LIMIT ?
         ) r`,
          [unique, organizationId, ...(statuses ?? []), ...kinds, perGroup],
        ),
      );
      // Once per remembered rows, so that the page picked from them is kept too.
      return derivedOnce(rows, 'ids', () => rows.map(r => r.id));
    }
    // SQLite has no LATERAL: one statement whose correlated subquery runs the same per-group
    // index range scan for each group. 200 separate statements took twice the database time,
    // and through Knex each one was also compiled, prepared and awaited on its own. Each
    // group's ids come back joined in one value: joining the subquery back to the runs looked
    // every id up again and took twice as long (docs/benchmarks.md, optimization 26). Run ids
    // are UUIDs, so a comma cannot occur in one. The groups go as one JSON array, which took
    // a third less time than binding 200 values one by one (optimization 36).
    const rows = await readRows<{ ids: string | null }>(
      this.db.raw(
        `WITH g(value) AS (SELECT value FROM json_each(?))
       SELECT (
         SELECT group_concat(id) FROM (
           SELECT id FROM pipeline_runs
           WHERE organization_id = ? AND ${column} = g.value ${statusFilter}
           ORDER BY id DESC LIMIT ?
         )
       ) AS ids FROM g`,
        [
          JSON.stringify(unique),
          organizationId,
          ...(statuses ?? []),
          ...kinds,
          perGroup,
        ],
      ),
    );
    return idsOfGroups(rows);
  }

  async listSteps(runId: string): Promise<StepRecord[]> {
    const rows: NamedStepRow[] = await withRunner(
      this.db<StepExecutionRow>('step_executions')
        .select('step_executions.*')
        .where('step_executions.pipeline_run_id', runId)
        .orderBy('step_executions.position', 'asc'),
    );
    return rows.map(toStep);
  }

  async getStep(
    organizationId: string,
    id: string,
  ): Promise<StepRecord | undefined> {
    const row: NamedStepRow | undefined = await withRunner(
      this.db<StepExecutionRow>('step_executions')
        .select('step_executions.*')
        .where('step_executions.organization_id', organizationId)
        .where('step_executions.id', id)
        .first(),
    );
    return row && toStep(row);
  }

  async updateStep(id: string, patch: StepPatch): Promise<void> {
    await this.db('step_executions').where({ id }).update(stepColumns(patch));
  }

  /**
   * Moves the expiry of the lease `step` was read with, while the step still runs under that
   * lease: false when a report, a cancel or the lease's expiry ended it, or another attempt
   * took it, since it was read.
   */
  async renewLease(
    step: Pick<StepRecord, 'id' | 'attemptEpoch' | 'leaseTokenHash'>,
    leaseExpiresAt: string,
    /** How often the runner renews the lease, where it says: kept with the lease. */
    heartbeatIntervalMs?: number,
  ): Promise<boolean> {
    const updated = await this.db('step_executions')
      .where({
        id: step.id,
        status: 'RUNNING',
        attempt_epoch: step.attemptEpoch,
        lease_token_hash: step.leaseTokenHash,
      })
      .update(
        stepColumns({
          leaseExpiresAt,
          leaseHeartbeatIntervalMs: heartbeatIntervalMs,
        }),
      );
    return updated === 1;
  }

  /** Moves a step from one of `from`; false when another transition won. */
  async transitionStep(
    id: string,
    from: StepStatus[],
    patch: StepPatch,
  ): Promise<boolean> {
    const updated = await this.db('step_executions')
      .where({ id })
      .whereIn('status', from)
      .update(stepColumns(patch));
    return updated === 1;
  }

  /**
   * The oldest step of the organization waiting for a runner whose labels it carries, locked for
   * this transaction. PostgreSQL skips rows other claimers hold, so concurrent runners never get
   * the same step.
   *
   * The queue is read per label set (`required_runner_labels`, the copy of the step's stack's
   * labels, `[]` for any runner): first the sets waiting (a skip scan of the index, one probe per
   * distinct set), then the oldest few steps of each set the runner carries, each an index range,
   * then the oldest of those, locked by id. Steps requiring labels the runner lacks are never
   * read, however many wait. With more than `CLAIM_CANDIDATES_PER_SET` claimers at once on one
   * set, a claim may find every head locked and answer nothing; its runner asks again. The step
   * picked is checked against its stack's labels as they are now, so a copy left out of date by
   * a label change racing the step's creation cannot hand it to the wrong runner
   * (`refreshRequiredLabels` brings such copies up to date).
   */
  async lockNextClaimableStep(
    organizationId: string,
    types: StepType[],
    /** The labels the claiming runner carries: steps of stacks requiring others are left. */
    runnerLabels: string[] = [],
  ): Promise<(StepRecord & { queuedAt: string }) | undefined> {
    const row = this.isPostgres
      ? await this.lockNextClaimableOnPostgres(
          organizationId,
          types,
          runnerLabels,
        )
      : await this.nextClaimableOnSqlite(organizationId, types, runnerLabels);
    // Its last change was its queueing: when it began to wait for a runner.
    return row && { ...toStep(row), queuedAt: toTimestamp(row.updated_at) };
  }

  /**
   * `lockNextClaimableStep` on PostgreSQL, in one statement (as the claim was before the label
   * sets): the sets, each carried set's head through a `LATERAL` join, the step locked. The
   * status compared as an expression and the live label check wrapped in `IS TRUE` keep the
   * planner on the heads: the status index, or the check made an anti join over every labeled
   * stack, each read every queued step (4.8 ms at 5,000 instead of 2).
   */
  private async lockNextClaimableOnPostgres(
    organizationId: string,
    types: StepType[],
    runnerLabels: string[],
  ): Promise<StepExecutionRow | undefined> {
    const list = (values: readonly unknown[]) =>
      values.map(() => '?').join(', ');
    const lacking = runnerLabels.length
      ? `WHERE required.value NOT IN (${list(runnerLabels)})`
      : '';
    const result = await this.db.raw(
      `WITH RECURSIVE ${WAITING_LABEL_SETS}
       SELECT step_executions.* FROM sets
       CROSS JOIN LATERAL (
         SELECT queued.id FROM step_executions AS queued
         WHERE queued.organization_id = ? AND queued.status = 'QUEUED'
           AND queued.required_runner_labels = sets.labels AND queued.type IN (${list(
             types,
           )})
         ORDER BY queued.id LIMIT ?
       ) AS head
       JOIN step_executions ON step_executions.id = head.id
       WHERE sets.labels IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM json_array_elements_text(sets.labels::json)
           AS required(value) ${lacking})
         AND step_executions.status || '' = 'QUEUED'
         AND (NOT EXISTS ?) IS TRUE
       ORDER BY step_executions.id LIMIT 1
       FOR UPDATE OF step_executions SKIP LOCKED`,
      [
        organizationId,
        organizationId,
        organizationId,
        ...types,
        CLAIM_CANDIDATES_PER_SET,
        ...runnerLabels,
        this.requiresOtherLabels(runnerLabels),
      ],
    );
    return (result.rows as StepExecutionRow[])[0];
  }

  /** `lockNextClaimableStep` on SQLite, whose one writer needs no lock: three reads. */
  private async nextClaimableOnSqlite(
    organizationId: string,
    types: StepType[],
    runnerLabels: string[],
  ): Promise<StepExecutionRow | undefined> {
    const carried = (await this.waitingLabelSets(organizationId)).filter(
      labels =>
        carriesRunnerLabels(runnerLabels, fromJsonColumn<string[]>(labels)),
    );
    const head = (labels: string) =>
      this.db('step_executions')
        .select('id')
        .where({
          organization_id: organizationId,
          status: 'QUEUED',
          required_runner_labels: labels,
        })
        .whereIn('type', types)
        .orderBy('id', 'asc')
        .limit(CLAIM_CANDIDATES_PER_SET);
    if (carried.length === 0) {
      return undefined;
    }
    // Each head as a subquery of its own: SQLite takes no parenthesized member of a UNION.
    const [first, ...others] = carried.map((labels, i) =>
      this.db.select('id').from(head(labels).as(`set_${i}`)),
    );
    if (others.length > 0) first.unionAll(others);
    // The heads read apart, then the step among them by id: in one statement SQLite scanned
    // every queued step of the organization for the few ids of the heads.
    const candidates = (await first).map((row: { id: string }) => row.id);
    if (candidates.length === 0) {
      return undefined;
    }
    return (
      this.db<StepExecutionRow>('step_executions')
        .whereIn('id', candidates)
        // Without statistics SQLite walked the status index past every queued step for these
        // few ids: an expression of the status keeps it out of its choice of index.
        .whereRaw(`status || '' = ?`, ['QUEUED'])
        .whereNotExists(this.requiresOtherLabels(runnerLabels))
        .orderBy('id', 'asc')
        .first()
    );
  }

  /**
   * The distinct label sets of the organization's queued steps (JSON, as copied from their
   * stacks; `[]` for the steps any runner may take): one index probe per set, each starting
   * after the last (a skip scan written as a recursive query; neither database skips by itself).
   */
  private async waitingLabelSets(organizationId: string): Promise<string[]> {
    const rows = await readRows<{ labels: string | null }>(
      this.db.raw(
        `WITH RECURSIVE ${WAITING_LABEL_SETS}
         SELECT labels FROM sets WHERE labels IS NOT NULL`,
        [organizationId, organizationId],
      ),
      { remember: false },
    );
    return rows.map(row => row.labels!);
  }

  /**
   * Brings the label copies of the organization's waiting steps (PENDING and QUEUED) up to date
   * with their stacks, where they differ: what a label change racing a run's creation, or a
   * retry of a run after one, left behind. It reads every waiting step's run and stack, so the
   * engine runs it only now and then (`PipelineEngine.claim`). Returns how many it corrected.
   */
  async refreshRequiredLabels(organizationId: string): Promise<number> {
    return this.db('step_executions')
      .where({ organization_id: organizationId })
      .whereIn('status', ['PENDING', 'QUEUED'])
      .whereRaw(`required_runner_labels <> ${STACK_LABELS_OF_STEP}`)
      .update({
        required_runner_labels: this.db.raw(STACK_LABELS_OF_STEP),
      });
  }

  /**
   * Copies a stack's labels onto the waiting steps (PENDING and QUEUED) of its runs not yet
   * ended: after they changed, in the transaction that changes them.
   */
  async copyStackLabels(
    organizationId: string,
    stackId: string,
  ): Promise<void> {
    await this.db('step_executions')
      .where({ organization_id: organizationId })
      .whereIn('status', ['PENDING', 'QUEUED'])
      .whereIn(
        'pipeline_run_id',
        this.db('pipeline_runs')
          .select('id')
          .where({
            organization_id: organizationId,
            attached_entity_id: stackId,
            attached_entity_type: 'STACK',
          })
          .whereIn('status', ['QUEUED', 'RUNNING', 'WAITING_FOR_APPROVAL']),
      )
      .update({
        required_runner_labels: this.db.raw(
          `COALESCE((SELECT runner_labels FROM stacks WHERE id = ?), '${ANY_RUNNER}')`,
          [stackId],
        ),
      });
  }

  /**
   * For the step of the outer query (`step_executions`): its run's stack requires a runner
   * label that is not among `runnerLabels` (the rule of `carriesRunnerLabels`). Two primary-key
   * lookups per queued step looked at (its run, its stack); a stack that requires none
   * (`runner_labels` null) is answered without reading JSON, so a claim's cost is unchanged
   * where no stack requires labels.
   */
  private requiresOtherLabels(runnerLabels: string[]): Knex.QueryBuilder {
    const elements = this.isPostgres
      ? 'json_array_elements_text(stacks.runner_labels::json) as required(value)'
      : 'json_each(stacks.runner_labels) as required';
    const missing = this.db.select(this.db.raw('1')).fromRaw(elements);
    if (runnerLabels.length > 0) {
      missing.whereNotIn('required.value', runnerLabels);
    }
    return this.db
      .select(this.db.raw('1'))
      .from('pipeline_runs')
      .join('stacks', join =>
        join
          .on('stacks.id', 'pipeline_runs.attached_entity_id')
          .andOn('stacks.organization_id', 'pipeline_runs.organization_id'),
      )
      .whereRaw('pipeline_runs.id = step_executions.pipeline_run_id')
      .where('pipeline_runs.attached_entity_type', 'STACK')
      .whereNotNull('stacks.runner_labels')
      .whereExists(missing);
  }

  /**
   * How many runs wait for admission and how many steps of these types wait for a claim, across
   * organizations: two counts on the status indexes, for the service's metrics.
   */
  async countQueue(
    types: StepType[],
  ): Promise<{ queuedRuns: number; queuedSteps: number }> {
    const [[runs], [steps]] = await Promise.all([
      readRows<{ count: number | string }>(
        this.db('pipeline_runs')
          .where({ status: 'QUEUED' })
          .count('* as count'),
        { remember: false },
      ),
      readRows<{ count: number | string }>(
        this.db('step_executions')
          .where({ status: 'QUEUED' })
          .whereIn('type', types)
          .count('* as count'),
        { remember: false },
      ),
    ]);
    return { queuedRuns: Number(runs.count), queuedSteps: Number(steps.count) };
  }

  /** Which of these runs have a step of these types queued for a claim. */
  /**
   * The steps of these types in these runs that wait for a claim (QUEUED) or that a runner
   * executes (RUNNING): what a list of runs says about runners.
   */
  async activeRunnerSteps(
    runIds: string[],
    types: StepType[],
  ): Promise<ActiveRunnerStep[]> {
    if (runIds.length === 0) {
      return [];
    }
    // Read for every page of runs with running ones on it, so sent to the driver directly.
    const rows = await readRows<
      Pick<
        NamedStepRow,
        | 'id'
        | 'pipeline_run_id'
        | 'name'
        | 'status'
        | 'lease_runner_id'
        | 'lease_expires_at'
        | 'lease_renewed_at'
        | 'lease_heartbeat_interval_ms'
        | 'runner_name'
        | 'runner_last_seen_at'
        | 'started_at'
        | 'updated_at'
      >
    >(
      withRunner(
        this.db<StepExecutionRow>('step_executions')
          .select(
            'step_executions.id',
            'step_executions.pipeline_run_id',
            'step_executions.name',
            'step_executions.status',
            'step_executions.lease_runner_id',
            'step_executions.lease_expires_at',
            'step_executions.lease_renewed_at',
            'step_executions.lease_heartbeat_interval_ms',
            'step_executions.started_at',
            'step_executions.updated_at',
          )
          .whereIn('step_executions.pipeline_run_id', runIds)
          .whereIn('step_executions.status', ['QUEUED', 'RUNNING'])
          .whereIn('step_executions.type', types),
      ),
    );
    return rows.map(row => ({
      id: row.id,
      pipelineRunId: row.pipeline_run_id,
      name: row.name,
      status: row.status,
      leaseRunnerId: optional(row.lease_runner_id),
      leaseExpiresAt: toOptionalTimestamp(row.lease_expires_at),
      leaseRenewedAt: toOptionalTimestamp(row.lease_renewed_at),
      leaseHeartbeatIntervalMs: optional(row.lease_heartbeat_interval_ms),
      runnerName: optional(row.runner_name),
      runnerLastSeenAt: toOptionalTimestamp(row.runner_last_seen_at),
      startedAt: toOptionalTimestamp(row.started_at),
      updatedAt: toTimestamp(row.updated_at),
    }));
  }

  /** Steps of one type in one status across organizations, oldest first: in-process work. */
  async stepsOfTypeInStatus(
    type: StepType,
    status: StepStatus,
    limit: number,
  ): Promise<StepRecord[]> {
    const rows = await this.db<StepExecutionRow>('step_executions')
      .where({ status, type })
      .orderBy('id', 'asc')
      .limit(limit);
    return rows.map(toStep);
  }

  /** Steps whose runner stopped renewing its lease. */
  /** The RUNNING steps of the organization that the runners `runnerIds` hold a lease on. */
  async leasedStepsOfRunners(
    organizationId: string,
    runnerIds: string[],
  ): Promise<StepRecord[]> {
    if (runnerIds.length === 0) {
      return [];
    }
    const rows = await this.db<StepExecutionRow>('step_executions')
      .where({ organization_id: organizationId, status: 'RUNNING' })
      .whereIn('lease_runner_id', runnerIds)
      .orderBy('id', 'asc');
    return rows.map(toStep);
  }

  /**
   * Moves a RUNNING step whose lease (`leaseTokenHash`) expired before `now`: a compare-and-set,
   * false when its runner renewed the lease, reported or was cancelled in the meantime.
   */
  async transitionExpiredLease(
    step: Pick<StepRecord, 'id' | 'leaseTokenHash'>,
    now: string,
    patch: StepPatch,
  ): Promise<boolean> {
    const updated = await this.db('step_executions')
      .where({
        id: step.id,
        status: 'RUNNING',
        lease_token_hash: step.leaseTokenHash,
      })
      .where('lease_expires_at', '<', now)
      .update(stepColumns(patch));
    return updated === 1;
  }

  async expiredLeases(now: string, limit: number): Promise<StepRecord[]> {
    const rows = await this.db<StepExecutionRow>('step_executions')
      .where({ status: 'RUNNING' })
      .whereNotNull('lease_expires_at')
      .where('lease_expires_at', '<', now)
      .orderBy('id', 'asc')
      .limit(limit);
    return rows.map(toStep);
  }

  /** Cancelled steps whose runner's grace ran out without its report, oldest first. */
  async expiredCancelGraces(now: string, limit: number): Promise<StepRecord[]> {
    const rows: NamedStepRow[] = await withRunner(
      this.db<StepExecutionRow>('step_executions')
        .select('step_executions.*')
        .where('step_executions.status', 'CANCELLED')
        .whereNotNull('step_executions.lease_expires_at')
        .where('step_executions.lease_expires_at', '<', now)
        .orderBy('step_executions.id', 'asc')
        .limit(limit),
    );
    return rows.map(toStep);
  }

  /**
   * Ends the grace in which a cancelled step takes its runner's lines and report; false when
   * it had ended already (the report and the grace's expiry race; one of them writes).
   */
  async closeCancelGrace(id: string): Promise<boolean> {
    const updated = await this.db('step_executions')
      .where({ id, status: 'CANCELLED' })
      .whereNotNull('lease_expires_at')
      .update(stepColumns({ leaseExpiresAt: null }));
    return updated === 1;
  }

  async appendLogs(
    step: { organizationId: string; id: string; attemptEpoch: number },
    lines: { timestamp?: string; text: string }[],
  ): Promise<void> {
    const now = nowTimestamp();
    const rows = lines.map(line => ({
      organization_id: step.organizationId,
      step_execution_id: step.id,
      attempt_epoch: step.attemptEpoch,
      timestamp: line.timestamp ?? now,
      // PostgreSQL refuses a NUL in text: one line of a command's binary output failed the
      // whole batch with a 500, and the runner, sending it again, lost every later line.
      text: line.text.replaceAll('\u0000', '\uFFFD'),
    }));
    // Knex inserts many rows into SQLite as one compound SELECT, which SQLite caps at 500
    // terms: a runner's batch of up to 1,000 lines failed with a 500, and again on each retry.
    for (let i = 0; i < rows.length; i += LOG_LINES_PER_INSERT) {
      await this.db('step_logs').insert(
        rows.slice(i, i + LOG_LINES_PER_INSERT),
      );
    }
  }

  async listLogs(
    stepId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<StepLogLine>> {
    return keysetPage(
      this.db('step_logs').where({ step_execution_id: stepId }),
      'id',
      page,
      (row: {
        id: string | number;
        attempt_epoch: number;
        timestamp: Timestamp;
        text: string;
      }) => ({
        id: String(row.id),
        attemptEpoch: row.attempt_epoch,
        timestamp: toTimestamp(row.timestamp),
        text: row.text,
      }),
      'asc',
    );
  }
}
