import {
  InfraDeliveryClient,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { loadInBatches, STACKS_PER_REQUEST } from './stackBatches';

/**
 * The stacks of `stackIds`, in order, in one request per 200 ids; undefined for one that does
 * not exist (any more) or is not visible to the caller, so that one stale id in an annotation
 * does not hide the rest.
 */
export async function loadVisibleStacks(
  client: InfraDeliveryClient,
  stackIds: string[],
): Promise<(Stack | undefined)[]> {
  const found = await loadInBatches(stackIds, ids =>
    client
      .call('listStacks', { query: { id: ids, limit: STACKS_PER_REQUEST } })
      .then(page => page.data),
  );
  const byId = new Map(found.map(stack => [stack.id, stack]));
  return stackIds.map(id => byId.get(id));
}
