import {
  NOTHING_TO_APPLY,
  PipelineRun,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Outcome } from '../common/ActionMessage';
import { isActiveRun } from '../common/livePolling';
import { isQueuedForRunner } from '../common/RunStatus';

/** How a started run that has already ended is said to have ended. */
const ENDED_STATES: Partial<Record<PipelineRun['status'], string>> = {
  SUCCEEDED: 'has finished',
  FAILED: 'failed',
  CANCELLED: 'was cancelled',
};

/**
 * What the stacks' message says of a run started there (`what`: "A plan of Network"), as the
 * run stands: queued behind the stack's current run, waiting for a runner, started, or waiting
 * for the approval of its plan, with a link to the run's page, where the plan and Approve are.
 * A run of a free stack starts at once (its first step goes to a runner, where one is
 * connected); one of a busy stack waits for the run that holds it. Its step unclaimed, it waits
 * for a runner, as its row says, even with one connected: a runner killed without signing off
 * counts as connected for 20 s, and "has started" stood above "Waiting for a runner". A run
 * that ended before the message's minimum time is said to have ended: a plan that changes
 * nothing ends the run within a second, and "has started" stood above "Succeeded"; such a run
 * (`nothingToApply`, as its plan summary says) says so: "has finished" left the person to
 * open the run to learn that nothing had been applied.
 */
export function startedRunOutcome(
  what: string,
  run: PipelineRun,
  runPage: string | undefined,
  nothingToApply?: boolean,
): Outcome {
  if (run.status === 'WAITING_FOR_APPROVAL') {
    return {
      text: `${what} waits for your approval.`,
      link: runPage
        ? { to: runPage, label: 'Review the plan and approve' }
        : undefined,
      whileUnderWay: run.id,
    };
  }
  const ended = ENDED_STATES[run.status];
  if (ended) {
    return {
      text:
        run.status === 'SUCCEEDED' && nothingToApply
          ? `${what} ${ended}. ${NOTHING_TO_APPLY}.`
          : `${what} ${ended}.`,
      link: runPage ? { to: runPage, label: 'Open the run' } : undefined,
      whileUnderWay: run.id,
    };
  }
  let state = 'has started';
  if (run.status === 'QUEUED') {
    state = 'is queued behind the stack’s current run';
  } else if (isQueuedForRunner(run)) {
    state = 'is waiting for a runner';
  }
  return {
    text: `${what} ${state}.`,
    link: runPage ? { to: runPage, label: 'Follow the run' } : undefined,
    whileUnderWay: run.id,
  };
}

/** Whether the message of a run started on the stacks can go: nobody needs to act on it any more. */
export function hasSettled(run: PipelineRun): boolean {
  return !isActiveRun(run.status) && run.status !== 'WAITING_FOR_APPROVAL';
}
