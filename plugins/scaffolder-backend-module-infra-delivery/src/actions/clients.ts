import {
  AuthService,
  BackstageCredentials,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';

/** The infra-delivery API client of one caller. */
export type InfraDeliveryClientFactory = (
  credentials: BackstageCredentials,
) => Pick<InfraDeliveryClient, 'call'>;

/**
 * Clients that call the infra-delivery API on behalf of the given credentials (the task's
 * initiator), so the API's own roles, organization scoping and permissions apply.
 */
export function userClientFactory(
  discovery: DiscoveryService,
  auth: AuthService,
): InfraDeliveryClientFactory {
  return credentials =>
    new InfraDeliveryClient({
      baseUrl: () => discovery.getBaseUrl('infra-delivery'),
      fetch: async (input, init) => {
        const { token } = await auth.getPluginRequestToken({
          onBehalfOf: credentials,
          targetPluginId: 'infra-delivery',
        });
        return fetch(input, {
          ...init,
          headers: { ...init?.headers, authorization: `Bearer ${token}` },
        });
      },
    });
}
