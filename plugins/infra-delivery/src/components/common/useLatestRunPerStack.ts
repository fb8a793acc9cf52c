import { useApi } from '@backstage/frontend-plugin-api';
import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { useLiveRuns } from './useLiveRuns';
import { useReloadableAsync } from './useReloadableAsync';

/** The most stacks one request may name (`attachedEntityId` repeats at most 200 times). */
const STACKS_PER_REQUEST = 200;

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) {
    result.push(items.slice(i, i + size));
  }
  return result;
}

/**
 * The newest run of each of `stackIds`, by stack id (a stack never run has none), kept
 * current as the backend announces run changes.
 */
export function useLatestRunPerStack(stackIds: string[]) {
  const client = useApi(infraDeliveryApiRef);
  const key = stackIds.join(',');
  const state = useReloadableAsync(async () => {
    const pages = await Promise.all(
      chunks(stackIds, STACKS_PER_REQUEST).map(ids =>
        client.call('listPipelineRuns', {
          query: { attachedEntityId: ids, latestPerEntity: 1, limit: 500 },
        }),
      ),
    );
    const latest = new Map<string, PipelineRun>();
    for (const run of pages.flatMap(page => page.data)) {
      if (run.attachedEntityId && !latest.has(run.attachedEntityId)) {
        latest.set(run.attachedEntityId, run);
      }
    }
    return latest;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, key]);
  useLiveRuns(state.retry);
  return state;
}
