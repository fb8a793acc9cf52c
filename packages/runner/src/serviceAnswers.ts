import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';

/** The longest wait between tries while the service cannot be reached. */
const MAX_BACKOFF_MS = 30_000;

/**
 * Whether the service answered and refused (4xx): asking again gets the same answer. Anything
 * else (no answer, a server error) may pass when the service is back.
 */
export function isRefusal(error: unknown): error is InfraDeliveryApiError {
  return (
    error instanceof InfraDeliveryApiError &&
    error.status >= 400 &&
    error.status < 500
  );
}

/** The wait before the `failures`-th try again: doubling from the poll interval, at most 30 s. */
export function backoffMs(pollIntervalMs: number, failures: number): number {
  return Math.min(MAX_BACKOFF_MS, pollIntervalMs * 2 ** Math.min(failures, 10));
}
