import { createContext, ReactNode, useContext } from 'react';
import { LoadState } from './loadState';
import { useNow } from './useNow';

/**
 * When the data of the view around was read, while a reload of it goes unanswered or failed;
 * undefined while the last reload was answered.
 */
const DataAsOfContext = createContext<number | undefined>(undefined);

/**
 * Since when a view shows data not known to be current: the unanswered reload was sent then
 * (what is shown was read before), or the failed reload's data was read then.
 */
export function dataAsOf(state: LoadState<unknown>): number | undefined {
  return state.silentSince ?? state.reloadFailed?.readAt;
}

/** Tells what is inside when its data was read (`dataAsOf`), while that is not now. */
export const DataAsOf = ({
  state,
  children,
}: {
  state: LoadState<unknown>;
  children: ReactNode;
}) => (
  <DataAsOfContext.Provider value={dataAsOf(state)}>
    {children}
  </DataAsOfContext.Provider>
);

/**
 * `useNow`, but no later than when the view's data was read while its reload goes unanswered:
 * what is judged by how long something has not happened (a runner not heard from) is judged as
 * the service knew it then. While the backend restarted, the run page counted the runner's
 * silence on and said "Runner has not been heard from for 45s … the step is queued again" for
 * the minute the backend was down, beside "No answer from the infrastructure service", and the
 * runner was fine: it was the service that could not hear it.
 */
export function useNowAsOfData(intervalMs: number, live = true): number {
  const now = useNow(intervalMs, live);
  const asOf = useContext(DataAsOfContext);
  return asOf === undefined ? now : Math.min(now, asOf);
}
