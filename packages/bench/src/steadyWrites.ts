import type { SteadyWrites } from './endpoints';
import type { Api } from './api';

/**
 * Sends `writes` one at a time at their rate until stopped, each on the next tick of the rate
 * (a write slower than the tick delays the next); `stop` resolves once the last one is answered,
 * with how many were sent and how many failed.
 */
export function startSteadyWrites(
  api: Api,
  writes: SteadyWrites,
): { stop(): Promise<{ sent: number; failed: number }> } {
  const tick = 1000 / writes.perSecond;
  const body = JSON.parse(writes.body);
  let stopped = false;
  let sent = 0;
  let failed = 0;
  const loop = (async () => {
    let next = Date.now();
    while (!stopped) {
      const result = await api.request(writes.method, writes.path, body);
      sent++;
      if (result.status >= 300) failed++;
      next += tick;
      const wait = next - Date.now();
      if (wait > 0) await new Promise(resolve => setTimeout(resolve, wait));
      else next = Date.now();
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { sent, failed };
    },
  };
}
