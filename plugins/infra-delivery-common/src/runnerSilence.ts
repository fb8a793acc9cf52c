import type { Runner } from './schemas';

/** The reference runner's wait between claims that find no work: assumed when a runner does not say. */
export const DEFAULT_RUNNER_POLL_INTERVAL_MS = 2_000;

/**
 * The service records that an idle runner asked for work at most this often (each instance), so
 * a runner's `lastSeenAt` may be this much older than its last claim.
 */
export const RUNNER_SIGHTING_INTERVAL_MS = 10_000;

/**
 * A free runner is silent once it has not asked for work for this many of its polls, and at
 * least `SILENT_AFTER_MIN_MS`: one poll can be slow, a claim can fail once and be retried after
 * a backoff.
 */
const SILENT_AFTER_POLLS = 5;
const SILENT_AFTER_MIN_MS = 10_000;

/**
 * How long a free runner may go without asking for work before it has most likely stopped
 * without signing off (killed, or its host lost), given the poll interval it said it keeps;
 * judged on `lastSeenAt`, so it allows for the interval at which sightings are recorded (a
 * runner asking every two seconds read "Silent" for a moment every ten seconds).
 */
export function runnerSilentAfterMs(pollIntervalMs?: number): number {
  return (
    RUNNER_SIGHTING_INTERVAL_MS +
    Math.max(
      SILENT_AFTER_MIN_MS,
      SILENT_AFTER_POLLS * (pollIntervalMs ?? DEFAULT_RUNNER_POLL_INTERVAL_MS),
    )
  );
}

/**
 * A runner whose held claim lost its connection unanswered asks again at once, or after one
 * poll interval when its request failed; one that has not within this long has most likely
 * stopped (killed, or its host lost) without signing off.
 */
export function droppedRunnerSilentAfterMs(pollIntervalMs?: number): number {
  return Math.max(
    5_000,
    2 * (pollIntervalMs ?? DEFAULT_RUNNER_POLL_INTERVAL_MS),
  );
}

/**
 * Since when a runner has gone unheard (ms): since `heardAt`, or since the service came back
 * (`serviceReachableSince`) where that is later — the service cannot hear a runner while it is
 * down. After a restart the run page read "has not been heard from for 15s" until the runner's
 * next heartbeat got through.
 */
export function unheardSince(
  heardAt: number,
  serviceReachableSince?: string,
): number {
  return serviceReachableSince === undefined
    ? heardAt
    : Math.max(heardAt, Date.parse(serviceReachableSince) || 0);
}

/**
 * How long a free runner has not asked for work, once that is long enough to say it has most
 * likely stopped without signing off; undefined while it may still be asking. Silent once its
 * last sighting (`lastSeenAt`) is older than `runnerSilentAfterMs`, or sooner, once its held
 * claim lost its connection unanswered (`claimDroppedAt`: killed, or its host or network lost)
 * and it has not asked again within `droppedRunnerSilentAfterMs`. The one rule by which the
 * Runners card calls a free runner "Silent" and a run waiting for it says it may have stopped
 * (`runnersSilent`): the card read "Online"/"Idle" ten seconds after the run page said so. Both
 * count from the service's return where it came back since (`unheardSince`).
 */
export function freeRunnerSilenceMs(
  runner: {
    lastSeenAt?: string;
    pollIntervalMs?: number;
    claimDroppedAt?: string;
    serviceReachableSince?: string;
  },
  now: number,
): number | undefined {
  const { serviceReachableSince } = runner;
  if (runner.lastSeenAt !== undefined) {
    const unseenMs =
      now - unheardSince(Date.parse(runner.lastSeenAt), serviceReachableSince);
    if (unseenMs >= runnerSilentAfterMs(runner.pollIntervalMs)) {
      return unseenMs;
    }
  }
  if (runner.claimDroppedAt !== undefined) {
    const droppedMs =
      now -
      unheardSince(Date.parse(runner.claimDroppedAt), serviceReachableSince);
    if (droppedMs >= droppedRunnerSilentAfterMs(runner.pollIntervalMs)) {
      return droppedMs;
    }
  }
  return undefined;
}

/** A runner working on a step is silent once it went unheard for this many of its heartbeats. */
const SILENT_AFTER_HEARTBEATS = 3;

/**
 * How long a runner working on a step may go unheard (no heartbeat, no log append) before it has
 * most likely stopped, given the heartbeat interval it said it keeps: three of them, and at least
 * `SILENT_AFTER_MIN_MS`, as for a free runner's polls.
 */
export function leasedRunnerSilentAfterMs(heartbeatIntervalMs: number): number {
  return Math.max(
    SILENT_AFTER_MIN_MS,
    SILENT_AFTER_HEARTBEATS * heartbeatIntervalMs,
  );
}

/**
 * How long an ONLINE runner without a step has not asked for work, once that is long enough to
 * say it has most likely stopped (`freeRunnerSilenceMs`); undefined while it polls, works on a
 * step (its lease tells) or is OFFLINE already. Every claim, also one that finds no work,
 * records `lastSeenAt`.
 */
export function idleRunnerSilenceMs(
  runner: Pick<
    Runner,
    | 'status'
    | 'currentStepExecutionId'
    | 'lastSeenAt'
    | 'pollIntervalMs'
    | 'claimDroppedAt'
    | 'serviceReachableSince'
  >,
  now: number,
): number | undefined {
  if (runner.status !== 'ONLINE' || runner.currentStepExecutionId) {
    return undefined;
  }
  return freeRunnerSilenceMs(runner, now);
}
