import { DependencyList, useCallback, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { useLiveLoad } from './useLiveLoad';

/**
 * Loads with react-use's useAsync and gives a `retry` that always loads again.
 *
 * react-use's useAsyncRetry ignores a retry while a load is in flight, so a change made
 * meanwhile never showed: an API key created while the keys were still loading stayed out of
 * the list, and a run's status announced while its details loaded stayed stale. Of two loads
 * in flight, the answer of the later one is kept; the value stays while a reload runs.
 *
 * A reload the service does not answer keeps the value too, and says since when it waits
 * (`useLiveLoad`, shown by `Loaded` or a `NoAnswerNotice`): a settings card whose reload after
 * a change got no answer was blanked for an error panel, the list it showed gone.
 */
export function useReloadableAsync<T>(
  load: () => Promise<T>,
  deps: DependencyList = [],
  /**
   * What is read, when `deps` also name its version (a stack's `updatedAt`): a new version's
   * reading that goes unanswered keeps the last one's. Defaults to `deps`.
   */
  of: DependencyList = deps,
) {
  const [attempt, setAttempt] = useState(0);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const state = useAsync(load, [...deps, attempt]);
  const retry = useCallback(() => setAttempt(a => a + 1), []);
  return { ...useLiveLoad(state, retry, of), retry };
}
