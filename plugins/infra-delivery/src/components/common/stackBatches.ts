import {
  InfraDeliveryClient,
  PipelineRun,
} from '@infra-delivery/plugin-infra-delivery-common';

/** The most stacks one request may name (`id`, `stackId` and `attachedEntityId` repeat at most 200 times). */
export const STACKS_PER_REQUEST = 200;

/**
 * What `load` gives for each batch of at most {@link STACKS_PER_REQUEST} of `stackIds`, the
 * batches loaded side by side and their items in the batches' order. No ids, no request.
 */
export async function loadInBatches<T>(
  stackIds: string[],
  load: (batch: string[]) => Promise<T[]>,
): Promise<T[]> {
  const batches: string[][] = [];
  for (let i = 0; i < stackIds.length; i += STACKS_PER_REQUEST) {
    batches.push(stackIds.slice(i, i + STACKS_PER_REQUEST));
  }
  return (await Promise.all(batches.map(load))).flat();
}

/** The newest run of each of `stackIds`, by stack id (a stack never run has none). */
export async function loadLatestRuns(
  client: InfraDeliveryClient,
  stackIds: string[],
): Promise<Map<string, PipelineRun>> {
  const runs = await loadInBatches(stackIds, ids =>
    client
      .call('listPipelineRuns', {
        query: { attachedEntityId: ids, latestPerEntity: 1, limit: 500 },
      })
      .then(page => page.data),
  );
  const latest = new Map<string, PipelineRun>();
  for (const run of runs) {
    if (run.attachedEntityId && !latest.has(run.attachedEntityId)) {
      latest.set(run.attachedEntityId, run);
    }
  }
  return latest;
}

/** How many resources each of `stackIds` holds, by stack id (a stack without any is left out). */
export async function loadResourceCounts(
  client: InfraDeliveryClient,
  stackIds: string[],
): Promise<Map<string, number>> {
  const counts = await loadInBatches(stackIds, ids =>
    client
      .call('countStackResources', { query: { stackId: ids } })
      .then(response => response.data.counts),
  );
  return new Map(counts.map(({ stackId, count }) => [stackId, count]));
}
