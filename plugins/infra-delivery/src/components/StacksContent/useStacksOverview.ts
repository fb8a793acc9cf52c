import { useApi } from '@backstage/frontend-plugin-api';
import {
  PipelineRun,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { loadVisibleStacks } from '../common/visibleStacks';
import { loadLatestRuns, loadResourceCounts } from '../common/stackBatches';
import { infraDeliveryApiRef } from '../../api';

export interface StackOverview {
  /**
   * The stack's id again, under the name material-table keys its rows by: with it a row, and
   * a dialog opened from it, outlives a reload of the table.
   */
  id: string;
  stackId: string;
  /** Undefined when the stack does not exist (any more) or is not visible. */
  stack?: Stack;
  latestRun?: PipelineRun;
  resourceCount: number;
}

/** Each stack with its latest run (#13, newest per entity) and resource count (#24). */
export function useStacksOverview(stackIds: string[]) {
  const client = useApi(infraDeliveryApiRef);
  const key = stackIds.join(',');
  return useReloadableAsync(async (): Promise<StackOverview[]> => {
    const [stacks, runs, counts] = await Promise.all([
      loadVisibleStacks(client, stackIds),
      loadLatestRuns(client, stackIds),
      loadResourceCounts(client, stackIds),
    ]);
    return stackIds.map((stackId, i) => ({
      id: stackId,
      stackId,
      stack: stacks[i],
      latestRun: runs.get(stackId),
      resourceCount: counts.get(stackId) ?? 0,
    }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, key]);
}
