import {
  createApiFactory,
  createApiRef,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';

/** The typed client of the infra-delivery backend, with the signed-in user's credentials. */
export const infraDeliveryApiRef = createApiRef<InfraDeliveryClient>({
  id: 'plugin.infra-delivery.client',
});

export const infraDeliveryApiFactory = createApiFactory({
  api: infraDeliveryApiRef,
  deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
  factory: ({ discoveryApi, fetchApi }) =>
    new InfraDeliveryClient({
      baseUrl: () => discoveryApi.getBaseUrl('infra-delivery'),
      fetch: fetchApi.fetch,
    }),
});
