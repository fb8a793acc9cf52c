import {
  RUN_STATUSES,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';

const STATUS_PARAM = 'status';
const KIND_PARAM = 'kind';
const DRIFT_CHECK = 'DRIFT_CHECK';

const isRunStatus = (value: string): value is RunStatus =>
  (RUN_STATUSES as readonly string[]).includes(value);

/** A runs list (`runsPath`) showing only runs in `statuses`: `…/runs?status=QUEUED`. */
export function runsFilteredBy(runsPath: string, statuses: RunStatus[]) {
  const query = new URLSearchParams(statuses.map(s => [STATUS_PARAM, s]));
  return `${runsPath}?${query}`;
}

/**
 * A runs list's filters, kept in the page's query string (`?status=FAILED&kind=DRIFT_CHECK`) so
 * that a filtered list can be linked to, shared and reloaded. Changing one replaces the history
 * entry: Back leaves the list, not a filter.
 */
export function useRunFilters() {
  const [params, setParams] = useSearchParams();
  const statuses = params.getAll(STATUS_PARAM).filter(isRunStatus);
  const driftChecksOnly = params.get(KIND_PARAM) === DRIFT_CHECK;

  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        current => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const toggleStatus = useCallback(
    (status: RunStatus) =>
      update(next => {
        const current = next.getAll(STATUS_PARAM).filter(isRunStatus);
        next.delete(STATUS_PARAM);
        const chosen = current.includes(status)
          ? current.filter(s => s !== status)
          : [...current, status];
        RUN_STATUSES.filter(s => chosen.includes(s)).forEach(s =>
          next.append(STATUS_PARAM, s),
        );
      }),
    [update],
  );
  const toggleDriftChecks = useCallback(
    () =>
      update(next => {
        if (next.get(KIND_PARAM) === DRIFT_CHECK) next.delete(KIND_PARAM);
        else next.set(KIND_PARAM, DRIFT_CHECK);
      }),
    [update],
  );
  const clearFilters = useCallback(
    () =>
      update(next => {
        next.delete(STATUS_PARAM);
        next.delete(KIND_PARAM);
      }),
    [update],
  );
  return {
    statuses,
    driftChecksOnly,
    toggleStatus,
    toggleDriftChecks,
    clearFilters,
  };
}

/** The history state of a runs list on a page other than the newest. */
type RunsPagesState = { pages?: string[] };

const runsPagesState = (pages: string[]): RunsPagesState => ({ pages });

const pagesIn = (value: unknown): string[] =>
  Array.isArray(value) && value.every(cursor => typeof cursor === 'string')
    ? value
    : [];

/**
 * The page a runs list shows: the cursors of the pages walked to from the newest (none on the
 * newest page). Kept in the list's history entry, not its address (cursors are long and only
 * make sense to the list that made them): Back from a run's page, or its "All runs", returns
 * to the page the run was opened from. A filter's change drops it, with the entry's state: a
 * filtered list starts at its newest runs.
 */
export function useRunsPages(): [string[], (pages: string[]) => void] {
  const { pathname, search, state } = useLocation();
  const navigate = useNavigate();
  const pages = pagesIn((state as RunsPagesState | null)?.pages);
  const setPages = useCallback(
    (next: string[]) =>
      navigate(
        { pathname, search },
        { replace: true, state: runsPagesState(next) },
      ),
    [navigate, pathname, search],
  );
  return [pages, setPages];
}

/** What a run's link carries from its list, for the way back: its filters and page. */
type RunsListState = { listSearch?: string; listPages?: string[] };

/** The state a run's link carries: its list's query string (`?status=FAILED`) and page. */
export const runsListState = (
  listSearch: string,
  listPages: string[] = [],
): RunsListState => ({ listSearch, listPages });

/**
 * The way back to the list a run was opened from: its query string, for a failed run opened
 * from the Failed runs leads back to the Failed runs, not to every run, and the state that
 * opens it on the same page. Empty when the run was opened from elsewhere (a link, a stack's
 * history).
 */
export function useRunsListWayBack(): {
  search: string;
  state: RunsPagesState | undefined;
} {
  const state = useLocation().state as RunsListState | null;
  const pages = pagesIn(state?.listPages);
  return {
    search: typeof state?.listSearch === 'string' ? state.listSearch : '',
    state: pages.length ? runsPagesState(pages) : undefined,
  };
}
