import {
  formatDuration,
  InfraDeliveryClient,
  RunnerClaim,
} from '@infra-delivery/plugin-infra-delivery-common';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { anySignal } from './anySignal';
import { CommitCheckouts } from './CommitCheckouts';
import { checkAgainstApprovedPlan } from './approvedPlan';
import { executeStep, StepOutcome } from './executeStep';
import { EarlierAttempts } from './EarlierAttempts';
import { DEFAULT_STOP_GRACE_MS, IacTool } from './IacTool';
import { HEARTBEAT_INTERVAL_MS, LeaseKeeper } from './LeaseKeeper';
import { LogShipper } from './LogShipper';
import { RunnerOptions } from './options';
import {
  DEFAULT_STEP_TIMEOUT_MS,
  stepTimedOutError,
  timedOutReason,
} from './stepTimeout';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  withRequestTimeout,
} from './requestTimeout';
import { backoffMs, isRefusal, withCause } from './serviceAnswers';

const LOG_FLUSH_MS = 1000;
/** How long a command may print nothing before the step's log says that it still runs. */
export const DEFAULT_SILENCE_NOTICE_MS = 5 * 60_000;
const SIGN_OFF_TIMEOUT_MS = 5000;
/** A held claim answered this much before its wait ended still counts as held. */
const HELD_CLAIM_SLACK_MS = 1000;
/** How long past its wait a held claim may go unanswered before the runner asks again. */
const CLAIM_ANSWER_GRACE_MS = 30_000;

/** The runner's own version, as the service's runner list shows it. */
export const RUNNER_VERSION: string = (() => {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('../package.json').version;
  } catch {
    return 'unknown';
  }
})();

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/**
 * Claims steps of its organization and executes them: heartbeats keep the lease while the
 * IaC command runs, logs stream in batches, and the result goes back with the plan JSON.
 * A cancelled run stops the command; a lost lease abandons the step (the service hands it
 * to another runner as a new attempt).
 */
export class Runner {
  private stopped = false;
  /** How many times the runner was told to stop (SIGINT, SIGTERM). */
  private stopRequests = 0;
  private connected = false;
  /** Aborts the claim in flight, when the runner stops while the service holds it. */
  private claiming?: AbortController;
  /** The step executing now, and its tool. */
  private current?: { stepId: string; tool: IacTool };
  private readonly checkouts?: CommitCheckouts;
  /** Every request but a held claim is given up when unanswered for `requestTimeoutMs`. */
  private readonly client: InfraDeliveryClient;
  private readonly earlierAttempts: EarlierAttempts;
  /**
   * This process, as its claims and sign-off name it: two processes started with the same
   * runner id are two runners in the portal, and one that stops signs off alone.
   */
  readonly instanceId: string;

  constructor(
    private readonly options: RunnerOptions,
    client: InfraDeliveryClient,
    private readonly log: (message: string) => void,
  ) {
    this.client = withRequestTimeout(
      client,
      options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    );
    this.instanceId = options.instanceId ?? randomUUID();
    this.earlierAttempts = new EarlierAttempts(
      options.runnerId,
      path.basename(options.iacBinary),
    );
    if (options.checkout) {
      this.checkouts = new CommitCheckouts(
        path.join(options.workRoot, 'checkouts'),
      );
    }
  }

  /**
   * Stops. A claim the service holds open ends at once. The step executing is let finish the
   * first time (a restart does not cut an apply short); stopped again, its command
   * is interrupted like a cancelled step's (killed after the grace period) and the step is
   * reported as stopped; a third time, the command is killed at once.
   */
  stop() {
    this.stopRequests += 1;
    this.stopped = true;
    this.claiming?.abort();
    const current = this.current;
    if (!current) return;
    const binary = path.basename(this.options.iacBinary);
    if (this.stopRequests === 1) {
      this.log(
        `Stopping once step ${current.stepId} has ended (stop the runner again to interrupt ${binary})`,
      );
    } else if (this.stopRequests === 2) {
      this.log(
        `Stopping: interrupting ${binary} of step ${
          current.stepId
        } (killed if it has not exited within ${formatDuration(
          this.options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS,
        )}; stop the runner again to kill it now)`,
      );
      current.tool.stop('the runner was stopped');
    } else {
      this.log(`Killing ${binary} of step ${current.stepId}`);
      current.tool.kill('the runner was stopped');
    }
  }

  /**
   * Asks for a step; the service holds the claim up to `waitSeconds` while there is none. A
   * claim unanswered well after that (a connection lost without a word) is abandoned.
   */
  private async claim(waitSeconds: number) {
    const { runnerId, labels, hostname, pollIntervalMs } = this.options;
    this.claiming = new AbortController();
    const signal = anySignal([
      this.claiming.signal,
      AbortSignal.timeout(waitSeconds * 1000 + CLAIM_ANSWER_GRACE_MS),
    ]);
    try {
      return await this.client.call(
        'claimStepExecution',
        {
          body: {
            // The poll interval lets the service tell this runner, free but silent, from one
            // about to ask for work; the heartbeat interval, killed before its first heartbeat
            // on a step it claims, from one about to send it.
            data: {
              runnerId,
              instanceId: this.instanceId,
              labels,
              hostname,
              version: RUNNER_VERSION,
              pollIntervalMs,
              heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
              waitSeconds,
            },
          },
        },
        { signal },
      );
    } finally {
      this.claiming = undefined;
    }
  }

  /**
   * Claims and executes steps until stopped (or after one step with `once`), then signs off. A
   * service that cannot be reached, or answers with a server error, is tried again with a
   * growing wait (the portal restarting must not stop its runners); a refused credential ends
   * the loop.
   */
  async run(): Promise<void> {
    try {
      await this.claimAndExecute();
    } finally {
      await this.signOff();
    }
  }

  /**
   * Tells the service that this runner stops, so that the portal lists it offline and counts it
   * out of the runners free for waiting runs at once, not a minute later. Best effort: a service
   * that does not answer within a few seconds lets the runner stop anyway.
   */
  private async signOff(): Promise<void> {
    // A runner that never reached the service was never listed: there is nothing to sign off.
    if (!this.connected) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.client.call('signOffRunner', {
          body: {
            data: {
              runnerId: this.options.runnerId,
              instanceId: this.instanceId,
            },
          },
        }),
        new Promise((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new Error(`no answer within ${SIGN_OFF_TIMEOUT_MS / 1000} s`),
              ),
            SIGN_OFF_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      // A refused key was said where it was refused; the service takes nothing from it.
      if (isRefusal(error)) return;
      this.log(
        `Could not tell the service that this runner stops (${
          (error as Error).message
        }): the portal lists it online until it has not been seen for a minute`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Says once, at the service's first answer, which organization the runner serves: a key of
   * another organization's service account is the one mistake nothing else shows (the runs
   * pressed in the portal read "No runner is connected" while this runner finds no work).
   */
  private async sayConnected(): Promise<void> {
    const { url, runnerId, pollIntervalMs, waitSeconds, labels } = this.options;
    let organization = '';
    try {
      const { data } = await this.client.call('getCurrentOrganization', {});
      organization = ` for organization "${data.name}"`;
    } catch {
      // Only said for people: the claims work without it.
    }
    const asking =
      waitSeconds > 0
        ? 'waiting for work (the service answers as soon as a step is queued)'
        : `asking for work every ${formatDuration(pollIntervalMs)}`;
    // Which stacks' steps it may be handed: those requiring labels, only with these.
    const carrying = labels.length
      ? ` with labels ${labels.join(', ')}`
      : ' without labels (stacks that require runner labels are left to other runners)';
    this.log(
      `Connected to ${url}${organization} as ${runnerId}${carrying}; ${asking}`,
    );
  }

  private async claimAndExecute(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let claim;
      const askedAt = Date.now();
      // The first claim, and the first after the service could not be reached, is answered
      // at once: the runner says it is connected when it is.
      const waitSeconds =
        this.connected && failures === 0 ? this.options.waitSeconds : 0;
      try {
        claim = await this.claim(waitSeconds);
      } catch (error) {
        if (isRefusal(error)) {
          throw error;
        }
        if (this.stopped) {
          return;
        }
        failures += 1;
        const waitMs = backoffMs(this.options.pollIntervalMs, failures);
        if (failures === 1 || failures % 10 === 0) {
          // Until the service has answered once, the address may be what is wrong.
          this.log(
            this.connected
              ? `Cannot reach the service (${withCause(
                  error,
                )}); trying again in ${Math.round(waitMs / 1000)} s`
              : `Cannot reach ${this.options.url} (${withCause(
                  error,
                )}); trying again in ${Math.round(
                  waitMs / 1000,
                )} s — check --url if the portal is up`,
          );
        }
        await sleep(waitMs);
        continue;
      }
      if (!this.connected) {
        this.connected = true;
        await this.sayConnected();
      } else if (failures > 0) {
        this.log('Connected to the service again');
      }
      failures = 0;
      if (claim) {
        await this.execute(claim.data);
        if (this.options.once) return;
      } else {
        if (this.options.once) return;
        // A claim the service held has waited already. One it answered sooner than asked
        // (a service that does not hold claims, or one stopping), and every claim of a runner
        // that does not ask to be held, is followed by the poll interval.
        const answeredEarly =
          waitSeconds > 0 &&
          Date.now() - askedAt < waitSeconds * 1000 - HELD_CLAIM_SLACK_MS;
        if (this.options.waitSeconds === 0 || answeredEarly) {
          await sleep(this.options.pollIntervalMs);
        }
      }
    }
  }

  /**
   * Reports a step's outcome, again and again while the service cannot be reached or does not
   * answer (a portal restarting, or down for longer than the lease): the service takes a late
   * report as long as it has not handed the step to another attempt, and the heartbeats go on
   * renewing the lease meanwhile. Until the runner is stopped a second time. A refusal (4xx) is
   * final, unless an earlier try went unanswered and the service had taken that one: then the
   * step holds this outcome already. True when the report was taken then.
   */
  private async reportUntilAnswered(
    claim: RunnerClaim,
    status: StepOutcome['status'],
    lease: LeaseKeeper,
    report: () => Promise<void>,
  ): Promise<boolean> {
    const stepId = claim.stepExecution.id;
    let unanswered = false;
    for (let attempt = 1; ; attempt++) {
      try {
        await report();
        return false;
      } catch (error) {
        if (isRefusal(error)) {
          if (unanswered && (await this.holdsOutcome(claim, status))) {
            return true;
          }
          throw error;
        }
        if (this.stopRequests > 1) throw error;
        unanswered = true;
        const waitMs = backoffMs(this.options.pollIntervalMs, attempt);
        if (attempt === 1 || attempt % 10 === 0) {
          this.log(
            `Cannot report step ${stepId} (${
              (error as Error).message
            }); trying again in ${formatDuration(
              waitMs,
            )}, until the service answers (its lease ran until ${
              lease.expiresAt
            }; the service keeps the step for this runner until it hands it to another attempt)`,
          );
        }
        await sleep(waitMs);
      }
    }
  }

  /**
   * `read`, again with a growing wait while the service cannot be reached or does not answer,
   * until the step must stop (its lease lost, the run cancelled, the runner stopped twice). A
   * blip of the portal as an apply checked its plan failed the apply.
   */
  private async readWhileUnreachable<T>(
    read: () => Promise<T>,
    lease: LeaseKeeper,
    log: (line: string) => void,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (isRefusal(error) || lease.lost || this.stopRequests > 1) {
          throw error;
        }
        const waitMs = backoffMs(this.options.pollIntervalMs, attempt);
        if (attempt === 1) {
          log(
            `Cannot read the approved plan (${
              (error as Error).message
            }); trying again until the service answers`,
          );
        }
        await sleep(waitMs);
      }
    }
  }

  /** Whether the step's attempt already ended with `status`: a report whose answer was lost. */
  private async holdsOutcome(
    claim: RunnerClaim,
    status: StepOutcome['status'],
  ): Promise<boolean> {
    try {
      const { data: steps } = await this.client.call('listStepExecutions', {
        params: { id: claim.pipelineRun.id },
      });
      const step = steps.find(s => s.id === claim.stepExecution.id);
      return (
        step?.attemptEpoch === claim.stepExecution.attemptEpoch &&
        step.status === status
      );
    } catch {
      return false;
    }
  }

  /**
   * After the command of a step that must not go on here was stopped. A cancelled step's last
   * lines (what the tool printed while it stopped) are sent, then the report, which tells the
   * service that the command has stopped and ends the step's log with who cancelled it. A
   * service that no longer takes them (one older than this, or past its grace) refuses: the
   * step is abandoned, as is one whose lease or key is gone.
   */
  private async endStopped(
    stepId: string,
    lease: LeaseKeeper,
    logs: LogShipper,
    report: () => Promise<void>,
  ): Promise<void> {
    if (lease.cancelled) {
      await logs.flush();
      try {
        await report();
        this.log(
          `Step ${stepId} was cancelled; what the tool printed while it stopped is in the step's log`,
        );
        return;
      } catch {
        // Said below: the service takes nothing more of this step.
      }
    }
    this.log(`Abandoned step ${stepId}`);
  }

  async execute(claim: RunnerClaim): Promise<void> {
    const step = claim.stepExecution;
    const params = { id: step.id };
    const { leaseToken } = claim;
    this.log(
      `Executing ${step.type} "${step.name}" of run ${claim.pipelineRun.id} (attempt ${step.attemptEpoch})`,
    );

    const logs = new LogShipper(
      async lines =>
        (
          await this.client.call('appendStepExecutionLogs', {
            params,
            body: { data: { leaseToken, lines } },
          })
        )?.data,
      this.log,
      {
        keep: line => this.log(`[step ${step.id}] ${line.text}`),
      },
    );
    // The step's first line, sent with the first batch (within a second), whatever the command
    // prints and however long a checkout takes: the portal tells by it that the claim's answer
    // reached a working runner, and calls a runner not heard from after its claim frozen or lost.
    logs.add(
      `${this.options.runnerId} on ${this.options.hostname} took this step (attempt ${step.attemptEpoch})`,
    );
    let lastOutput = Date.now();
    const tool = new IacTool(
      this.options.iacBinary,
      line => {
        lastOutput = Date.now();
        logs.add(line);
      },
      { stopGraceMs: this.options.stopGraceMs },
    );
    // A command silent for long (a provider waiting on a cloud API, a prompt nobody answers)
    // is said in the step's log, so that the portal does not show a step that seems dead.
    const binary = path.basename(this.options.iacBinary);
    const silenceMs = this.options.silenceNoticeMs ?? DEFAULT_SILENCE_NOTICE_MS;
    const silenceTimer = setInterval(() => {
      const pid = tool.pid;
      if (pid === undefined) {
        lastOutput = Date.now();
        return;
      }
      const silent = Date.now() - lastOutput;
      if (silent >= silenceMs) {
        logs.add(
          `No output from ${binary} for ${formatDuration(
            silent,
          )} (still running, pid ${pid})`,
        );
      }
    }, silenceMs);
    // A step that runs past --step-timeout is stopped as a cancelled one is, and fails saying so.
    const stepTimeoutMs = this.options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
    let timedOut = false;
    const timeoutTimer =
      stepTimeoutMs > 0
        ? setTimeout(() => {
            if (tool.stopped) return;
            timedOut = true;
            const said = `The step has run for ${formatDuration(
              stepTimeoutMs,
            )} (--step-timeout): interrupting ${binary} (killed if it has not exited within ${formatDuration(
              this.options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS,
            )})`;
            logs.add(said);
            this.log(`[step ${step.id}] ${said}`);
            tool.stop(timedOutReason(stepTimeoutMs));
          }, stepTimeoutMs)
        : undefined;
    this.current = { stepId: step.id, tool };
    if (this.stopRequests > 1) tool.stop('the runner was stopped');
    const flushTimer = setInterval(() => logs.flush(), LOG_FLUSH_MS);

    const lease = new LeaseKeeper({
      client: this.client,
      stepId: step.id,
      runId: claim.pipelineRun.id,
      leaseToken,
      leaseExpiresAt: claim.leaseExpiresAt,
      stopCommand: reason => tool.stop(reason),
      log: this.log,
    });
    // A batch of logs answered with the run's cancel (or refused: the lease gone, 409) stops
    // the command at once, not at the next heartbeat.
    logs.onRefused = error => lease.refused(error);
    logs.onCancelRequested = () => lease.cancelRequested();
    lease.start();

    let outcome: StepOutcome | undefined;
    /** Set once the apply command starts: from then on the step changes the stack. */
    let applying = false;
    try {
      const earlier = this.earlierAttempts.takeFor(claim);
      if (earlier) {
        logs.add(earlier.note);
        this.log(earlier.note);
      }
      const executed =
        earlier?.outcome ??
        (await executeStep(claim, tool, {
          workRoot: this.options.workRoot,
          sourceRoot: this.options.sourceRoot,
          binaryName: path.basename(this.options.iacBinary),
          checkouts: this.checkouts,
          log: line => logs.add(line),
          checkApprovedPlan: async planJson => {
            await checkAgainstApprovedPlan(
              this.client,
              claim,
              planJson,
              line => logs.add(line),
              read =>
                this.readWhileUnreachable(read, lease, line => logs.add(line)),
            );
            // Nothing is applied under a lease that may have gone to a new attempt.
            await lease.confirm(attempt =>
              backoffMs(this.options.pollIntervalMs, attempt),
            );
            applying = !lease.lost;
          },
        }));
      const result: StepOutcome =
        timedOut && executed.status === 'FAILED'
          ? {
              ...executed,
              error: stepTimedOutError(executed.error, stepTimeoutMs, binary),
            }
          : executed;
      outcome = result;
      clearInterval(flushTimer);
      if (lease.lost) {
        if (lease.handedOver && applying) {
          this.earlierAttempts.remember(claim, lease.handedOver, result);
        }
        await this.endStopped(step.id, lease, logs, async () => {
          await this.client.call('completeStepExecution', {
            params,
            body: { data: { leaseToken, ...result } },
          });
        });
        return;
      }
      // The heartbeats go on until the report is in: a service that is back within the lease
      // takes it.
      lease.commandEnded();
      const takenEarlier = await this.reportUntilAnswered(
        claim,
        result.status,
        lease,
        async () => {
          // The logs first: once the step is reported, the service takes none of its lines.
          await logs.flush();
          if (logs.waitingLines > 0) {
            throw new Error(`${logs.waitingLines} log lines wait to be sent`);
          }
          await this.client.call('completeStepExecution', {
            params,
            body: { data: { leaseToken, ...result } },
          });
        },
      );
      if (takenEarlier) {
        this.log(
          `The service had taken the report of step ${step.id}; its answer was lost`,
        );
      }
      if (logs.undelivered > 0) {
        this.log(
          `${logs.undelivered} log lines of step ${step.id} could not be sent`,
        );
      }
      this.log(`Step ${step.id} ${outcome.status}`);
    } catch (error) {
      const reason = (error as Error).message;
      // Refused for its lease, the step went to a new attempt; for a cancel, the run ended.
      if (
        outcome &&
        isRefusal(error) &&
        error.status === 409 &&
        !/CANCELLED/.test(reason)
      ) {
        this.earlierAttempts.remember(claim, reason, outcome);
      }
      this.log(
        outcome?.status === 'SUCCEEDED' && step.type !== 'iac.plan'
          ? `Step ${step.id} SUCCEEDED here (${binary} apply ran to its end), but the service refused its report (${reason}). Its changes are applied; if this runner claims the step's next attempt, it reports this outcome there instead of applying again`
          : `Step ${step.id} could not be reported: ${reason}`,
      );
    } finally {
      clearTimeout(timeoutTimer);
      clearInterval(silenceTimer);
      this.current = undefined;
      lease.stop();
      clearInterval(flushTimer);
    }
  }
}
