import {
  createApiFactory,
  createApiRef,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import type { InfraDeliveryClient } from '@internal/plugin-infra-delivery-common';

/** What the views use of the typed client of the infra-delivery backend. */
export type InfraDeliveryApi = Pick<InfraDeliveryClient, 'call'>;

/** The typed client of the infra-delivery backend, with the signed-in user's credentials. */
export const infraDeliveryApiRef = createApiRef<InfraDeliveryApi>({
  id: 'plugin.infra-delivery.client',
});

export const infraDeliveryApiFactory = createApiFactory({
  api: infraDeliveryApiRef,
  deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
  factory: ({ discoveryApi, fetchApi }): InfraDeliveryApi => {
    // The client carries the schemas of every operation: it is loaded with the first call
    // (from a tab or page of the plugin), not with every page of the portal.
    let client: Promise<InfraDeliveryClient> | undefined;
    const loadClient = () => {
      client ??= import('./lazyClient').then(
        ({ InfraDeliveryClient: Client }) =>
          new Client({
            baseUrl: () => discoveryApi.getBaseUrl('infra-delivery'),
            fetch: fetchApi.fetch,
          }),
      );
      return client;
    };
    const call: InfraDeliveryClient['call'] = async (operationId, request) =>
      (await loadClient()).call(operationId, request);
    return { call };
  },
});
