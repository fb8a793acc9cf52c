import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * How long a request may go unanswered before the portal says so: a frozen backend (78 s
 * stopped) left the run page saying "Waiting for approval" and the Approve dialog greyed,
 * without a word. A slow answer takes a second or two; ten is past any of them.
 */
export const NO_ANSWER_NOTICE_MS = 10_000;

/**
 * True for a request that got no answer at all (the backend down or restarting, the network
 * gone): browsers reject fetch with a TypeError, worded by each ("Failed to fetch",
 * "NetworkError when attempting to fetch resource.", "Load failed").
 */
export function isUnanswered(error: Error | undefined): boolean {
  return (
    error !== undefined &&
    !(error instanceof InfraDeliveryApiError) &&
    error.name === 'TypeError' &&
    /fetch|network|load failed/i.test(error.message)
  );
}

/** The statuses a gateway answers with when the service behind it does not (502, 503, 504). */
const GATEWAY_STATUSES = [502, 503, 504];

/**
 * True for an error that is no answer from the service: none at all, or a proxy's 502, 503 or
 * 504 in its stead (a body that is not the service's own).
 */
export function isNoAnswer(error: Error | undefined): boolean {
  return (
    isUnanswered(error) ||
    (error instanceof InfraDeliveryApiError &&
      GATEWAY_STATUSES.includes(error.status) &&
      error.body.code === 'InfraDelivery:Request:UNEXPECTED_RESPONSE')
  );
}
