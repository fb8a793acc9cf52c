/** Where an asynchronous load stands, as react-use's useAsync reports it. */
export interface LoadState<T> {
  value?: T;
  loading: boolean;
  error?: Error;
  /**
   * When the load under way was sent, or the one the service did not answer (none while the
   * last one was answered), for a load that says so (`useLiveLoad`): `NoAnswerNotice` says it
   * once it has waited long.
   */
  silentSince?: number;
  /**
   * The error a reload was answered with while the view keeps what it read before
   * (`useLiveLoad`), and when that was read: `ReloadFailedNotice` says both.
   */
  reloadFailed?: ReloadFailure;
}

/** A reload answered with an error, the view still showing what it read at `readAt`. */
export interface ReloadFailure {
  error: Error;
  /** When what the view shows was read (milliseconds since the epoch). */
  readAt: number;
}

/** The earlier of two times, either of which may be unknown. */
const earlier = (a?: number, b?: number) =>
  a === undefined || b === undefined ? a ?? b : Math.min(a, b);

/**
 * Two loads as one: loaded when both are, failed when either failed, silent while either is,
 * kept through a failed reload when either was.
 */
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
    silentSince: earlier(a.silentSince, b.silentSince),
    reloadFailed: a.reloadFailed ?? b.reloadFailed,
  };
}
