import { NO_ANSWER_NOTICE_MS } from './silence';
import { useNow } from './useNow';

/**
 * The whole seconds the service has not answered since `since` (the time a request was sent),
 * once that is `NO_ANSWER_NOTICE_MS` or more: undefined before, and while nothing is awaited.
 * Renews every second while a request is awaited, so that what is said counts.
 */
export function useSilentFor(since: number | undefined): number | undefined {
  const now = useNow(1_000, since !== undefined);
  if (since === undefined) return undefined;
  const silent = now - since;
  return silent >= NO_ANSWER_NOTICE_MS ? Math.floor(silent / 1_000) : undefined;
}
