import {
  AuthService,
  BackstageCredentials,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * The infra-delivery API client for another backend plugin. Every request carries a plugin
 * request token for `infra-delivery`, issued on behalf of the given credentials (a task
 * initiator's, so the API's roles, organization scoping and permissions apply to that user)
 * or, without them, of the calling plugin itself.
 *
 * @public
 */
export function createInfraDeliveryClient(options: {
  discovery: DiscoveryService;
  auth: AuthService;
  onBehalfOf?: BackstageCredentials;
}): InfraDeliveryClient {
  const { discovery, auth, onBehalfOf } = options;
  return new InfraDeliveryClient({
    baseUrl: () => discovery.getBaseUrl('infra-delivery'),
    fetch: async (input, init) => {
      const { token } = await auth.getPluginRequestToken({
        onBehalfOf: onBehalfOf ?? (await auth.getOwnServiceCredentials()),
        targetPluginId: 'infra-delivery',
      });
      return fetch(input, {
        ...init,
        headers: { ...init?.headers, authorization: `Bearer ${token}` },
      });
    },
  });
}
