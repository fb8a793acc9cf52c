/**
 * A signal that aborts when the first of `signals` does, with its reason: `AbortSignal.any`,
 * which Node has from 18.17 and 20.3 on. The runner supports Node 18, where on 18.16 and
 * earlier every claim failed with "AbortSignal.any is not a function", which the runner took
 * for a service it could not reach and asked again for good.
 */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  const native = (
    AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }
  ).any;
  if (typeof native === 'function') return native.call(AbortSignal, signals);
  const controller = new AbortController();
  const aborted = signals.find(signal => signal.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return controller.signal;
  }
  const onAbort = (event: Event) => {
    for (const signal of signals) signal.removeEventListener('abort', onAbort);
    controller.abort((event.target as AbortSignal).reason);
  };
  for (const signal of signals) signal.addEventListener('abort', onAbort);
  return controller.signal;
}
