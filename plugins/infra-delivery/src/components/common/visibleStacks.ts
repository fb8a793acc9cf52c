import {
  InfraDeliveryApiError,
  InfraDeliveryClient,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';

/**
 * The stacks of `stackIds`, in order; undefined for one that does not exist (any more) or is not
 * visible to the caller (404), so that one stale id in an annotation does not hide the rest.
 */
export function loadVisibleStacks(
  client: InfraDeliveryClient,
  stackIds: string[],
): Promise<(Stack | undefined)[]> {
  return Promise.all(
    stackIds.map(id =>
      client.call('getStack', { params: { id } }).then(
        response => response.data,
        (error: Error) => {
          if (error instanceof InfraDeliveryApiError && error.status === 404) {
            return undefined;
          }
          throw error;
        },
      ),
    ),
  );
}
