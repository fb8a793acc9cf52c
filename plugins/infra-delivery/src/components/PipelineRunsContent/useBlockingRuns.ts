import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { runTitle } from '../common/runTitle';
import { BlockingRun } from './WhyItWaits';

/**
 * The runs that hold the stacks of the queued ones among `runs`, read in one request each
 * time `runs` is a new list or map (pass one per load, as a loader's value is: the holder
 * moves on while the held run waits, approved, then applying), as `WhyItWaits` names them:
 * "Waits for Raise the alert thresholds, which waits for approval". `stacks` name a run
 * without a description.
 */
export function useBlockingRuns(
  runs:
    | readonly (PipelineRun | undefined)[]
    | ReadonlyMap<string, PipelineRun>
    | undefined,
  stacks: Stack[],
): (run?: PipelineRun) => BlockingRun | undefined {
  const client = useApi(infraDeliveryApiRef);
  const ids = [
    ...new Set(
      [...(runs?.values() ?? [])].flatMap(run =>
        run?.status === 'QUEUED' && run.queueState?.blockingRunId
          ? [run.queueState.blockingRunId]
          : [],
      ),
    ),
  ].sort();
  const { value: blockers } = useAsync(
    async () =>
      ids.length
        ? (
            await client.call('listPipelineRuns', {
              query: { id: ids, limit: 200 },
            })
          ).data
        : [],
    [client, ids.join(','), runs],
  );
  return run => {
    const blocker = blockers?.find(
      other => other.id === run?.queueState?.blockingRunId,
    );
    return (
      blocker && { title: runTitle(blocker, stacks), status: blocker.status }
    );
  };
}
