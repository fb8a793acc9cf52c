import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';

/** The longest wait between tries while the service cannot be reached. */
const MAX_BACKOFF_MS = 30_000;

/**
 * Statuses of the 4xx range that say "not now" rather than "no": a proxy's or the service's
 * request timeout, too many requests (a rate limit, a proxy's surge protection).
 */
const TRY_LATER = new Set([408, 429]);

/**
 * Whether the service answered and refused (4xx): asking again gets the same answer. Anything
 * else (no answer, a server error, 408 and 429) may pass when asked again later.
 */
export function isRefusal(error: unknown): error is InfraDeliveryApiError {
  return (
    error instanceof InfraDeliveryApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    !TRY_LATER.has(error.status)
  );
}

/** The wait before the `failures`-th try again: doubling from the poll interval, at most 30 s. */
export function backoffMs(pollIntervalMs: number, failures: number): number {
  return Math.min(MAX_BACKOFF_MS, pollIntervalMs * 2 ** Math.min(failures, 10));
}

/**
 * An error's message with its cause, where the message alone says little: fetch's "fetch
 * failed" hides whether nothing listens (ECONNREFUSED), the name is unknown (ENOTFOUND) or the
 * connection was reset.
 */
export function withCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })
    ?.cause;
  let detail: string | undefined;
  if (typeof cause?.code === 'string') detail = cause.code;
  else if (typeof cause?.message === 'string') detail = cause.message;
  return detail && !message.includes(detail)
    ? `${message}: ${detail}`
    : message;
}
