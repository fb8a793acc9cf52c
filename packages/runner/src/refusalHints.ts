import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * Why the runner stopped, as its operator can act on it: the service's own message, and for the
 * refusals a start-up meets (a wrong key, a wrong `--url`) what to pass instead.
 */
export function explainFailure(error: unknown, url: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof InfraDeliveryApiError)) {
    return message;
  }
  switch (error.status) {
    case 401:
      return `${message}. Pass a service account's API key with --token (or INFRA_DELIVERY_RUNNER_TOKEN); the portal's Connect a runner (Infrastructure → Organization → Runners) creates one.`;
    case 404:
      return `${message} at ${url}/runner/claims. --url must be the plugin's base URL, e.g. http://localhost:7007/api/infra-delivery.`;
    default:
      return message;
  }
}
