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
  stack: Stack;
  latestRun?: PipelineRun;
  resourceCount: number;
}

/** The entity's stacks as the service has them. */
export interface StacksOverview {
  /** Each stack the service has, in the annotation's order. */
  rows: StackOverview[];
  /**
   * The ids the annotation names that the service does not have (any more) or does not show
   * the caller: a stack deleted a moment ago stays in the catalog's copy of the annotation
   * until the catalog reads the service again.
   */
  unknownStackIds: string[];
}

/**
 * Each stack with its latest run (#13, newest per entity) and resource count (#24). The
 * service decides which stacks there are: the catalog's annotation only names the candidates.
 */
export function useStacksOverview(stackIds: string[]) {
  const client = useApi(infraDeliveryApiRef);
  const key = stackIds.join(',');
  return useReloadableAsync(async (): Promise<StacksOverview> => {
    const [stacks, runs, counts] = await Promise.all([
      loadVisibleStacks(client, stackIds),
      loadLatestRuns(client, stackIds),
      loadResourceCounts(client, stackIds),
    ]);
    const rows: StackOverview[] = [];
    const unknownStackIds: string[] = [];
    stackIds.forEach((stackId, i) => {
      const stack = stacks[i];
      if (!stack) {
        unknownStackIds.push(stackId);
        return;
      }
      rows.push({
        id: stackId,
        stackId,
        stack,
        latestRun: runs.get(stackId),
        resourceCount: counts.get(stackId) ?? 0,
      });
    });
    return { rows, unknownStackIds };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, key]);
}
