/**
 * The pipeline engine. All of its state is in the database, so any number of backend
 * instances can drive it:
 *
 * - A triggered run starts QUEUED with one PENDING step execution per step of its version.
 * - Admission: a run attached to a stack is admitted (RUNNING) only when no other run holds
 *   that stack and it is the stack's oldest queued run. Admission of one stack is serialised
 *   (a transaction-scoped advisory lock on PostgreSQL, SQLite's single writer), so two
 *   instances never admit two runs of one stack. A held run records who holds it in its
 *   `queueState`.
 * - Advancing: the first unfinished step of a RUNNING run is started. IaC steps become QUEUED
 *   for runners, which claim them with a lease (PostgreSQL's `SKIP LOCKED` keeps two claimers
 *   off one step); approvals wait for a person. Every transition is a compare-and-set on the
 *   current status, so a late or duplicate actor changes nothing.
 * - A runner that stops heartbeating loses its lease; the step is queued again and the run's
 *   `attemptEpoch` grows, so the old runner's reports are refused.
 * - A run cancelled while a runner executes its step: the step is CANCELLED at once, and for a
 *   lease's length (its `leaseExpiresAt` then bounds this grace) the runner's log lines are
 *   still kept, answered with `cancelRequested`, so that what the tool prints while it stops
 *   reaches the step's log. The runner's report, or the grace's end, closes it with a line
 *   that says who cancelled the run. A step cancelled while still QUEUED gets that line at once,
 *   with that no runner had taken it, so its log is not left empty.
 * - A run that finishes releases its stack and the stack's next queued run is admitted. A
 *   scheduled tick repeats admission, advancing and lease expiry as a safety net, for the
 *   work a stopped instance left between two transactions.
 */
import { createHash, randomBytes } from 'node:crypto';
import { LoggerService } from '@backstage/backend-plugin-api';
import {
  APPROVAL_REJECTED_ERROR_CODE,
  ErrorBody,
  errorCode,
  FINAL_STATUSES,
  PLAN_CHANGED_ERROR_CODE,
  RunStatus,
  StepType,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  CreateRunInput,
  RunRecord,
  RunTransitions,
  StepRecord,
} from '../database/PipelineRunStore';
import { RevokedRunners } from '../database/RunnerStore';
import { Stores } from '../database/stores';
import { nowTimestamp } from '../database/timestamps';
import { InfraDeliveryError } from '../errors';
import { RunChanges } from './RunChanges';
import { ClaimWaits } from '../runners/ClaimWaits';
import { DeliveryMetrics } from '../metrics/DeliveryMetrics';
import { RunEvents, RunStatusChange } from './RunEvents';
import {
  driftCheckGivingWay,
  driftCheckSkipped,
  recordDriftCheckEnd,
} from './driftChecks';

/**
 * A PLAN_CHANGED error of a step that ran on another runner than its run's plan, with the likely
 * cause said: each runner with local state (or its own working directory) plans against its own,
 * so with two runners online applies fail at random. Unchanged when the same runner planned.
 */
async function planChangedOnAnotherRunner(
  tx: Stores,
  step: StepRecord,
  error: ErrorBody,
): Promise<ErrorBody> {
  const plan = (await tx.pipelineRuns.listSteps(step.pipelineRunId)).find(
    candidate =>
      candidate.type === 'iac.plan' && candidate.status === 'SUCCEEDED',
  );
  if (
    !plan?.leaseRunnerId ||
    !step.leaseRunnerId ||
    plan.leaseRunnerId === step.leaseRunnerId
  ) {
    return error;
  }
  const explanation = `The plan ran on runner ${plan.leaseRunnerId} and this step on runner ${step.leaseRunnerId}. If the state or the working directory is local to each runner, they plan against different states: use a remote state backend shared by the runners, or run one runner for these stacks.`;
  return {
    ...error,
    description: error.description
      ? `${error.description}\n\n${explanation}`
      : explanation,
  };
}

/** Steps that runners execute over the runner protocol. */
export const RUNNER_STEP_TYPES: StepType[] = [
  'iac.plan',
  'iac.apply',
  'iac.destroy',
];

export const DEFAULT_LEASE_SECONDS = 60;
/** How often, at most, a claim that found nothing brings an organization's label copies up to date. */
export const LABEL_REFRESH_MS = 30_000;

export function hashLeaseToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function leaseLost(message: string) {
  return new InfraDeliveryError({
    status: 409,
    entity: 'Runner',
    reason: 'LEASE_LOST',
    message,
  });
}

/** A heartbeat's answer on a step cancelled under its lease: the runner is to stop. */
function cancelRequested(step: StepRecord) {
  return {
    leaseExpiresAt: step.leaseExpiresAt ?? nowTimestamp(),
    cancelRequested: true,
  };
}

/** The answer to log lines of a step cancelled under the lease, during its grace. */
export interface CancelledStepLogs {
  cancelRequested: true;
  acceptLogsUntil: string;
}

/** Whether a CANCELLED step still takes its runner's log lines and report. */
function inCancelGrace(step: StepRecord, now = Date.now()): boolean {
  return (
    step.status === 'CANCELLED' &&
    step.leaseTokenHash !== undefined &&
    step.leaseExpiresAt !== undefined &&
    Date.parse(step.leaseExpiresAt) > now
  );
}

/** A step's runner as the portal names it: its service account's name, else its id. */
function runnerOf(step: StepRecord): string {
  return `runner ${step.runnerName ?? step.leaseRunnerId}`;
}

/** Why a step cancelled while QUEUED has no other lines: nobody had started it. */
function notTakenYet(step: StepRecord): string {
  return RUNNER_STEP_TYPES.includes(step.type)
    ? 'no runner had taken the step yet'
    : 'the step had not started yet';
}

/** What the run's end says of who cancelled it ("The run was cancelled by guest"). */
function cancelMessage(runError: ErrorBody | null | undefined): string {
  return runError?.message ?? 'The run was cancelled';
}

export interface StepResult {
  status: 'SUCCEEDED' | 'FAILED';
  outputs?: Record<string, unknown>;
  error?: ErrorBody;
}

/** A run `PipelineEngine.startRun` started, with its steps where it wrote them itself. */
export interface StartedRun {
  run: RunRecord;
  steps?: StepRecord[];
}

/**
 * The step, when it is still RUNNING in the given attempt: what a step the backend executes
 * itself may still write to. A late or duplicate actor gets nothing.
 */
async function runningAttempt(
  tx: Stores,
  step: Pick<StepRecord, 'id' | 'organizationId'>,
  attemptEpoch: number,
): Promise<StepRecord | undefined> {
  const current = await tx.pipelineRuns.getStep(step.organizationId, step.id);
  return current?.status === 'RUNNING' && current.attemptEpoch === attemptEpoch
    ? current
    : undefined;
}

export class PipelineEngine {
  /** Runners' claims held while nothing is claimable: woken when a run may have queued a step. */
  readonly claimWaits = new ClaimWaits();
  /**
   * Since when runners could reach this instance without a break: its start, or the end of its
   * last pause (the process stopped, SIGSTOP, a frozen VM, an event loop blocked). Runners could
   * not renew their leases before, however long it lasted: no lease expires here until they
   * have had a whole lease to renew theirs.
   */
  private reachableSince = Date.now();
  /** When the pause watch last ran; undefined while it is not watching. */
  private lastAwake?: number;
  /** When each organization's steps' label copies were last brought up to date, by id (ms). */
  private readonly labelsRefreshedAt = new Map<string, number>();

  constructor(
    private readonly deps: {
      stores: Stores;
      logger: LoggerService;
      events: RunEvents;
      leaseSeconds?: number;
      metrics?: DeliveryMetrics;
    },
  ) {}

  private get leaseMs() {
    return (this.deps.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
  }

  /**
   * A break longer than this between two turns of the pause watch is a pause: half a lease.
   * Runners renew every third of a lease, so a shorter break cannot cost one its lease; and the
   * event loop of a busy machine runs late by hundreds of milliseconds without any pause (at a
   * quarter of a 3 s lease, a loaded CI machine passed for a frozen backend and kept a lease
   * that had lapsed).
   */
  private get pauseMs() {
    return this.leaseMs / 2;
  }

  /**
   * Watches this process for pauses (see `reachableSince`) until the returned function is
   * called: a timer that should run every `pauseMs / 5` notices when it ran much later. A
   * backend frozen for longer than the lease would otherwise, on waking, queue again the steps
   * of runners that kept working and kept trying to renew — reporting them as stopped, running
   * the step twice, an apply even while the first is still applying.
   */
  watchForPauses(): () => void {
    this.lastAwake = Date.now();
    const timer = setInterval(() => this.noticePause(), this.pauseMs / 5);
    timer.unref?.();
    return () => {
      clearInterval(timer);
      this.lastAwake = undefined;
    };
  }

  /** Since when runners could reach this instance without a break (`reachableSince`, ms). */
  instanceReachableSince(): number {
    this.noticePause();
    return this.reachableSince;
  }

  /** Moves `reachableSince` to now when the pause watch has not run for `pauseMs`. */
  private noticePause(): void {
    if (this.lastAwake === undefined) {
      return;
    }
    const now = Date.now();
    if (now - this.lastAwake > this.pauseMs) {
      this.reachableSince = now;
      this.deps.logger.warn(
        `This backend instance did not run for ${Math.round(
          (now - this.lastAwake) / 1000,
        )}s (stopped or frozen): runners could not renew their leases meanwhile, so none expires here for ${
          this.leaseMs / 1000
        }s`,
      );
    }
    this.lastAwake = now;
  }

  /**
   * Creates a run and, in the same atomic write, tries to admit it and start its first step:
   * one commit for what a trigger changes, its pipeline's count and its stack's pointer
   * included. Returns the run as committed; its changes are announced after the commit.
   */
  async start(input: CreateRunInput): Promise<RunRecord> {
    return (await this.startRun(input)).run;
  }

  /** `start`, with the run's steps as committed where the start wrote them itself. */
  async startRun(input: CreateRunInput): Promise<StartedRun> {
    const changes = new RunChanges();
    const { stores } = this.deps;
    const entityId = input.attachedEntityId;
    if (!entityId) {
      // Nothing can hold a run attached to nothing: it is admitted and its first step started
      // on its rows before they are written, and the rows and its count are written at once
      // (docs/benchmarks.md, optimizations 29, 30 and 44).
      const started = await this.startUnwritten(stores, input, changes);
      this.countStart(started);
      await this.afterCommit(
        changes,
        started.finished ? started.run.id : undefined,
      );
      return started;
    }
    const started = await stores.transaction(async tx => {
      await tx.pipelineRuns.lockEntityForAdmission(entityId);
      if (await tx.pipelineRuns.entityIsFree(input.organizationId, entityId)) {
        // Nothing holds the entity and nothing waits for it, and the lock keeps it so until
        // the commit: the new run is admitted as a run attached to nothing is (optimization 31).
        return this.startUnwritten(tx, input, changes);
      }
      // Admission reads the entity's queued runs, this one among them: it is written first.
      const created = await tx.pipelineRuns.createRun(input, {
        countRun: false,
      });
      changes.recordCreated(created);
      const done = await this.admitIn(tx, created, changes);
      await changes.writePointers(tx);
      const written = await tx.pipelineRuns.getRunForEngine(created.id);
      return { run: written!, finished: done, endedUnwritten: false };
    });
    this.countStart(started);
    await this.afterCommit(
      changes,
      started.finished ? started.run.id : undefined,
    );
    return started;
  }

  /**
   * A new run that nothing can hold: admitted and its first step started on its rows before
   * they are written, then the rows, its pipeline's count and its stack's pointer written at
   * once.
   */
  private async startUnwritten(
    stores: Stores,
    input: CreateRunInput,
    changes: RunChanges,
  ): Promise<StartedRun & { finished: boolean; endedUnwritten: boolean }> {
    const fresh = stores.pipelineRuns.newRun(input);
    const queued = fresh.record;
    changes.recordCreated(queued);
    const finished = await this.enterRunning(queued, changes, fresh);
    await stores.pipelineRuns.insertCountedRun(fresh);
    const run = fresh.record;
    return {
      run,
      steps: await fresh.listSteps(run.id),
      finished,
      endedUnwritten: finished,
    };
  }

  /**
   * A committed start, for the metrics: the run, and its end where it ended before its rows
   * were written (a version without steps), which no store's write announced.
   */
  private countStart(started: { run: RunRecord; endedUnwritten: boolean }) {
    this.deps.metrics?.runTriggered(started.run.kind);
    if (started.endedUnwritten) {
      this.deps.metrics?.runEnded(started.run.status);
    }
  }

  /**
   * A run created and committed by its caller: announces it (a held run is its pipeline's
   * and stack's latest run too), then tries to admit it, all in one transaction.
   */
  async enqueue(runId: string): Promise<void> {
    await this.admitRun(runId, true);
  }

  /** Tries to admit a queued run, and starts its first step when it is admitted. */
  async admit(runId: string): Promise<void> {
    await this.admitRun(runId, false);
  }

  private async admitRun(runId: string, announceQueued: boolean) {
    const changes = new RunChanges();
    let enqueued: RunRecord | undefined;
    const finished = await this.deps.stores.transaction(async tx => {
      const run = await tx.pipelineRuns.getRunForEngine(runId);
      if (!run) {
        return false;
      }
      if (announceQueued) {
        enqueued = run;
        // Its creator's transaction wrote no pointers: this one does, unless it was
        // admitted elsewhere meanwhile (then that transaction did).
        if (run.status === 'QUEUED') {
          changes.record(run);
        } else {
          changes.announce(run);
        }
      }
      const done =
        run.status === 'QUEUED' && (await this.admitIn(tx, run, changes));
      await changes.writePointers(tx);
      return done;
    });
    if (enqueued) {
      this.deps.metrics?.runTriggered(enqueued.kind);
    }
    await this.afterCommit(changes, finished ? runId : undefined);
  }

  /**
   * Admission of a queued run inside `tx`; an admitted run's first step is started in it too.
   * True when the run finished there (a version without steps).
   */
  private async admitIn(
    tx: Stores,
    run: RunRecord,
    changes: RunChanges,
  ): Promise<boolean> {
    if (run.attachedEntityId) {
      await tx.pipelineRuns.lockEntityForAdmission(run.attachedEntityId);
      const blockerOf = async () => {
        const { holder, queued } = await tx.pipelineRuns.entityQueue(
          run.organizationId,
          run.attachedEntityId!,
        );
        const [first] = queued;
        return holder ?? (first?.id !== run.id ? first : undefined);
      };
      let blocker = await blockerOf();
      const givingWay =
        blocker && (await driftCheckGivingWay(tx, run, blocker));
      if (givingWay) {
        const skipped = await this.finishRun(
          tx,
          givingWay.id,
          'CANCELLED',
          driftCheckSkipped(givingWay, run),
          ['QUEUED', 'RUNNING'],
        );
        if (skipped) {
          changes.record(givingWay, 'CANCELLED');
        }
        if (givingWay.id === run.id) {
          if (!skipped) {
            changes.withdraw(run.id);
          }
          return false;
        }
        blocker = await blockerOf();
      }
      if (blocker) {
        // Read by people: the stack and the run by name where they have one.
        const stack = await tx.stacks.get(
          run.organizationId,
          run.attachedEntityId,
        );
        const stackName = stack?.name ?? run.attachedEntityId;
        const blockerName = blocker.description
          ? `“${blocker.description}”`
          : blocker.id;
        await tx.pipelineRuns.updateRun(run.id, {
          queueReason:
            blocker.status === 'QUEUED'
              ? `Held: stack ${stackName} has an older queued run ${blockerName}`
              : `Held: stack ${stackName} is busy with run ${blockerName}`,
          queueConditionKey: `stack:${run.attachedEntityId}`,
          queueState: {
            preflightBlockedByAdmissionCondition: true,
            stackRunPreflightPending: false,
            reason: 'STACK_BUSY',
            blockingEntityType: 'STACK',
            blockingEntityId: run.attachedEntityId,
            blockingRunId: blocker.id,
            conditionKey: `stack:${run.attachedEntityId}`,
            projectId: run.projectId,
          },
        });
        return false;
      }
    }
    return this.enterRunning(run, changes, tx.pipelineRuns);
  }

  /**
   * The admission itself, once nothing holds the run: QUEUED → RUNNING, then its first step is
   * started. Through `rows`: a transaction's store, or a new run's rows before their insert.
   * True when the run finished there (a version without steps).
   */
  private async enterRunning(
    run: RunRecord,
    changes: RunChanges,
    rows: RunTransitions,
  ): Promise<boolean> {
    const now = nowTimestamp();
    const admitted = await rows.transitionRun(run.id, ['QUEUED'], {
      status: 'RUNNING',
      startedAt: run.startedAt ?? now,
      lastAttemptStartedAt: now,
      queueReason: null,
      queueConditionKey: null,
      queueState: {
        preflightBlockedByAdmissionCondition: false,
        stackRunPreflightPending: false,
        projectId: run.projectId,
      },
      engineWorkflowId: `pipeline-run/${run.id}`,
      engineRunId: `${run.id}/attempt-${run.attemptEpoch}`,
    });
    if (!admitted) {
      changes.withdraw(run.id);
      return false;
    }
    changes.record(run, 'RUNNING');
    return this.advanceIn({ ...run, status: 'RUNNING' }, changes, rows);
  }

  /** Starts the run's next step, or finishes the run when every step is done. */
  async advance(runId: string): Promise<void> {
    const changes = new RunChanges();
    const finished = await this.deps.stores.transaction(async tx => {
      const run = await tx.pipelineRuns.lockRunForEngine(runId);
      if (!run) {
        return false;
      }
      const done = await this.advanceIn(run, changes, tx.pipelineRuns);
      await changes.writePointers(tx);
      return done;
    });
    await this.afterCommit(changes, finished ? runId : undefined);
  }

  /**
   * Through `rows` (a transaction's store, or a new run's rows before their insert): starts the
   * next step of a RUNNING run, or finishes the run (true) when every step is done. The run is
   * announced as it then is, whether or not anything moved.
   */
  private async advanceIn(
    run: RunRecord,
    changes: RunChanges,
    rows: RunTransitions,
  ): Promise<boolean> {
    if (run.status !== 'RUNNING') {
      changes.announce(run);
      return false;
    }
    const steps = await rows.listSteps(run.id);
    const next = steps.find(step => !FINAL_STATUSES.includes(step.status));
    if (!next) {
      // Lost to another transition: that one announces the run.
      const finished = await rows.transitionRun(run.id, ['RUNNING'], {
        status: 'SUCCEEDED',
        completedAt: nowTimestamp(),
      });
      if (finished) {
        changes.record(run, 'SUCCEEDED');
      }
      return finished;
    }
    if (next.status === 'PENDING') {
      const now = nowTimestamp();
      if (next.type === 'approval') {
        await rows.transitionStep(next.id, ['PENDING'], {
          status: 'WAITING_FOR_APPROVAL',
          startedAt: now,
        });
        const waiting = await rows.transitionRun(run.id, ['RUNNING'], {
          status: 'WAITING_FOR_APPROVAL',
        });
        if (waiting) {
          changes.record(run, 'WAITING_FOR_APPROVAL');
        }
        return false;
      }
      await rows.transitionStep(next.id, ['PENDING'], {
        status: 'QUEUED',
        attemptEpoch: run.attemptEpoch,
      });
    }
    // The run's status is unchanged; views learn of its step.
    changes.announce(run);
    return false;
  }

  /**
   * After a transaction's commit: its announcements, in order, then the admission of the
   * next queued run of the entity a run that finished in it held.
   */
  private async afterCommit(
    changes: RunChanges,
    finishedRunId: string | undefined,
  ): Promise<void> {
    for (const change of changes.announcements) {
      await this.publish(change);
    }
    if (finishedRunId) {
      await this.releaseEntity(finishedRunId);
    }
  }

  /** After a run finished: admit the next queued run of the entity it held. */
  private async releaseEntity(runId: string): Promise<void> {
    const run = await this.deps.stores.pipelineRuns.getRunForEngine(runId);
    if (!run?.attachedEntityId) {
      return;
    }
    const {
      queued: [next],
    } = await this.deps.stores.pipelineRuns.entityQueue(
      run.organizationId,
      run.attachedEntityId,
    );
    if (next) {
      await this.admit(next.id);
    }
  }

  /**
   * Approves or rejects the run's waiting approval. The step keeps who decided
   * (`outputs.decidedById`) and their comment, which the run's page shows with it.
   */
  async approve(
    run: RunRecord,
    approved: boolean,
    comment?: string,
    decidedById?: string,
  ) {
    const decision = {
      ...(comment ? { comment } : {}),
      ...(decidedById ? { decidedById } : {}),
    };
    const outputs = Object.keys(decision).length > 0 ? decision : null;
    const changed = await this.deps.stores.transaction(async tx => {
      // Decided on the run as the decisions and cancels before this one left it: a second
      // decision waits for the first and is refused, instead of both being answered 200.
      const current = (await tx.pipelineRuns.lockRunForEngine(run.id)) ?? run;
      const steps = await tx.pipelineRuns.listSteps(run.id);
      const waiting = steps.find(s => s.status === 'WAITING_FOR_APPROVAL');
      if (!waiting || current.status !== 'WAITING_FOR_APPROVAL') {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'PipelineRun',
          reason: 'NOT_WAITING_FOR_APPROVAL',
          message: `Run ${run.id} is ${current.status}, not waiting for an approval`,
        });
      }
      const now = nowTimestamp();
      if (approved) {
        await tx.pipelineRuns.transitionStep(
          waiting.id,
          ['WAITING_FOR_APPROVAL'],
          {
            status: 'SUCCEEDED',
            completedAt: now,
            outputs,
          },
        );
        return tx.pipelineRuns.transitionRun(run.id, ['WAITING_FOR_APPROVAL'], {
          status: 'RUNNING',
        });
      }
      const error: ErrorBody = {
        code: APPROVAL_REJECTED_ERROR_CODE,
        message: comment
          ? `The approval was rejected: ${comment}`
          : 'The approval was rejected',
      };
      await tx.pipelineRuns.transitionStep(
        waiting.id,
        ['WAITING_FOR_APPROVAL'],
        { status: 'FAILED', completedAt: now, error, outputs },
      );
      await this.finishRun(tx, run.id, 'FAILED', error, [
        'WAITING_FOR_APPROVAL',
      ]);
      return true;
    });
    if (!changed) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'PipelineRun',
        reason: 'CONFLICT',
        message: `Run ${run.id} changed meanwhile; reload it`,
      });
    }
    await this.announce(run.id, { approved, decidedById });
    if (approved) {
      await this.advance(run.id);
    } else {
      await this.releaseEntity(run.id);
    }
  }

  async cancel(
    run: RunRecord,
    /** Who cancelled it, named on the run ("The run was cancelled by guest"). */
    by?: { id: string; name: string },
  ): Promise<void> {
    const cancelled = await this.deps.stores.transaction(async tx => {
      const error: ErrorBody = {
        code: errorCode('PipelineRun', 'CANCELLED'),
        message: by
          ? `The run was cancelled by ${by.name}`
          : 'The run was cancelled',
        ...(by && { metadata: { cancelledById: by.id } }),
      };
      const done = await this.finishRun(tx, run.id, 'CANCELLED', error, [
        'QUEUED',
        'RUNNING',
        'WAITING_FOR_APPROVAL',
      ]);
      return done;
    });
    if (!cancelled) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'PipelineRun',
        reason: 'NOT_CANCELLABLE',
        message: `Run ${run.id} is ${run.status} and cannot be cancelled`,
      });
    }
    await this.announce(run.id);
    await this.releaseEntity(run.id);
  }

  /**
   * Cancels a run that is still queued, for a reason a person reads on it (a newer commit
   * superseded it, its pull request was closed); false when it was admitted or ended meanwhile.
   */
  async cancelQueued(runId: string, why: string): Promise<boolean> {
    const cancelled = await this.deps.stores.transaction(tx =>
      this.finishRun(
        tx,
        runId,
        'CANCELLED',
        { code: errorCode('PipelineRun', 'SUPERSEDED'), message: why },
        ['QUEUED'],
      ),
    );
    if (cancelled) {
      await this.announce(runId);
      await this.releaseEntity(runId);
    }
    return cancelled;
  }

  /** Runs a failed or cancelled run again from its first unfinished step, as a new attempt. */
  async retry(run: RunRecord): Promise<void> {
    const retried = await this.deps.stores.transaction(async tx => {
      const attemptEpoch = run.attemptEpoch + 1;
      const moved = await tx.pipelineRuns.transitionRun(
        run.id,
        ['FAILED', 'CANCELLED'],
        {
          status: 'QUEUED',
          attemptEpoch,
          error: null,
          completedAt: null,
          queueReason: 'Waiting for admission',
        },
      );
      if (!moved) {
        return false;
      }
      // The retried run is the latest work of its pipeline and stack, newer runs or not.
      await tx.pipelines.recordRetry(run.pipelineId, run.id);
      if (run.attachedEntityType === 'STACK' && run.attachedEntityId) {
        await tx.stacks.pointLatestRunAt(run.attachedEntityId, run.id);
      }
      for (const step of await tx.pipelineRuns.listSteps(run.id)) {
        if (step.status !== 'SUCCEEDED') {
          await tx.pipelineRuns.updateStep(step.id, {
            status: 'PENDING',
            attemptEpoch,
            error: null,
            outputs: null,
            startedAt: null,
            completedAt: null,
            leaseTokenHash: null,
            leaseRunnerId: null,
            runnerServiceAccountId: null,
            leaseExpiresAt: null,
          });
        }
      }
      return true;
    });
    if (!retried) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'PipelineRun',
        reason: 'NOT_RETRYABLE',
        message: `Run ${run.id} is ${run.status}; only failed or cancelled runs can be retried`,
      });
    }
    await this.announce(run.id);
    await this.admit(run.id);
  }

  /** Ends a run: the given status, its open steps cancelled or skipped. */
  private async finishRun(
    tx: Stores,
    runId: string,
    status: RunStatus,
    error: ErrorBody | undefined,
    from: RunStatus[],
  ): Promise<boolean> {
    const now = nowTimestamp();
    const moved = await tx.pipelineRuns.transitionRun(runId, from, {
      status,
      completedAt: now,
      error: error ?? null,
      queueReason: null,
    });
    if (!moved) {
      return false;
    }
    if (status === 'FAILED') {
      await recordDriftCheckEnd(tx, runId);
    }
    for (const step of await tx.pipelineRuns.listSteps(runId)) {
      if (step.status === 'PENDING') {
        await tx.pipelineRuns.updateStep(step.id, { status: 'SKIPPED' });
      } else if (!FINAL_STATUSES.includes(step.status)) {
        // The lease stays recognisable, so its runner's next heartbeat learns of the end. A
        // cancelled runner step keeps its runner's lines for a lease's length (the grace):
        // what the tool prints while it stops belongs in the step's log.
        const grace =
          status === 'CANCELLED' &&
          step.status === 'RUNNING' &&
          step.leaseTokenHash !== undefined;
        await tx.pipelineRuns.updateStep(step.id, {
          status: 'CANCELLED',
          completedAt: now,
          leaseExpiresAt: grace
            ? new Date(Date.now() + this.leaseMs).toISOString()
            : null,
        });
        if (grace) {
          await tx.pipelineRuns.appendLogs(step, [
            {
              text: `${cancelMessage(error)}; ${runnerOf(
                step,
              )} is stopping the step`,
            },
          ]);
        } else if (status === 'CANCELLED' && step.status === 'QUEUED') {
          // Its log would be empty, and a person opening it would not learn why it never ran.
          await tx.pipelineRuns.appendLogs(step, [
            { text: `${cancelMessage(error)}; ${notTakenYet(step)}` },
          ]);
        }
      }
    }
    return true;
  }

  /**
   * Hands the organization's oldest queued runner step to a runner, with a lease; the step keeps
   * the service account the runner signed in with (`serviceAccountId`), which names it.
   */
  async claim(
    organizationId: string,
    runnerId: string,
    serviceAccountId?: string,
    /** The runner's process, where it names one: the registry's row its heartbeats move. */
    instanceId?: string,
    /**
     * How often the runner will renew the lease, where its claim says: kept on the lease from
     * the claim on, so that a runner killed before its first heartbeat is judged by it too.
     */
    heartbeatIntervalMs?: number,
    /**
     * The labels the runner carries: it is handed only steps whose stack requires none of
     * others (`carriesRunnerLabels`).
     */
    runnerLabels?: string[],
  ): Promise<{ leaseToken: string; step: StepRecord } | undefined> {
    const leaseToken = randomBytes(32).toString('base64url');
    const claimed = await this.deps.stores.transaction(async tx => {
      const next = await tx.pipelineRuns.lockNextClaimableStep(
        organizationId,
        RUNNER_STEP_TYPES,
        runnerLabels,
      );
      if (!next) {
        return undefined;
      }
      const now = new Date();
      const moved = await tx.pipelineRuns.transitionStep(next.id, ['QUEUED'], {
        status: 'RUNNING',
        startedAt: now.toISOString(),
        leaseTokenHash: hashLeaseToken(leaseToken),
        leaseRunnerId: runnerId,
        leaseRunnerInstanceId: instanceId ?? null,
        runnerServiceAccountId: serviceAccountId ?? null,
        leaseExpiresAt: new Date(now.getTime() + this.leaseMs).toISOString(),
        leaseHeartbeatIntervalMs: heartbeatIntervalMs,
      });
      const step =
        moved && (await tx.pipelineRuns.getStep(organizationId, next.id));
      return step ? { step, queuedAt: next.queuedAt, at: now } : undefined;
    });
    if (!claimed) {
      await this.refreshLabelCopies(organizationId);
      return undefined;
    }
    const { step } = claimed;
    this.deps.metrics?.stepClaimed(step.type, claimed.queuedAt, claimed.at);
    // Views show the step as running, and the run no longer waiting for a runner.
    await this.announce(step.pipelineRunId);
    return { leaseToken, step };
  }

  /**
   * After a claim found nothing: at most every `LABEL_REFRESH_MS` per organization, the copies
   * of the stacks' labels on its waiting steps are brought up to date, so that a step a stale
   * copy hid from the runners it now belongs to is claimed within that time
   * (`PipelineRunStore.lockNextClaimableStep`).
   */
  private async refreshLabelCopies(organizationId: string): Promise<void> {
    const now = Date.now();
    if (
      now - (this.labelsRefreshedAt.get(organizationId) ?? 0) <
      LABEL_REFRESH_MS
    ) {
      return;
    }
    this.labelsRefreshedAt.set(organizationId, now);
    const corrected = await this.deps.stores.pipelineRuns.refreshRequiredLabels(
      organizationId,
    );
    if (corrected > 0) {
      this.deps.logger.info(
        `Routed ${corrected} waiting steps of organization ${organizationId} by their stacks' current runner labels`,
      );
      this.claimWaits.wake(organizationId);
    }
  }

  /**
   * The step if `leaseToken` is its current lease. A lease past its time that no other attempt
   * took yet is still its runner's: the runner renews it or reports with it.
   */
  private async leasedStep(
    tx: Stores,
    organizationId: string,
    stepId: string,
    leaseToken: string,
  ): Promise<StepRecord> {
    const step = await tx.pipelineRuns.getStep(organizationId, stepId);
    if (!step) {
      throw new InfraDeliveryError({
        status: 404,
        entity: 'StepExecution',
        reason: 'NOT_FOUND',
        message: `Step execution ${stepId} was not found`,
      });
    }
    if (step.leaseTokenHash !== hashLeaseToken(leaseToken)) {
      throw leaseLost('This lease is not the step’s current lease');
    }
    return step;
  }

  async heartbeat(
    organizationId: string,
    stepId: string,
    leaseToken: string,
    /** How often the runner renews the lease, where it says: kept on the lease for the portal. */
    heartbeatIntervalMs?: number,
  ): Promise<{ leaseExpiresAt: string; cancelRequested: boolean }> {
    return this.deps.stores.transaction(async tx => {
      const step = await this.leasedStep(
        tx,
        organizationId,
        stepId,
        leaseToken,
      );
      if (step.status === 'CANCELLED') {
        return cancelRequested(step);
      }
      if (step.status !== 'RUNNING') {
        throw leaseLost(`The lease is gone; the step is ${step.status}`);
      }
      // A lease past its time is renewed as long as the step was not queued again: its runner
      // may have been cut off from the service (a restart, a network outage) while the step's
      // command went on, and nobody else holds the step.
      const leaseExpiresAt = new Date(Date.now() + this.leaseMs).toISOString();
      if (
        await tx.pipelineRuns.renewLease(
          step,
          leaseExpiresAt,
          heartbeatIntervalMs,
        )
      ) {
        return { leaseExpiresAt, cancelRequested: false };
      }
      // The runner's report (or a cancel, or the lease's expiry) ended the step after it was
      // read: answered as a heartbeat sent after it is, instead of giving the ended step a
      // lease again.
      const ended = await this.leasedStep(
        tx,
        organizationId,
        stepId,
        leaseToken,
      );
      if (ended.status === 'CANCELLED') {
        return cancelRequested(ended);
      }
      throw leaseLost(`The lease is gone; the step is ${ended.status}`);
    });
  }

  /**
   * Stores a batch of the runner's lines. Undefined while the step runs; for a step cancelled
   * under this lease, during its grace, the lines are kept too and the answer tells the runner
   * to stop.
   */
  async appendLogs(
    organizationId: string,
    stepId: string,
    leaseToken: string,
    lines: { timestamp?: string; text: string }[],
  ): Promise<CancelledStepLogs | undefined> {
    const { step, answer } = await this.deps.stores.transaction(async tx => {
      const leased = await this.leasedStep(
        tx,
        organizationId,
        stepId,
        leaseToken,
      );
      const cancelled: CancelledStepLogs | undefined = inCancelGrace(leased)
        ? { cancelRequested: true, acceptLogsUntil: leased.leaseExpiresAt! }
        : undefined;
      if (leased.status !== 'RUNNING' && !cancelled) {
        throw leaseLost(`The step is ${leased.status}`);
      }
      // Not ordered against the runner's report (no lock): a batch sent at the same moment may
      // be stored just after the report ended the step. Left so on purpose: the lines are
      // still this attempt's own output (stored under its attemptEpoch, and the lease was
      // the step's when they were sent), a runner sends its last lines before its report, and
      // locking the run for every batch would make log streaming wait on every transition.
      await tx.pipelineRuns.appendLogs(leased, lines);
      return { step: leased, answer: cancelled };
    });
    await this.announceLogs(step);
    return answer;
  }

  /**
   * Log lines of a step the backend executes itself (no lease), for the attempt that wrote
   * them: nothing is written once the step has moved on to another attempt or ended.
   */
  async appendInProcessLogs(
    step: Pick<StepRecord, 'id' | 'organizationId' | 'pipelineRunId'>,
    attemptEpoch: number,
    lines: { timestamp?: string; text: string }[],
  ): Promise<void> {
    const written = await this.deps.stores.transaction(async tx => {
      const current = await runningAttempt(tx, step, attemptEpoch);
      if (!current) {
        return undefined;
      }
      await tx.pipelineRuns.appendLogs(current, lines);
      return current;
    });
    if (written) {
      await this.announceLogs(written);
    }
  }

  private async announceLogs(step: StepRecord): Promise<void> {
    try {
      await this.deps.events.stepLogsAppended?.({
        organizationId: step.organizationId,
        pipelineRunId: step.pipelineRunId,
        stepExecutionId: step.id,
      });
    } catch (error) {
      this.deps.logger.warn(
        `Could not announce logs of step ${step.id}: ${error}`,
      );
    }
  }

  /**
   * The runner's report. `ingest` runs in the same transaction, so a plan is recorded exactly
   * when the step's success is.
   */
  async complete(
    organizationId: string,
    stepId: string,
    leaseToken: string,
    result: StepResult,
    ingest?: (tx: Stores, step: StepRecord, run: RunRecord) => Promise<void>,
  ): Promise<StepRecord> {
    const { step, runFailed, cancelled } = await this.deps.stores.transaction(
      async tx => {
        // The run first (a cancel takes it before the steps too), then the step as the
        // transactions before this one left it: a second report of the same lease waits here
        // and finds the lease gone, instead of recording the plan a second time.
        const reported = await tx.pipelineRuns.getStep(organizationId, stepId);
        if (reported) {
          await tx.pipelineRuns.lockRunForEngine(reported.pipelineRunId);
        }
        const leased = await this.leasedStep(
          tx,
          organizationId,
          stepId,
          leaseToken,
        );
        if (inCancelGrace(leased)) {
          // The runner has stopped the command of its cancelled step: nothing of its result
          // counts, and the step's log ends with who cancelled it.
          await this.closeCancelGrace(
            tx,
            leased,
            `${runnerOf(leased)} has stopped the step`,
          );
          return {
            step: (await tx.pipelineRuns.getStep(organizationId, leased.id))!,
            runFailed: false,
            cancelled: true,
          };
        }
        // A report past the lease's time is taken while no other attempt took the step: it is
        // what the step did (an apply the service did not hear about until now).
        if (leased.status !== 'RUNNING') {
          throw leaseLost(`The lease is gone; the step is ${leased.status}`);
        }
        const run = (await tx.pipelineRuns.getRunForEngine(
          leased.pipelineRunId,
        ))!;
        if (ingest && result.status === 'SUCCEEDED') {
          await ingest(tx, leased, run);
        }
        const now = nowTimestamp();
        const reportedError =
          result.status === 'FAILED'
            ? result.error ?? {
                code: errorCode('StepExecution', 'FAILED'),
                message: `Step ${leased.name} failed`,
              }
            : null;
        const error =
          reportedError?.code === PLAN_CHANGED_ERROR_CODE
            ? await planChangedOnAnotherRunner(tx, leased, reportedError)
            : reportedError;
        await tx.pipelineRuns.transitionStep(leased.id, ['RUNNING'], {
          status: result.status,
          completedAt: now,
          outputs: result.outputs ?? null,
          error,
          leaseTokenHash: null,
          leaseExpiresAt: null,
        });
        if (error) {
          await this.finishRun(tx, run.id, 'FAILED', error, ['RUNNING']);
        }
        return {
          step: (await tx.pipelineRuns.getStep(organizationId, leased.id))!,
          runFailed: Boolean(error),
          cancelled: false,
        };
      },
    );
    this.deps.metrics?.stepReported(step, new Date());
    if (cancelled) {
      await this.announceLogs(step);
    } else if (runFailed) {
      await this.announce(step.pipelineRunId);
      await this.releaseEntity(step.pipelineRunId);
    } else {
      await this.advance(step.pipelineRunId);
    }
    return step;
  }

  /**
   * Starts a step that the backend executes itself (no runner, no lease): QUEUED → RUNNING.
   * False when another instance started it first.
   */
  async startInProcessStep(step: StepRecord): Promise<boolean> {
    return this.deps.stores.transaction(async tx => {
      const run = await tx.pipelineRuns.lockRunForEngine(step.pipelineRunId);
      if (run?.status !== 'RUNNING' || run.attemptEpoch !== step.attemptEpoch) {
        return false;
      }
      return tx.pipelineRuns.transitionStep(step.id, ['QUEUED'], {
        status: 'RUNNING',
        startedAt: nowTimestamp(),
      });
    });
  }

  /**
   * The end of a step the backend executed itself, for the attempt that executed it: a
   * compare-and-set on RUNNING and the attempt, so a late or duplicate report changes nothing
   * and returns false.
   */
  async completeInProcessStep(
    step: Pick<StepRecord, 'id' | 'organizationId' | 'pipelineRunId' | 'name'>,
    attemptEpoch: number,
    result: StepResult,
  ): Promise<boolean> {
    const outcome = await this.deps.stores.transaction(async tx => {
      await tx.pipelineRuns.lockRunForEngine(step.pipelineRunId);
      const current = await runningAttempt(tx, step, attemptEpoch);
      if (!current) {
        return undefined;
      }
      const error =
        result.status === 'FAILED'
          ? result.error ?? {
              code: errorCode('StepExecution', 'FAILED'),
              message: `Step ${step.name} failed`,
            }
          : null;
      const moved = await tx.pipelineRuns.transitionStep(step.id, ['RUNNING'], {
        status: result.status,
        completedAt: nowTimestamp(),
        outputs: result.outputs ?? null,
        error,
      });
      if (!moved) {
        return undefined;
      }
      if (error) {
        await this.finishRun(tx, step.pipelineRunId, 'FAILED', error, [
          'RUNNING',
        ]);
      }
      return { runFailed: Boolean(error) };
    });
    if (!outcome) {
      return false;
    }
    if (outcome.runFailed) {
      await this.announce(step.pipelineRunId);
      await this.releaseEntity(step.pipelineRunId);
    } else {
      await this.advance(step.pipelineRunId);
    }
    return true;
  }

  /**
   * Queues a leased step again as a new attempt, in `tx`, with `logText(attempt)` in its log;
   * false when its run is not running or the step is no longer RUNNING, or, given
   * `expiredBefore`, when its lease was renewed meanwhile (it expired before then no more).
   */
  private async requeueLeasedStep(
    tx: Stores,
    step: StepRecord,
    logText: (attemptEpoch: number) => string,
    expiredBefore?: string,
  ): Promise<boolean> {
    const run = await tx.pipelineRuns.lockRunForEngine(step.pipelineRunId);
    if (!run || run.status !== 'RUNNING') {
      return false;
    }
    const attemptEpoch = run.attemptEpoch + 1;
    const patch = {
      status: 'QUEUED' as const,
      attemptEpoch,
      leaseTokenHash: null,
      leaseRunnerId: null,
      runnerServiceAccountId: null,
      leaseExpiresAt: null,
      startedAt: null,
    };
    const moved = expiredBefore
      ? await tx.pipelineRuns.transitionExpiredLease(step, expiredBefore, patch)
      : await tx.pipelineRuns.transitionStep(step.id, ['RUNNING'], patch);
    if (moved) {
      await tx.pipelineRuns.updateRun(run.id, {
        attemptEpoch,
        engineRunId: `${run.id}/attempt-${attemptEpoch}`,
        lastAttemptStartedAt: nowTimestamp(),
      });
      await tx.pipelineRuns.appendLogs(step, [{ text: logText(attemptEpoch) }]);
    }
    return moved;
  }

  /**
   * Ends the grace of a step cancelled under a lease, in `tx`, with a last line in its log: who
   * cancelled the run, and `how` the runner's part ended. False when it had ended already.
   */
  private async closeCancelGrace(
    tx: Stores,
    step: StepRecord,
    how: string,
  ): Promise<boolean> {
    if (!(await tx.pipelineRuns.closeCancelGrace(step.id))) {
      return false;
    }
    const run = await tx.pipelineRuns.getRunForEngine(step.pipelineRunId);
    await tx.pipelineRuns.appendLogs(step, [
      { text: `${cancelMessage(run?.error)}; ${how}` },
    ]);
    return true;
  }

  /**
   * Ends the graces of cancelled steps whose runner did not report within them (an older runner
   * that abandons the step, or one that stopped), so that their logs say who cancelled them.
   */
  async closeExpiredCancelGraces(): Promise<number> {
    const expired = await this.deps.stores.pipelineRuns.expiredCancelGraces(
      nowTimestamp(),
      100,
    );
    let closed = 0;
    for (const step of expired) {
      const done = await this.deps.stores.transaction(tx =>
        this.closeCancelGrace(
          tx,
          step,
          `${runnerOf(step)} did not report the step within ${
            this.leaseMs / 1000
          } s, and its later lines are not kept`,
        ),
      );
      if (done) {
        closed += 1;
        await this.announceLogs(step);
      }
    }
    return closed;
  }

  /**
   * Queues again the steps of runners that stopped heartbeating, as a new attempt. Not in the
   * first lease after this instance started or woke from a pause: its runners could not renew
   * while it was down or frozen (a restart, an upgrade, a crash, SIGSTOP), and a step queued
   * again then would be applied twice while its first runner, cut off but alive, applies it
   * still.
   */
  async expireLeases(): Promise<number> {
    // After a pause, this may run before the pause watch's own timer: look first.
    this.noticePause();
    if (Date.now() < this.reachableSince + this.leaseMs) {
      return 0;
    }
    const now = nowTimestamp();
    const expired = await this.deps.stores.pipelineRuns.expiredLeases(now, 100);
    let requeued = 0;
    for (const step of expired) {
      const done = await this.deps.stores.transaction(async tx => {
        const moved = await this.requeueLeasedStep(
          tx,
          step,
          attemptEpoch =>
            `Runner ${step.leaseRunnerId} stopped renewing its lease; the step is queued again as attempt ${attemptEpoch}`,
          now,
        );
        // It is not busy with the step any more, nor connected: the run's wait says that
        // it stopped reporting, not that "the one connected runner is busy".
        if (moved && step.leaseRunnerId) {
          await tx.runners.markLost(
            step.organizationId,
            step.leaseRunnerId,
            step.id,
            'STOPPED_REPORTING',
          );
        }
        return moved;
      });
      if (done) {
        requeued += 1;
        this.deps.logger.warn(
          `Lease of step ${step.id} expired; queued again`,
          { runId: step.pipelineRunId },
        );
        // Views show the step waiting again, and a runner waiting for work takes it.
        await this.announce(step.pipelineRunId);
      }
    }
    return requeued;
  }

  /**
   * In the transaction that revokes their API key or deletes their service account: turns the
   * runners that signed in with it OFFLINE for that `cause` (they can no longer report), and
   * queues the steps they hold again at once, rather than after their lease, with `logText`
   * (given the runner and the attempt) in each step's log. Returns the runs whose step was
   * queued again, for `announceRequeued` once the transaction commits.
   */
  async releaseRevokedRunners(
    tx: Stores,
    target: RevokedRunners,
    logText: (runnerId: string, attemptEpoch: number) => string,
  ): Promise<string[]> {
    const runners = await tx.runners.markRevoked(target);
    if (runners.length === 0) {
      return [];
    }
    const steps = await tx.pipelineRuns.leasedStepsOfRunners(
      target.organizationId,
      runners,
    );
    const runIds: string[] = [];
    for (const step of steps) {
      const runnerId = step.leaseRunnerId!;
      if (
        await this.requeueLeasedStep(tx, step, attemptEpoch =>
          logText(runnerId, attemptEpoch),
        )
      ) {
        runIds.push(step.pipelineRunId);
      }
    }
    return runIds;
  }

  /** Views show the runs' steps waiting again, and a runner waiting for work takes them. */
  async announceRequeued(runIds: string[]): Promise<void> {
    for (const runId of runIds) {
      await this.announce(runId);
    }
  }

  /**
   * The scheduled safety net: expire leases, move on the running runs that no step holds (an
   * instance died between a step's end and the next step's start), then try every queued run.
   * Each is a compare-and-set, so racing a live instance changes nothing twice.
   */
  async tick(): Promise<void> {
    await this.expireLeases();
    await this.closeExpiredCancelGraces();
    for (const runId of await this.deps.stores.pipelineRuns.stalledRunIds(
      500,
    )) {
      await this.advance(runId);
    }
    for (const runId of await this.deps.stores.pipelineRuns.queuedRunIds(500)) {
      await this.admit(runId);
    }
  }

  private async announce(
    runId: string,
    approval?: RunStatusChange['approval'],
  ): Promise<void> {
    const run = await this.deps.stores.pipelineRuns.getRunForEngine(runId);
    if (!run) {
      return;
    }
    if (run.attachedEntityType === 'STACK' && run.attachedEntityId) {
      await this.deps.stores.stacks.recordLatestRun(
        run.attachedEntityId,
        run.id,
      );
    }
    await this.publish({
      organizationId: run.organizationId,
      runId: run.id,
      pipelineId: run.pipelineId,
      attachedEntityId: run.attachedEntityId,
      status: run.status,
      kind: run.kind,
      ...(approval ? { approval } : {}),
    });
  }

  private async publish(change: RunStatusChange): Promise<void> {
    // A running run may have queued a step for a runner.
    if (change.status === 'RUNNING') {
      this.claimWaits.wake(change.organizationId);
    }
    try {
      await this.deps.events.runChanged(change);
    } catch (error) {
      this.deps.logger.warn(`Could not announce run ${change.runId}: ${error}`);
    }
  }
}
