import {
  PipelineRun,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import { BlockingRun } from '../PipelineRunsContent/WhyItWaits';
import { DialogText } from '../common/DialogText';

/** What the stack's open run does, and when a run queued behind it starts. */
const BUSY: Partial<Record<RunStatus, [doing: string, startsWhen: string]>> = {
  RUNNING: ['is running', 'starts when it is done'],
  WAITING_FOR_APPROVAL: [
    'waits for approval',
    'starts once someone approves, rejects or cancels it',
  ],
  QUEUED: ['is queued already', 'starts when the runs before it are done'],
};

/**
 * In a dialog that queues a run of a stack: that the stack is busy with an open run, so that
 * the new run waits behind it, and until when. A run queued behind one that waits for an
 * approval would otherwise read as stuck once pressed.
 */
export const StackBusyNote = ({
  run,
  title,
  blocker,
}: {
  /** The stack's latest run. */
  run?: PipelineRun;
  /** That run's title, as the table shows it. */
  title: string;
  /** When that run is held: the run holding the stack, once read. */
  blocker?: BlockingRun;
}) => {
  const busy = run && BUSY[run.status];
  if (!busy) {
    return null;
  }
  if (run.queueState?.blockingRunId) {
    // The latest run is itself held: the stack's holder is another, earlier run.
    return (
      <DialogText color="textSecondary" style={{ marginTop: 8 }}>
        {blocker && BUSY[blocker.status]
          ? `The stack is busy: “${blocker.title}” ${
              BUSY[blocker.status]![0]
            }, and “${title}” is queued behind it.`
          : `The stack is busy with another run, and “${title}” is queued behind it.`}{' '}
        This run is queued after them and starts when they are done.
      </DialogText>
    );
  }
  const [doing, startsWhen] = busy;
  return (
    <DialogText color="textSecondary" style={{ marginTop: 8 }}>
      The stack is busy: “{title}” {doing}. This run is queued behind it and{' '}
      {startsWhen}.
    </DialogText>
  );
};

/**
 * Why a drift check of a stack with an open run cannot start, or undefined when it can: the
 * service refuses it (STACK_BUSY), since that run's plan shows the drift. Offered anyway, it
 * failed only once confirmed.
 */
export function driftCheckBusyReason(
  /** The stack's latest run. */
  run: PipelineRun | undefined,
  /** That run's title, as the table shows it. */
  title: string,
  /** When that run is held: the run holding the stack, once read. */
  blocker?: BlockingRun,
): string | undefined {
  const busy = run && BUSY[run.status];
  if (!busy) {
    return undefined;
  }
  if (run.queueState?.blockingRunId) {
    const holder =
      blocker && BUSY[blocker.status]
        ? `“${blocker.title}” ${BUSY[blocker.status]![0]}`
        : 'another run holds it';
    return `The stack is busy: ${holder}, and “${title}” is queued behind it. A drift check cannot start until they end.`;
  }
  return `The stack is busy: “${title}” ${busy[0]}. A drift check cannot start until that run ends.`;
}
