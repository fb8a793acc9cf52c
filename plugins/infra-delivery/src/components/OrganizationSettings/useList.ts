import { useReloadableAsync } from '../common/useReloadableAsync';

/** Loads a list and gives a way to reload it after a change. */
export function useList<T>(load: () => Promise<T[]>, deps: unknown[]) {
  const state = useReloadableAsync(load, deps);
  return { ...state, items: state.value ?? [] };
}

/** What {@link useList} gives: the items so far, the load's state and `retry`. */
export type ListState<T> = ReturnType<typeof useList<T>>;
