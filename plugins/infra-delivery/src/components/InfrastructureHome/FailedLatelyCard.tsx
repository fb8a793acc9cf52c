import { useApi } from '@backstage/frontend-plugin-api';
import {
  APPROVAL_REJECTED_ERROR_CODE,
  PipelineRun,
} from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { useLiveRuns } from '../common/useLiveRuns';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { LoadState } from '../common/loadState';
import { RunListCard } from './RunListCard';
import { StackDirectory } from './useStackDirectory';

/** How far back "lately" reaches. */
export const FAILED_LATELY_DAYS = 7;
/** The most failed runs listed. */
const MAX_FAILED_RUNS = 10;

const failedAt = (run: PipelineRun) => run.completedAt ?? run.updatedAt;

/**
 * The runs that failed in the last week, newest first, with why: what someone should look at
 * before the next change lands on the same stack.
 */
export const FailedLatelyCard = ({
  directory,
}: {
  directory: LoadState<StackDirectory>;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const runs = useReloadableAsync(async () => {
    const page = await client.call('listPipelineRuns', {
      query: { status: ['FAILED'], limit: MAX_FAILED_RUNS },
    });
    const since = Date.now() - FAILED_LATELY_DAYS * 86_400_000;
    // A rejected plan is a person's decision, not a failure to look into.
    return page.data.filter(
      run =>
        Date.parse(failedAt(run)) >= since &&
        run.error?.code !== APPROVAL_REJECTED_ERROR_CODE,
    );
  }, [client]);
  useLiveRuns(runs.retry);
  return (
    <RunListCard
      title="Failed lately"
      subheader={`Runs that failed in the last ${FAILED_LATELY_DAYS} days`}
      runs={runs}
      directory={directory}
      emptyText={`No run failed in the last ${FAILED_LATELY_DAYS} days.`}
      allRuns={{ status: 'FAILED', title: 'All failed runs' }}
      timeTitle="Failed"
      timeOf={failedAt}
      detailOf={run => run.error?.message}
    />
  );
};
