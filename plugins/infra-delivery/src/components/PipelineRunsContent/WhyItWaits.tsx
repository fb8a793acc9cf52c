import { PipelineRun } from '@internal/plugin-infra-delivery-common';
import Link from '@material-ui/core/Link';
import Typography from '@material-ui/core/Typography';

/**
 * Why a run waits, most specific first: for a runner, for the run that holds its stack, or
 * the service's plain queue reason.
 */
export const WhyItWaits = ({
  run,
  onOpenRun,
}: {
  run: PipelineRun;
  onOpenRun: (runId: string) => void;
}) => {
  const queue = run.queueState;
  if (queue?.waitingForRunner) {
    return <>{queue.reason ?? 'Waiting for a runner'}</>;
  }
  if (queue?.preflightBlockedByAdmissionCondition && queue.blockingRunId) {
    const blockingRunId = queue.blockingRunId;
    return (
      <Typography variant="body2">
        Held: stack {queue.blockingEntityId} is busy with run{' '}
        <Link component="button" onClick={() => onOpenRun(blockingRunId)}>
          {blockingRunId}
        </Link>
      </Typography>
    );
  }
  return <>{run.queueReason ?? ''}</>;
};
