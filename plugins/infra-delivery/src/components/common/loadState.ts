/** Where an asynchronous load stands, as react-use's useAsync reports it. */
export interface LoadState<T> {
  value?: T;
  loading: boolean;
  error?: Error;
}

/** Two loads as one: loaded when both are, failed when either failed. */
export function bothLoaded<A, B>(
  a: LoadState<A>,
  b: LoadState<B>,
): LoadState<[A, B]> {
  return {
    value:
      a.value !== undefined && b.value !== undefined
        ? [a.value, b.value]
        : undefined,
    loading: a.loading || b.loading,
    error: a.error ?? b.error,
  };
}
