import {
  carriesRunnerLabels,
  formatDuration,
  formatRunnerLabels,
  freeRunnerSilenceMs,
  noRunnerWithLabelsReason,
  QueueState,
  runnerLabelsArgument,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  LostRunner,
  OnlineRunner,
  OnlineRunners,
  tallyOnline,
} from '../database/RunnerStore';

export const NO_RUNNER_REASON = 'No runner is connected to this organization';

/**
 * How long the free runners have not asked for work while a step waits, once that is long
 * enough to be sure: none of them has been seen for as long as makes a runner silent on the
 * Runners card (sightings are written at least every ten seconds while a runner asks, and a
 * free runner that asks claims the oldest waiting step). Sooner where each of them lost its
 * held claim's connection and has not asked again since. Before, the silence was counted from
 * the later of the step's queueing and their last sighting: a runner killed well before the
 * step was queued read "free and takes it next" for twenty seconds more.
 */
function freeRunnersSilence(
  runners: OnlineRunners,
  now: number,
  serviceReachableSince?: string,
): number | undefined {
  const { online, busy, freeLastSeenAt, freePollIntervalMs, freeDroppedAt } =
    runners;
  if (online <= busy) {
    return undefined;
  }
  // The Runners card's rule for one free runner ("Silent"), on the latest of them.
  return freeRunnerSilenceMs(
    {
      lastSeenAt: freeLastSeenAt,
      pollIntervalMs: freePollIntervalMs,
      claimDroppedAt: freeDroppedAt,
      serviceReachableSince,
    },
    now,
  );
}

function silentRunnersReason(runners: OnlineRunners, silentMs: number) {
  const { online, busy, freeRunnerId } = runners;
  const free = online - busy;
  const silence = `for ${formatDuration(silentMs)}`;
  if (free > 1) {
    return `Queued for a runner: ${free} of ${online} connected runners are free but none has asked for work ${silence}; they may have stopped (killed, or their hosts lost)`;
  }
  const runner =
    online === 1
      ? `the one connected runner, ${freeRunnerId}, is free but`
      : `${freeRunnerId}, the one free runner of ${online} connected,`;
  return `Queued for a runner: ${runner} has not asked for work ${silence}; it may have stopped (killed, or its host lost)`;
}

/** What happened to the runner that held the step before it was queued again. */
function lostRunnerClause(lost: LostRunner): string {
  const by = lost.by ? ` by ${lost.by}` : '';
  switch (lost.cause) {
    case 'KEY_REVOKED':
      return `${lost.runnerId}'s API key was revoked${by} during this step, so it can no longer report`;
    case 'ACCOUNT_DELETED':
      return `${lost.runnerId}'s service account was deleted${by} during this step, so it can no longer report`;
    default:
      return `${lost.runnerId} stopped reporting during this step (it may have been stopped)`;
  }
}

/**
 * Why a step queued for a claim waits, given the organization's ONLINE runners: none, all busy
 * with other steps (the reference runner executes one step at a time), some free and about to
 * claim it, or some free but silent since it was queued (`runnersSilent`). A step queued again
 * because the service turned its runner OFFLINE (`lost`) says so first: that runner is not
 * connected, nor busy with another step. Free runners' silence counts from the service's
 * return where it came back since (`serviceReachableSince`, ISO): they could not ask meanwhile.
 */
export function waitForRunner(
  runners: OnlineRunners,
  now: number,
  lost?: LostRunner,
  serviceReachableSince?: string,
  /** What the step's stack requires of its runner; `runners` counts only those carrying it. */
  labels?: LabelledWait,
): Pick<
  QueueState,
  'waitingForRunner' | 'runnersSilent' | 'reason' | 'requiredRunnerLabels'
> {
  const required = labels?.required ?? [];
  const requiredState =
    required.length > 0 ? { requiredRunnerLabels: required } : {};
  // Runners are online, but none may take the step: say which labels they carry.
  const unmatched =
    runners.online === 0 && labels && labels.otherOnline.length > 0
      ? noRunnerWithLabelsReason(required, labels.otherOnline)
      : undefined;
  const wait = unmatched
    ? { waitingForRunner: true, reason: unmatched }
    : waitForConnectedRunner(runners, now, serviceReachableSince, required);
  if (!lost) {
    return { ...wait, ...requiredState };
  }
  const requeued = `${lostRunnerClause(lost)}; the step is queued again`;
  return {
    ...wait,
    ...requiredState,
    reason:
      wait.waitingForRunner && !unmatched
        ? `${requeued} and no runner is connected to this organization: start a runner`
        : `${requeued}. ${wait.reason}`,
  };
}

/** The labels a waiting step's stack requires, and those of the online runners without them. */
export interface LabelledWait {
  required: string[];
  otherOnline: string[][];
}

/**
 * The organization's ONLINE runners that may claim a step whose stack requires `required`
 * (`carriesRunnerLabels`), counted for `waitForRunner`, with the labels of the others.
 */
export function runnersFor(
  online: OnlineRunner[],
  required: string[],
): { runners: OnlineRunners; labels?: LabelledWait } {
  if (required.length === 0) {
    return { runners: tallyOnline(online) };
  }
  const carrying = online.filter(runner =>
    carriesRunnerLabels(runner.labels, required),
  );
  return {
    runners: tallyOnline(carrying),
    labels: {
      required,
      otherOnline: online
        .filter(runner => !carrying.includes(runner))
        .map(runner => runner.labels),
    },
  };
}

function waitForConnectedRunner(
  runners: OnlineRunners,
  now: number,
  serviceReachableSince: string | undefined,
  requiredLabels: string[],
): Pick<QueueState, 'waitingForRunner' | 'runnersSilent' | 'reason'> {
  const { online, busy } = runners;
  if (online === 0) {
    return {
      waitingForRunner: true,
      reason:
        requiredLabels.length > 0
          ? `${NO_RUNNER_REASON}; this stack's steps need one with the labels ${formatRunnerLabels(
              requiredLabels,
            )} (${runnerLabelsArgument(requiredLabels)})`
          : NO_RUNNER_REASON,
    };
  }
  if (busy >= online) {
    return {
      waitingForRunner: false,
      reason:
        online === 1
          ? 'Queued for a runner: the one connected runner is busy with another step'
          : `Queued for a runner: all ${online} connected runners are busy with other steps`,
    };
  }
  const silentMs = freeRunnersSilence(runners, now, serviceReachableSince);
  if (silentMs !== undefined) {
    return {
      waitingForRunner: false,
      runnersSilent: true,
      reason: silentRunnersReason(runners, silentMs),
    };
  }
  const free = online - busy;
  return {
    waitingForRunner: false,
    reason:
      online === 1
        ? 'Queued for a runner: the one connected runner is free and takes it next'
        : `Queued for a runner: ${free} of ${online} connected runners ${
            free === 1
              ? 'is free and takes it next'
              : 'are free; the first to ask takes it'
          }`,
  };
}
