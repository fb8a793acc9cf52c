import {
  PipelineRun,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import { MaybeLink } from '../common/MaybeLink';
import { isQueuedForRunner } from '../common/RunStatus';
import { WarningText } from '../common/WarningText';

/** The run that holds a queued run's stack, as the view read it. */
export interface BlockingRun {
  title: string;
  status: RunStatus;
}

/** What the holding run does, as it keeps the stack: "waits for approval". */
const HOLDING: Partial<Record<RunStatus, string>> = {
  WAITING_FOR_APPROVAL: 'waits for approval',
  RUNNING: 'is running',
  QUEUED: 'is queued ahead of it',
};

/**
 * Why a run waits, most specific first: for a runner (none connected, all busy, or free but
 * silent, with a warning icon), for the run that holds its stack, or the service's plain queue
 * reason; nothing for a run that does not wait. A run is only ever held by its own stack (admission holds a
 * stack for one run at a time), which is named beside it wherever it is shown: here it is "the
 * stack". Text only: it takes the style of where it is shown.
 */
export const WhyItWaits = ({
  run,
  runPath,
  blocker,
}: {
  run: PipelineRun;
  /** The page of a run, where the app has one. */
  runPath: (runId: string) => string | undefined;
  /**
   * The run that holds the stack, where the view has it: named with what it does ("Waits for
   * “Raise the alert thresholds”, which waits for approval"), where "busy with another run"
   * left a person to find out why nothing moves.
   */
  blocker?: BlockingRun;
}) => {
  const queue = run.queueState;
  if (isQueuedForRunner(run)) {
    const reason = queue?.reason ?? 'Waiting for a runner';
    // Free runners that stopped asking for work: someone should look.
    return queue?.runnersSilent ? (
      <WarningText>{reason}</WarningText>
    ) : (
      <>{reason}</>
    );
  }
  // A run that no longer waits (cancelled while held, say) keeps the queue state it had.
  if (run.status !== 'QUEUED') {
    return null;
  }
  if (queue?.preflightBlockedByAdmissionCondition && queue.blockingRunId) {
    const holding = blocker && HOLDING[blocker.status];
    if (blocker && holding) {
      return (
        <>
          Waits for{' '}
          <MaybeLink to={runPath(queue.blockingRunId)} inText>
            {blocker.title}
          </MaybeLink>
          , which {holding}
        </>
      );
    }
    return (
      <>
        Held: the stack is busy with{' '}
        <MaybeLink to={runPath(queue.blockingRunId)} inText>
          another run
        </MaybeLink>
      </>
    );
  }
  return <>{run.queueReason ?? ''}</>;
};
