import { useApi } from '@backstage/frontend-plugin-api';
import { infraDeliveryApiRef } from '../../api';
import { useLiveRuns } from './useLiveRuns';
import { useReloadableAsync } from './useReloadableAsync';
import { loadLatestRuns } from './stackBatches';

/**
 * The newest run of each of `stackIds`, by stack id (a stack never run has none), kept
 * current as the backend announces run changes.
 */
export function useLatestRunPerStack(stackIds: string[]) {
  const client = useApi(infraDeliveryApiRef);
  const key = stackIds.join(',');
  const state = useReloadableAsync(
    () => loadLatestRuns(client, stackIds),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client, key],
  );
  useLiveRuns(state.retry);
  return state;
}
