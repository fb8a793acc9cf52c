import {
  InfraDeliveryApiError,
  InfraDeliveryClient,
} from '@infra-delivery/plugin-infra-delivery-common';
import { isRefusal } from './serviceAnswers';

/**
 * How often a runner renews its lease while a step runs (a third of the lease where that is
 * shorter). It says so with each heartbeat, and the portal calls it silent once it has not been
 * heard from for three of these: a runner killed mid-step read silent only after half the lease
 * (30 s) when it renewed every third of it. The lease's length is unchanged: the step still goes
 * to another runner only when it expires.
 */
export const HEARTBEAT_INTERVAL_MS = 5_000;

/**
 * Keeps a runner's lease on one step alive with heartbeats, every `HEARTBEAT_INTERVAL_MS`, while
 * the step's command runs. It stops the command when the step must not go on here: the run
 * was cancelled, the lease went to another attempt (409), or the service refuses the runner's
 * key (401, 403: the key was revoked, its service account deleted or demoted), since no
 * report of this step would be accepted. A heartbeat that does not reach the service is tried
 * again at the next beat, and said once, with the time by which the step goes to another
 * runner. Once the command has ended (`commandEnded`), the beats only keep the lease while the
 * report goes out: the report speaks for the step.
 */
export class LeaseKeeper {
  /** True once the step must not go on here: its command was stopped. */
  lost = false;
  /**
   * Why, when the step was lost to a new attempt (not to a cancel or a refused key): the
   * service's answer.
   */
  handedOver?: string;
  /**
   * True when it was stopped because its run was cancelled: the service still takes what the
   * command prints while it stops, and a report that says it has stopped.
   */
  cancelled = false;
  private timer?: ReturnType<typeof setInterval>;
  /** How often the lease is renewed, as each heartbeat tells the service. */
  private intervalMs = HEARTBEAT_INTERVAL_MS;
  /** Until when the service holds the step for this runner, as last heard. */
  expiresAt: string;
  private unreachable = false;
  /**
   * Set once the step's command has ended and its report goes out: a heartbeat on its way as
   * the service takes the report hears that the lease is gone, which is no news (it read
   * "stopping" beside "SUCCEEDED"). A report refused for its lease says so itself.
   */
  private reporting = false;
  /** Set once the step is reported or abandoned: a heartbeat's late answer is no news then. */
  private stopped = false;

  constructor(
    private readonly options: {
      client: InfraDeliveryClient;
      stepId: string;
      runId: string;
      leaseToken: string;
      leaseExpiresAt: string;
      /** Stops the step's command (interrupted, killed after a grace period). */
      stopCommand: (reason: string) => void;
      log: (message: string) => void;
    },
  ) {
    this.expiresAt = options.leaseExpiresAt;
  }

  start() {
    const leaseMs = Date.parse(this.expiresAt) - Date.now();
    this.intervalMs = Math.max(
      1000,
      Math.min(HEARTBEAT_INTERVAL_MS, Math.floor(leaseMs / 3)),
    );
    this.timer = setInterval(() => this.beat(), this.intervalMs);
  }

  /**
   * The command has ended: the heartbeats go on keeping the lease while the report is sent
   * (and tried again), and a refusal or a cancellation is no longer theirs to act on.
   */
  commandEnded() {
    this.reporting = true;
  }

  stop() {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /**
   * Another answer of the service about this step (a refused batch of logs) that says the step
   * must not go on here: the run was cancelled, the lease is gone (409), the key is refused
   * (401, 403). The command is stopped at once, not at the next heartbeat. True when the answer was such a refusal.
   */
  refused(error: unknown): boolean {
    const { stepId, runId } = this.options;
    if (this.stopped || this.reporting) return false;
    if (error instanceof InfraDeliveryApiError && error.status === 409) {
      if (/CANCELLED/.test(error.message)) {
        this.giveUp(`Run ${runId} was cancelled; stopping`);
      } else {
        this.handedOver ??= error.message;
        this.giveUp(
          `The lease on step ${stepId} is gone (${error.message}); stopping`,
        );
      }
      return true;
    }
    if (
      error instanceof InfraDeliveryApiError &&
      (error.status === 401 || error.status === 403)
    ) {
      this.giveUp(
        `The service refused this runner's key (${error.status}: ${error.message}); stopping step ${stepId}, whose report it would refuse too`,
      );
      return true;
    }
    return false;
  }

  /**
   * Renews the lease now, and again with a growing wait while the service cannot be reached,
   * before the step changes anything (an apply): a runner that was cut off for longer than the
   * lease may have lost the step to a new attempt, which another runner may be applying. Once
   * it returns, the step is this runner's (or `lost`, its command stopped, when it is not).
   */
  async confirm(waitMs: (attempt: number) => number): Promise<void> {
    const { client, stepId, runId, leaseToken, log } = this.options;
    for (let attempt = 1; !this.lost && !this.stopped; attempt++) {
      try {
        const beat = await client.call('heartbeatStepExecution', {
          params: { id: stepId },
          body: { data: { leaseToken, heartbeatIntervalMs: this.intervalMs } },
        });
        this.expiresAt = beat.data.leaseExpiresAt;
        if (beat.data.cancelRequested) {
          this.giveUp(`Run ${runId} was cancelled; stopping`, true);
        }
        return;
      } catch (error) {
        if (this.refused(error)) return;
        if (attempt === 1) {
          log(
            `Cannot renew the lease on step ${stepId} before applying (${
              (error as Error).message
            }); nothing is applied until the service confirms that the step is still this runner's`,
          );
        }
        await new Promise(resolve => setTimeout(resolve, waitMs(attempt)));
      }
    }
  }

  /**
   * The service said, answering a batch of logs, that the run was cancelled: the command is
   * stopped at once, as at a heartbeat that says so.
   */
  cancelRequested() {
    if (this.stopped || this.reporting) return;
    this.giveUp(`Run ${this.options.runId} was cancelled; stopping`, true);
  }

  private giveUp(message: string, cancelled = false) {
    if (this.lost) return;
    this.lost = true;
    this.cancelled = cancelled;
    this.options.log(message);
    this.options.stopCommand(message);
  }

  private async beat() {
    const { client, stepId, runId, leaseToken, log } = this.options;
    try {
      const beat = await client.call('heartbeatStepExecution', {
        params: { id: stepId },
        body: { data: { leaseToken, heartbeatIntervalMs: this.intervalMs } },
      });
      if (this.stopped) return;
      this.expiresAt = beat.data.leaseExpiresAt;
      if (this.unreachable) {
        this.unreachable = false;
        log(`Renewed the lease on step ${stepId} again`);
      }
      if (beat.data.cancelRequested && !this.reporting) {
        this.giveUp(`Run ${runId} was cancelled; stopping`, true);
      }
    } catch (error) {
      if (this.stopped || (this.reporting && isRefusal(error))) return;
      if (this.refused(error)) return;
      if (!this.unreachable) {
        this.unreachable = true;
        log(
          `Cannot renew the lease on step ${stepId} (${
            (error as Error).message
          }); unless the service hears from this runner by ${
            this.expiresAt
          }, it hands the step to another runner`,
        );
      }
    }
  }
}
