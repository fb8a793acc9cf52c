import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { RunNames } from '../common/useRunNames';
import { Link } from '@backstage/core-components';
import { StackLink } from '../common/StackLink';

/**
 * Why a run waits, most specific first: for a runner, for the run that holds its stack, or
 * the service's plain queue reason. Text only: it takes the style of where it is shown.
 */
export const WhyItWaits = ({
  run,
  names,
  runPath,
}: {
  run: PipelineRun;
  names: Pick<RunNames, 'stackName'>;
  runPath: (runId: string) => string;
}) => {
  const queue = run.queueState;
  if (queue?.waitingForRunner) {
    return <>{queue.reason ?? 'Waiting for a runner'}</>;
  }
  if (queue?.preflightBlockedByAdmissionCondition && queue.blockingRunId) {
    const blockingRunId = queue.blockingRunId;
    const stackName = names.stackName(queue.blockingEntityId);
    return (
      <>
        Held:{' '}
        {stackName && queue.blockingEntityId ? (
          <StackLink stackId={queue.blockingEntityId} name={stackName} inText />
        ) : (
          'the stack'
        )}{' '}
        is busy with{' '}
        <Link to={runPath(blockingRunId)} underline="always">
          another run
        </Link>
      </>
    );
  }
  return <>{run.queueReason ?? ''}</>;
};
