import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { RunNames } from '../common/useRunNames';
import { MaybeLink } from '../common/MaybeLink';
import { StackLink } from '../common/StackLink';

/**
 * Why a run waits, most specific first: for a runner, for the run that holds its stack (named
 * when it is another stack than the run's), or the service's plain queue reason. Text only:
 * it takes the style of where it is shown.
 */
export const WhyItWaits = ({
  run,
  names,
  runPath,
}: {
  run: PipelineRun;
  names: Pick<RunNames, 'stackName'>;
  /** The page of a run, where the app has one. */
  runPath: (runId: string) => string | undefined;
}) => {
  const queue = run.queueState;
  if (queue?.waitingForRunner) {
    return <>{queue.reason ?? 'Waiting for a runner'}</>;
  }
  if (queue?.preflightBlockedByAdmissionCondition && queue.blockingRunId) {
    const blockingRunId = queue.blockingRunId;
    // The run's own stack is named beside it already: "the stack" then reads better.
    const otherStack =
      queue.blockingEntityId !== run.attachedEntityId
        ? names.stackName(queue.blockingEntityId)
        : undefined;
    return (
      <>
        Held:{' '}
        {otherStack && queue.blockingEntityId ? (
          <StackLink
            stackId={queue.blockingEntityId}
            name={otherStack}
            inText
          />
        ) : (
          'the stack'
        )}{' '}
        is busy with{' '}
        <MaybeLink to={runPath(blockingRunId)} inText>
          another run
        </MaybeLink>
      </>
    );
  }
  return <>{run.queueReason ?? ''}</>;
};
