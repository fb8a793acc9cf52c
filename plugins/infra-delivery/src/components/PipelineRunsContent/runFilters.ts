import {
  RUN_STATUSES,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useCallback } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';

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

/** What a run's link carries from its list: the list's filters, for the way back. */
type RunsListState = { listSearch?: string };

/** The state a run's link carries: its list's query string (`?status=FAILED`). */
export const runsListState = (listSearch: string): RunsListState => ({
  listSearch,
});

/**
 * The query string of the list a run was opened from, for its page's way back: a failed run
 * opened from the Failed runs leads back to the Failed runs, not to every run. Empty when the
 * run was opened from elsewhere (a link, a stack's history).
 */
export function useRunsListSearch(): string {
  const state = useLocation().state as RunsListState | null;
  return typeof state?.listSearch === 'string' ? state.listSearch : '';
}
