import { useRef } from 'react';
import useInterval from 'react-use/esm/useInterval';
import { LIVE_POLL_MS } from './livePolling';
import { LoadState } from './loadState';
import { isNoAnswer } from './silence';

/** A live view's load as it shows it, and since when the service has not answered it. */
export interface LiveLoadState<T> extends LoadState<T> {
  /**
   * When the load under way was sent, or the one the service did not answer (none while the
   * last one was answered): `NoAnswerNotice` says so once it has waited long.
   */
  silentSince?: number;
}

/**
 * A load of a view that reads again on its own (a run, the runs, the stacks, the runners),
 * through a service that stops answering: the data shown stays (a refresh without an answer
 * blanked the page for "Could not reach the service"), the view reads again every
 * `LIVE_POLL_MS` until the service answers, and `silentSince` says since when it waits.
 * An answer, an error the service gave included, ends the wait.
 */
export function useLiveLoad<T>(
  state: LoadState<T>,
  retry: () => void,
): LiveLoadState<T> {
  const kept = useRef<T>();
  const since = useRef<number>();
  if (state.value !== undefined) kept.current = state.value;
  const noAnswer = isNoAnswer(state.error) && kept.current !== undefined;
  if (state.loading || noAnswer) {
    since.current ??= Date.now();
  } else {
    since.current = undefined;
  }
  const latestRetry = useRef(retry);
  latestRetry.current = retry;
  useInterval(
    () => latestRetry.current(),
    noAnswer && !state.loading ? LIVE_POLL_MS : null,
  );
  return noAnswer
    ? {
        value: kept.current,
        loading: state.loading,
        error: undefined,
        silentSince: since.current,
      }
    : { ...state, silentSince: since.current };
}
