import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { MaybeLink } from '../common/MaybeLink';
import { isQueuedForRunner } from '../common/RunStatus';
import { WarningText } from '../common/WarningText';

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
}: {
  run: PipelineRun;
  /** The page of a run, where the app has one. */
  runPath: (runId: string) => string | undefined;
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
