import {
  AuthService,
  BackstageCredentials,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import {
  ErrorBody,
  InfraDeliveryApiError,
  InfraDeliveryClient,
} from '@infra-delivery/plugin-infra-delivery-common';
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
    withReadableRefusals(
      createInfraDeliveryClient({ discovery, auth, onBehalfOf: credentials }),
    );
}

/** A refusal of the service as the task log shows it: what, why in detail, and the ids. */
function refusalText(body: ErrorBody): string {
  const details = (body.details ?? []).flatMap(section =>
    section.items?.length
      ? [`${section.title}:`, ...section.items.map(item => `  - ${item}`)]
      : [],
  );
  const ids = [
    body.code,
    ...(body.requestId ? [`request id ${body.requestId}`] : []),
  ].join(' · ');
  return [body.message, ...details, ids].join('\n');
}

/**
 * The client, its refusals (the service's ErrorBody) written to the task log as the service
 * said them. The scaffolder logs a failed step's `error.stack`, and a stack trace of the
 * client only hid why: "Stack cache exists already in the project" under a dozen frames.
 */
export function withReadableRefusals(
  client: Pick<InfraDeliveryClient, 'call'>,
): Pick<InfraDeliveryClient, 'call'> {
  const call: InfraDeliveryClient['call'] = (operationId, request) =>
    client.call(operationId, request).catch((error: unknown) => {
      if (error instanceof InfraDeliveryApiError) {
        error.stack = refusalText(error.body);
      }
      throw error;
    });
  return { call };
}
