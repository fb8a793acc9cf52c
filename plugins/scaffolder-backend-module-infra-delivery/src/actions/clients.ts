import {
  AuthService,
  BackstageCredentials,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { createInfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-node';

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
    createInfraDeliveryClient({ discovery, auth, onBehalfOf: credentials });
}
