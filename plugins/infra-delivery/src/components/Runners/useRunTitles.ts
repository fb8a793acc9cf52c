import { useApi } from '@backstage/frontend-plugin-api';
import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { runTitle } from '../common/runTitle';
import { loadVisibleStacks } from '../common/visibleStacks';

/**
 * What the runs of `runIds` are called ("Plan & apply · Network", or the run's description):
 * the runs and their stacks read once per set of ids, nothing read without ids. The same map
 * until the ids change; a run not read yet or not visible has no title.
 */
export function useRunTitles(
  runIds: string[],
): ReadonlyMap<string, string> | undefined {
  const client = useApi(infraDeliveryApiRef);
  const key = [...new Set(runIds)].sort().join(',');
  const { value: titles } = useAsync(async () => {
    if (!key) return new Map<string, string>();
    const runs = (
      await client.call('listPipelineRuns', {
        query: { id: key.split(','), limit: 200 },
      })
    ).data;
    const stackIds = [
      ...new Set(runs.flatMap(run => run.attachedEntityId ?? [])),
    ];
    const stacks = (await loadVisibleStacks(client, stackIds)).filter(
      (stack): stack is Stack => !!stack,
    );
    return new Map(runs.map(run => [run.id, runTitle(run, stacks)]));
  }, [client, key]);
  return titles;
}
