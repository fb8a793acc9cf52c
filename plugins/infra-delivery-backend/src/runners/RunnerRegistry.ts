import {
  LeasedStep,
  PipelineRun,
  QueueState,
  Runner,
  RUNNER_SIGHTING_INTERVAL_MS,
  RunnerStatus,
  StepExecution,
  StepLease,
} from '@infra-delivery/plugin-infra-delivery-common';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import {
  ActiveRunnerStep,
  leaseOf,
  publicRun,
  publicStep,
  RunRecord,
  StepRecord,
} from '../database/PipelineRunStore';
import {
  LostRunner,
  OnlineRunner,
  RunnerSighting,
  RunnerWindow,
} from '../database/RunnerStore';
import { Stores } from '../database/stores';
import { RUNNER_STEP_TYPES } from '../engine/PipelineEngine';
import { InfraDeliveryError } from '../errors';
import { BoundedMap } from '../lib/BoundedMap';
import { runnersFor, waitForRunner } from './runnerWait';
import { ServiceReachability } from './ServiceReachability';

export interface RunnerSettings {
  /** A runner seen within this many seconds is ONLINE. */
  onlineSeconds: number;
  /** OFFLINE runners are forgotten after this many days. */
  retentionDays: number;
}

export const DEFAULT_RUNNER_SETTINGS: RunnerSettings = {
  onlineSeconds: 60,
  retentionDays: 7,
};

/** Writes of an unchanged sighting are skipped for at most this long. */
const MAX_RECORD_INTERVAL_MS = RUNNER_SIGHTING_INTERVAL_MS;
const REMEMBERED_SIGHTINGS = 10_000;

/**
 * The runner registry: who executes the organization's IaC steps, and whether a run that
 * waits for one can expect it. Sightings come from the runner protocol; an unchanged sighting
 * is written at most every few seconds per instance (a quarter of the online window, at most
 * ten seconds), so an idle runner polling every two seconds does not write on every poll.
 */
export class RunnerRegistry {
  private readonly lastWritten = new BoundedMap<string, number>(
    REMEMBERED_SIGHTINGS,
  );

  constructor(
    private readonly deps: {
      stores: Stores;
      settings: RunnerSettings;
      /** Since when the service could hear runners; from its first start where absent. */
      reachability?: ServiceReachability;
      now?: () => number;
    },
  ) {}

  private lease<T extends StepLease | undefined>(lease: T): T {
    return this.deps.reachability ? this.deps.reachability.lease(lease) : lease;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  private get recordIntervalMs(): number {
    return Math.min(
      MAX_RECORD_INTERVAL_MS,
      (this.deps.settings.onlineSeconds * 1000) / 4,
    );
  }

  /** True when `key` was written recently enough to skip this write; marks it otherwise. */
  private recentlyWritten(key: string): boolean {
    const now = this.now();
    const last = this.lastWritten.get(key);
    if (last !== undefined && now - last < this.recordIntervalMs) {
      return true;
    }
    this.lastWritten.set(key, now);
    return false;
  }

  /** How many runners of every organization are ONLINE now (the service's metrics). */
  async countOnlineEverywhere(): Promise<number> {
    return this.deps.stores.runners.countAllOnline(this.window().onlineSince);
  }

  window(): RunnerWindow {
    const now = this.now();
    const { onlineSeconds, retentionDays } = this.deps.settings;
    return {
      onlineSince: new Date(now - onlineSeconds * 1000).toISOString(),
      keptSince: new Date(now - retentionDays * 86_400_000).toISOString(),
    };
  }

  /**
   * Refuses a claim under a runner id that another service account's runner holds while it is
   * ONLINE (409): the second runner's sightings overwrote the first's account and host, and its
   * sign-off marked the first OFFLINE while it worked. A runner that stopped, or a key moved to
   * another account, takes its id back. Looked up at most as often as an unchanged sighting is
   * written.
   */
  async assertRunnerIdFree(
    organizationId: string,
    runnerId: string,
    serviceAccountId: string,
  ): Promise<void> {
    const key = JSON.stringify([
      'holder',
      organizationId,
      runnerId,
      serviceAccountId,
    ]);
    if (this.recentlyWritten(key)) {
      return;
    }
    const holder = await this.deps.stores.runners.onlineHolderOf(
      organizationId,
      runnerId,
      this.window().onlineSince,
    );
    if (holder && holder.serviceAccountId !== serviceAccountId) {
      this.lastWritten.delete(key);
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Runner',
        reason: 'ID_IN_USE',
        message: `Runner id "${runnerId}" is in use by a runner of another service account, seen at ${holder.lastSeenAt}: give this runner an id of its own (--runner-id), or stop the other one`,
        metadata: { runnerId },
      });
    }
  }

  /**
   * Notes that a runner's held claim lost its connection before it was answered: killed, or its
   * host or network gone. A runner that lives asks again at once; until it does, the runs that
   * wait for it say, after a few seconds rather than its sighting's silence of twenty, that it
   * may have stopped, and the Runners card calls it "Silent" by the same rule. Written to its
   * row, so that every instance knows: kept in this instance's memory, the others read the
   * runner free and about to take the step for fifteen seconds more.
   */
  async claimDropped(
    organizationId: string,
    runnerId: string,
    instanceId?: string,
  ): Promise<void> {
    await this.deps.stores.runners.recordClaimDropped(
      organizationId,
      runnerId,
      instanceId,
      new Date(this.now()).toISOString(),
    );
  }

  /**
   * Records a claim: what the runner says of itself, and that it asks for work (which forgets
   * a dropped claim of it). An unchanged sighting of a free runner is written at most every few
   * seconds; the first look of each request (`newRequest`) whose sighting is not written still
   * forgets a drop, which another instance may have noted since.
   */
  async recordClaim(
    sighting: Omit<RunnerSighting, 'seenAt'>,
    { newRequest = false }: { newRequest?: boolean } = {},
  ): Promise<void> {
    const key = JSON.stringify([
      'claim',
      sighting.organizationId,
      sighting.runnerId,
      sighting.instanceId,
      sighting.serviceAccountId,
      sighting.apiKeyId,
      sighting.labels,
      sighting.version,
      sighting.hostname,
      sighting.pollIntervalMs,
    ]);
    // A claim that got work always writes: the runner's current step changes.
    if (sighting.currentStepExecutionId === null && this.recentlyWritten(key)) {
      if (newRequest) {
        await this.deps.stores.runners.clearClaimDropped(
          sighting.organizationId,
          sighting.runnerId,
          sighting.instanceId,
        );
      }
      return;
    }
    if (sighting.currentStepExecutionId !== null) {
      this.lastWritten.delete(key);
    }
    await this.deps.stores.runners.recordClaim(
      { ...sighting, seenAt: new Date(this.now()).toISOString() },
      this.window().onlineSince,
    );
  }

  async recordStepActivity(
    organizationId: string,
    stepExecutionId: string,
  ): Promise<void> {
    if (this.recentlyWritten(`step:${organizationId}:${stepExecutionId}`)) {
      return;
    }
    await this.deps.stores.runners.recordStepActivity(
      organizationId,
      stepExecutionId,
      new Date(this.now()).toISOString(),
    );
  }

  async recordStepEnd(
    organizationId: string,
    stepExecutionId: string,
  ): Promise<void> {
    this.lastWritten.delete(`step:${organizationId}:${stepExecutionId}`);
    await this.deps.stores.runners.recordStepEnd(
      organizationId,
      stepExecutionId,
      new Date(this.now()).toISOString(),
    );
  }

  /**
   * Records that a runner stops. The claims this instance skipped writing are forgotten, so
   * that the runner's next claim (it restarted) makes it ONLINE again at once.
   */
  async signOff(
    organizationId: string,
    runnerId: string,
    serviceAccountId: string,
    /** The process that stops, where its claims named one; its other processes run on. */
    instanceId?: string,
  ): Promise<void> {
    this.lastWritten.clear();
    await this.deps.stores.runners.signOff(
      organizationId,
      runnerId,
      serviceAccountId,
      new Date(this.now()).toISOString(),
      instanceId,
    );
  }

  async list(
    organizationId: string,
    status: RunnerStatus | undefined,
    page: KeysetRequest,
  ): Promise<KeysetPage<Runner>> {
    const listed = await this.deps.stores.runners.list(
      organizationId,
      this.window(),
      status,
      page,
    );
    const { reachability } = this.deps;
    return reachability
      ? {
          ...listed,
          items: listed.items.map(runner => reachability.runner(runner)),
        }
      : listed;
  }

  /** A run's steps as callers see them: a running one's lease says when the service came back. */
  describeSteps(steps: StepRecord[]): StepExecution[] {
    return steps.map(step => {
      const described = publicStep(step);
      return described.lease
        ? { ...described, lease: this.lease(described.lease) }
        : described;
    });
  }

  /**
   * Runs as callers see them, with the truth about runners: a run whose next step is queued
   * for a claim says whether any runner is there to take it, and a run whose step a runner
   * executes names that step and the runner's lease.
   */
  async describeRuns(runs: RunRecord[]): Promise<PipelineRun[]> {
    const running = runs.filter(run => run.status === 'RUNNING');
    const steps = await this.deps.stores.pipelineRuns.activeRunnerSteps(
      running.map(run => run.id),
      RUNNER_STEP_TYPES,
    );
    return this.describe(runs, steps);
  }

  /**
   * One run as `describeRuns` describes it. Given its steps as they are (a run its caller has
   * just written, so a queued one was queued just now), it does not read them again.
   */
  async describeRun(
    run: RunRecord,
    steps?: StepRecord[],
  ): Promise<PipelineRun> {
    if (!steps) {
      const [described] = await this.describeRuns([run]);
      return described;
    }
    const writtenAt = new Date(this.now()).toISOString();
    const active =
      run.status === 'RUNNING'
        ? steps
            .filter(
              step =>
                (step.status === 'QUEUED' || step.status === 'RUNNING') &&
                RUNNER_STEP_TYPES.includes(step.type),
            )
            .map(step => ({ ...step, updatedAt: writtenAt }))
        : [];
    const [described] = await this.describe([run], active);
    return described;
  }

  /**
   * Runs described with their active runner steps: one waiting for a claim says whether a
   * runner is there to take it; one a runner executes is the run's `leasedStep`.
   */
  private async describe(
    runs: RunRecord[],
    steps: ActiveRunnerStep[],
  ): Promise<PipelineRun[]> {
    if (steps.length === 0) {
      return runs.map(publicRun);
    }
    /** Each run's step waiting for a claim. */
    const waiting = new Map<string, { stepId: string }>();
    const leased = new Map<string, LeasedStep>();
    for (const step of steps) {
      const lease = leaseOf(step);
      if (step.status === 'QUEUED') {
        waiting.set(step.pipelineRunId, { stepId: step.id });
      } else if (lease) {
        leased.set(step.pipelineRunId, {
          id: step.id,
          name: step.name,
          lease: this.lease(lease),
        });
      }
    }
    // The runners that lost a waiting step: it waits because they stopped reporting.
    const lostByStep = new Map<string, LostRunner>();
    if (waiting.size > 0) {
      for (const lost of await this.deps.stores.runners.lostRunnersOf(
        [...waiting.values()].map(wait => wait.stepId),
      )) {
        lostByStep.set(lost.stepExecutionId, lost);
      }
    }
    // The labels the waiting runs' stacks require of the runner that claims their step.
    const requiredLabels =
      waiting.size > 0
        ? await this.deps.stores.stacks.requiredRunnerLabels([
            ...new Set(
              runs.flatMap(run =>
                waiting.has(run.id) &&
                run.attachedEntityType === 'STACK' &&
                run.attachedEntityId
                  ? [run.attachedEntityId]
                  : [],
              ),
            ),
          ])
        : new Map<string, string[]>();
    const onlineByOrganization = new Map<string, Promise<OnlineRunner[]>>();
    const online = (organizationId: string) => {
      let listed = onlineByOrganization.get(organizationId);
      if (!listed) {
        listed = this.deps.stores.runners.listOnline(
          organizationId,
          this.window().onlineSince,
        );
        onlineByOrganization.set(organizationId, listed);
      }
      return listed;
    };
    return Promise.all(
      runs.map(async run => {
        const leasedStep = leased.get(run.id);
        if (leasedStep) {
          return publicRun({ ...run, leasedStep });
        }
        const wait = waiting.get(run.id);
        if (!wait) {
          return publicRun(run);
        }
        const required =
          (run.attachedEntityType === 'STACK' &&
            run.attachedEntityId &&
            requiredLabels.get(run.attachedEntityId)) ||
          [];
        const { runners, labels } = runnersFor(
          await online(run.organizationId),
          required,
        );
        const queueState: QueueState = {
          preflightBlockedByAdmissionCondition: false,
          stackRunPreflightPending: false,
          ...run.queueState,
          ...waitForRunner(
            runners,
            this.now(),
            lostByStep.get(wait.stepId),
            this.deps.reachability &&
              new Date(this.deps.reachability.reachableSince()).toISOString(),
            labels,
          ),
        };
        return publicRun({ ...run, queueState });
      }),
    );
  }

  /** Forgets the runners not seen within the retention period; returns how many. */
  forgetOfflineRunners(): Promise<number> {
    return this.deps.stores.runners.deleteSeenBefore(this.window().keptSince);
  }
}
