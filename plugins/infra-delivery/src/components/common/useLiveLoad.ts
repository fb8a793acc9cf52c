import { DependencyList, useRef } from 'react';
import useInterval from 'react-use/esm/useInterval';
import { LIVE_POLL_MS } from './livePolling';
import { LoadState } from './loadState';
import { isNoAnswer } from './silence';

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
 * `of`, when given, names what is read (a module's id, a run's): what was read of something
 * else is not kept for it, so that one module's details never stand for another's.
 */
export function useLiveLoad<T>(
  state: LoadState<T>,
  retry: () => void,
  of?: DependencyList,
): LoadState<T> {
  const kept = useRef<{ value: T; of?: DependencyList }>();
  // An answer is kept as what it was read for. Only a new answer counts: react-use keeps the
  // last one while the next load (maybe of something else) is under way.
  if (state.value !== undefined && state.value !== kept.current?.value) {
    kept.current = { value: state.value, of };
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
  const latestRetry = useRef(retry);
  latestRetry.current = retry;
  useInterval(
    () => latestRetry.current(),
    noAnswer && !state.loading ? LIVE_POLL_MS : null,
  );
  return noAnswer
    ? {
        value: kept.current!.value,
        loading: state.loading,
        error: undefined,
        silentSince: since.current,
      }
    : { ...state, silentSince: since.current };
}
