import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { DependencyList, useRef } from 'react';
import useInterval from 'react-use/esm/useInterval';
import { LIVE_POLL_MS } from './livePolling';
import { LoadState } from './loadState';
import { isNoAnswer } from './silence';
import { IDLE_POLL_MS } from './useLivePolling';

/**
 * True for the service's own 404: what is read no longer exists (a run or stack deleted since
 * the view read it), and what the view kept of it must not stand as if it did. A 404 that is not
 * the service's body (a proxy's) says nothing of what is read.
 */
function isGone(error: Error | undefined): boolean {
  return (
    error instanceof InfraDeliveryApiError &&
    error.status === 404 &&
    error.body.code !== 'InfraDelivery:Request:UNEXPECTED_RESPONSE'
  );
}

/** Whether two lists of dependencies name the same thing (as React compares them). */
const sameDeps = (a: DependencyList, b: DependencyList) =>
  a.length === b.length && a.every((dep, i) => Object.is(dep, b[i]));

/**
 * A load of a view that reads again (a run, the runs, the stacks, the runners, a settings
 * card after a change), through a service that stops answering: the data shown stays (a
 * refresh without an answer blanked the page for "Could not reach the service"), the view
 * reads again every `LIVE_POLL_MS` until the service answers, and `silentSince` says since
 * when it waits. An answer, an error the service gave included, ends the wait; so does a first
 * load that fails, which has nothing to keep and shows its error.
 *
 * A reload the service answers with an error (a 403 after a role change, a 500, a 503 with its
 * own body) keeps the data too, and `reloadFailed` says what went wrong and when the data shown
 * was read: a 500 on one reload of the run page replaced the run, its steps and logs with an
 * error panel. The view reads again every `IDLE_POLL_MS`; the next answer ends it. A 404 is not
 * kept through: what is read is gone, and the view shows that instead of it.
 *
 * `of`, when given, names what is read (a module's id, a run's): what was read of something
 * else is not kept for it, so that one module's details never stand for another's.
 */
export function useLiveLoad<T>(
  state: LoadState<T>,
  retry: () => void,
  of?: DependencyList,
): LoadState<T> {
  const kept = useRef<{ value: T; of?: DependencyList; readAt: number }>();
  // An answer is kept as what it was read for, and when. Only a new answer counts: react-use
  // keeps the last one while the next load (maybe of something else) is under way.
  if (state.value !== undefined && state.value !== kept.current?.value) {
    kept.current = { value: state.value, of, readAt: Date.now() };
  }
  const keeps =
    kept.current !== undefined &&
    (of === undefined ||
      kept.current.of === undefined ||
      sameDeps(kept.current.of, of));
  const since = useRef<number>();
  const noAnswer = isNoAnswer(state.error) && keeps;
  if (state.loading || noAnswer) {
    since.current ??= Date.now();
  } else {
    since.current = undefined;
  }
  const failed =
    state.error !== undefined && keeps && !noAnswer && !isGone(state.error);
  const latestRetry = useRef(retry);
  latestRetry.current = retry;
  let retryMs: number | null = null;
  if (noAnswer) retryMs = LIVE_POLL_MS;
  else if (failed) retryMs = IDLE_POLL_MS;
  useInterval(() => latestRetry.current(), state.loading ? null : retryMs);
  if (!noAnswer && !failed) return { ...state, silentSince: since.current };
  return {
    value: kept.current!.value,
    loading: state.loading,
    error: undefined,
    silentSince: since.current,
    reloadFailed: failed
      ? { error: state.error!, readAt: kept.current!.readAt }
      : undefined,
  };
}
