import { useApi } from '@backstage/frontend-plugin-api';
import { infraDeliveryApiRef } from '../../api';
import { useLiveRuns } from '../common/useLiveRuns';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { LoadState } from '../common/loadState';
import { RunListCard } from './RunListCard';
import { StackDirectory } from './useStackDirectory';

/**
 * The runs that wait for someone to approve their plan: nothing changes in the cloud until a
 * person decides, so they come first on the Infrastructure page.
 */
export const WaitingForApprovalCard = ({
  directory,
}: {
  directory: LoadState<StackDirectory>;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const runs = useReloadableAsync(
    async () =>
      (
        await client.call('listPipelineRuns', {
          query: { status: ['WAITING_FOR_APPROVAL'], limit: 50 },
        })
      ).data,
    [client],
  );
  useLiveRuns(runs.retry);
  return (
    <RunListCard
      title="Waiting for approval"
      subheader="Plans that apply once someone approves them"
      runs={runs}
      directory={directory}
      emptyText="No run waits for approval."
      allRuns={{
        status: 'WAITING_FOR_APPROVAL',
        title: 'All runs waiting for approval',
      }}
      timeTitle="Waiting since"
      timeOf={run => run.updatedAt}
    />
  );
};
