import {
  ClaimRequest,
  DEFAULT_RUNNER_POLL_INTERVAL_MS,
  ErrorBody,
  errorCode,
  Runner,
  RunnerCheckout,
  RunnerClaim,
  RunnerStatus,
  RunGitSource,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import { invalidApiKey } from '../auth/CallerResolver';
import { EXECUTE, READ } from '../auth/requirements';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Authorizer } from '../auth/Authorizer';
import { actorIdOf, Caller } from '../auth/Caller';
import { publicStep, StepRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import {
  CancelledStepLogs,
  PipelineEngine,
  StepResult,
} from '../engine/PipelineEngine';
import { InfraDeliveryError } from '../errors';
import { GithubAppInstallations } from '../providers/github/GithubAppInstallations';
import { RunCheckouts } from '../runners/RunCheckouts';
import { ingestStepReport, StepReport } from '../iac/ingestStepReport';
import { RunnerRegistry } from '../runners/RunnerRegistry';
import { reportedError } from '../runners/reportedError';

/** A held claim looks for steps other instances queued at most this often. */
const MIN_RECHECK_MS = 250;

/**
 * The runner protocol: runners are service accounts (MEMBER or above) that claim the IaC steps
 * of their own organization, keep their lease alive, stream logs and report results.
 */
export class RunnerService {
  private readonly checkouts: RunCheckouts;

  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      engine: PipelineEngine;
      runnerRegistry: RunnerRegistry;
      githubApps: GithubAppInstallations;
    },
  ) {
    this.checkouts = new RunCheckouts(deps);
  }

  private async requireRunner(caller: Caller) {
    if (caller.principal.type !== 'service-account') {
      throw new InfraDeliveryError({
        status: 403,
        entity: 'Runner',
        reason: 'NOT_A_SERVICE_ACCOUNT',
        message: 'Runners authenticate with a service account’s API key',
      });
    }
    await this.deps.authorizer.require(caller, EXECUTE);
  }

  /**
   * Hands the runner the organization's oldest queued step. With `waitSeconds`, a claim that
   * finds none is held that long and answers as soon as a step is queued (the engine wakes it;
   * it also looks again every poll interval, for steps another instance queued). While held it
   * keeps the runner's sighting fresh, as its polls would. `signal` ends the wait (the runner
   * went away).
   */
  async claim(
    caller: Caller,
    runner: ClaimRequest,
    signal?: AbortSignal,
  ): Promise<RunnerClaim | undefined> {
    await this.requireRunner(caller);
    await this.deps.runnerRegistry.assertRunnerIdFree(
      caller.organizationId,
      runner.runnerId,
      actorIdOf(caller),
    );
    const { waitSeconds = 0, ...sighting } = runner;
    const { claimWaits } = this.deps.engine;
    const deadline = Date.now() + waitSeconds * 1000;
    const recheckMs = Math.max(
      MIN_RECHECK_MS,
      runner.pollIntervalMs ?? DEFAULT_RUNNER_POLL_INTERVAL_MS,
    );
    let epoch = caller.accessEpoch;
    for (let newRequest = true; ; newRequest = false) {
      if (!newRequest) {
        epoch = await this.assertKeyLive(caller, epoch);
      }
      const claim = await this.claimOnce(caller, sighting, newRequest);
      const remainingMs = deadline - Date.now();
      if (claim || remainingMs <= 0 || signal?.aborted || claimWaits.isClosed) {
        return claim;
      }
      await claimWaits.wait(
        caller.organizationId,
        Math.min(recheckMs, remainingMs),
        signal,
      );
      if (signal?.aborted) {
        await this.deps.runnerRegistry.claimDropped(
          caller.organizationId,
          runner.runnerId,
          runner.instanceId,
        );
        return undefined;
      }
    }
  }

  /**
   * Refuses (401) a held claim whose API key was revoked, or whose service account was deleted,
   * while it waited: its looks went on claiming steps and recording its sightings, so that the
   * runner the revocation had just turned OFFLINE read ONLINE and "Idle" again (seen in session
   * 42) and could be handed a step it would never report. Read again only when the access epoch
   * moved (every such change moves it, on any instance); returns the epoch checked against.
   */
  private async assertKeyLive(
    caller: Caller,
    checkedAt: number | undefined,
  ): Promise<number | undefined> {
    if (!caller.apiKeyId) {
      return checkedAt;
    }
    const { stores } = this.deps;
    const epoch = await stores.accessEpoch.current();
    if (epoch === checkedAt) {
      return epoch;
    }
    const key = await stores.apiKeys.get(
      caller.organizationId,
      caller.apiKeyId,
    );
    if (
      !key ||
      (key.expiresAt !== undefined && Date.parse(key.expiresAt) <= Date.now())
    ) {
      throw invalidApiKey();
    }
    return epoch;
  }

  /**
   * One look for a step; the runner's sighting (what it says of itself) is recorded. The first
   * look of a request (`newRequest`) forgets a drop of the runner's earlier held claim, on any
   * instance.
   */
  private async claimOnce(
    caller: Caller,
    runner: Omit<ClaimRequest, 'waitSeconds'>,
    newRequest: boolean,
  ): Promise<RunnerClaim | undefined> {
    const claimed = await this.deps.engine.claim(
      caller.organizationId,
      runner.runnerId,
      actorIdOf(caller),
      runner.instanceId,
      runner.heartbeatIntervalMs,
      runner.labels,
    );
    const claim = claimed && (await this.describeClaim(caller, claimed));
    await this.deps.runnerRegistry.recordClaim(
      {
        organizationId: caller.organizationId,
        runnerId: runner.runnerId,
        instanceId: runner.instanceId,
        serviceAccountId: actorIdOf(caller),
        apiKeyId: caller.apiKeyId,
        labels: runner.labels ?? [],
        version: runner.version,
        hostname: runner.hostname,
        pollIntervalMs: runner.pollIntervalMs,
        currentStepExecutionId: claim?.stepExecution.id ?? null,
      },
      { newRequest },
    );
    return claim;
  }

  /** A runner (process, given `instanceId`) of the caller's organization says that it stops. */
  async signOff(
    caller: Caller,
    runnerId: string,
    instanceId?: string,
  ): Promise<void> {
    await this.requireRunner(caller);
    await this.deps.runnerRegistry.signOff(
      caller.organizationId,
      runnerId,
      actorIdOf(caller),
      instanceId,
    );
  }

  /**
   * The claim as the runner gets it, with the commit to check out for a git-triggered run.
   * Without a credential for that commit the step fails here, with the reason in its logs and
   * error, rather than reaching a runner that would plan whatever code it has on disk; the
   * runner then finds no work this time.
   */
  private async describeClaim(
    caller: Caller,
    claimed: { leaseToken: string; step: StepRecord },
  ): Promise<RunnerClaim | undefined> {
    const { stores, engine } = this.deps;
    const organizationId = caller.organizationId;
    const run = (await stores.pipelineRuns.getRun(
      organizationId,
      claimed.step.pipelineRunId,
    ))!;
    let checkout: RunnerCheckout | undefined;
    if (run.gitSource) {
      try {
        checkout = await this.checkouts.checkoutOf(
          organizationId,
          run.gitSource,
        );
      } catch (error) {
        if (!(error instanceof InfraDeliveryError)) {
          throw error;
        }
        const body = checkoutUnavailable(run.gitSource, error);
        await engine.appendLogs(
          organizationId,
          claimed.step.id,
          claimed.leaseToken,
          [{ text: body.message }],
        );
        await engine.complete(
          organizationId,
          claimed.step.id,
          claimed.leaseToken,
          { status: 'FAILED', error: body },
        );
        return undefined;
      }
    }
    const stack =
      run.attachedEntityType === 'STACK' && run.attachedEntityId
        ? await stores.stacks.get(organizationId, run.attachedEntityId)
        : undefined;
    return {
      leaseToken: claimed.leaseToken,
      leaseExpiresAt: claimed.step.leaseExpiresAt!,
      stepExecution: publicStep(claimed.step),
      pipelineRun: await this.deps.runnerRegistry.describeRun(run),
      stack: stack ?? null,
      ...(checkout ? { checkout } : {}),
    };
  }

  /** The organization's runners as last seen; any member may read them. */
  async list(
    caller: Caller,
    status: RunnerStatus | undefined,
    page: KeysetRequest,
  ): Promise<KeysetPage<Runner>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.runnerRegistry.list(caller.organizationId, status, page);
  }

  async heartbeat(
    caller: Caller,
    stepId: string,
    leaseToken: string,
    heartbeatIntervalMs?: number,
  ) {
    await this.requireRunner(caller);
    const beat = await this.deps.engine.heartbeat(
      caller.organizationId,
      stepId,
      leaseToken,
      heartbeatIntervalMs,
    );
    await this.deps.runnerRegistry.recordStepActivity(
      caller.organizationId,
      stepId,
    );
    return beat;
  }

  async appendLogs(
    caller: Caller,
    stepId: string,
    leaseToken: string,
    lines: { timestamp?: string; text: string }[],
  ): Promise<CancelledStepLogs | undefined> {
    await this.requireRunner(caller);
    const answer = await this.deps.engine.appendLogs(
      caller.organizationId,
      stepId,
      leaseToken,
      lines,
    );
    await this.deps.runnerRegistry.recordStepActivity(
      caller.organizationId,
      stepId,
    );
    return answer;
  }

  async complete(
    caller: Caller,
    stepId: string,
    leaseToken: string,
    result: StepResult & StepReport,
  ): Promise<StepExecution> {
    await this.requireRunner(caller);
    const step = await this.deps.engine.complete(
      caller.organizationId,
      stepId,
      leaseToken,
      result.error ? { ...result, error: reportedError(result.error) } : result,
      (tx, leased, run) => ingestStepReport(tx, leased, run, result),
    );
    await this.deps.runnerRegistry.recordStepEnd(caller.organizationId, stepId);
    return publicStep(step);
  }
}

/** The step's error when the run's commit cannot be handed to a runner. */
function checkoutUnavailable(
  gitSource: RunGitSource,
  cause: InfraDeliveryError,
): ErrorBody {
  const commit = `${gitSource.repository}@${gitSource.commit.sha.slice(0, 7)}`;
  return {
    code: errorCode('Runner', 'CHECKOUT_UNAVAILABLE'),
    message: `${commit} cannot be checked out: ${cause.message}. Nothing was planned; run it again once the GitHub App reaches the repository.`,
    metadata: {
      repository: gitSource.repository,
      sha: gitSource.commit.sha,
      cause: cause.code,
    },
  };
}
