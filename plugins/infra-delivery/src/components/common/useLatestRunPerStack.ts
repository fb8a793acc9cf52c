import { useApi } from '@backstage/frontend-plugin-api';
import { infraDeliveryApiRef } from '../../api';
import { isActiveRun, LIVE_POLL_MS } from './livePolling';
import { useLiveRuns } from './useLiveRuns';
import { useLivePolling } from './useLivePolling';
import { useReloadableAsync } from './useReloadableAsync';
import { loadLatestRuns } from './stackBatches';

/**
 * The newest run of each of `stackIds`, by stack id (a stack never run has none), kept
 * current as the backend announces run changes, and read again while the page is in sight:
 * every few seconds while one of them is queued or running (a missed announcement, or a runner
 * that stopped answering, which nothing announces, must not leave it stale), else every
 * `IDLE_POLL_MS` (a run started elsewhere, a service gone quiet).
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
  const active = [...(state.value?.values() ?? [])].some(run =>
    isActiveRun(run.status),
  );
  useLivePolling(state.retry, active ? LIVE_POLL_MS : undefined);
  return state;
}
