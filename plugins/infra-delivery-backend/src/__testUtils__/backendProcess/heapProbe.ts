/**
 * The live heap of the backend process, asked for over the IPC channel the test opens: a full
 * garbage collection first (the process runs with --expose-gc), so what is left is what the
 * process holds on to, not garbage waiting for the collector. The RSS moves with every heap
 * expansion and shrink; this number moves only when something is kept.
 */
import v8 from 'node:v8';

export const HEAP_PROBE = 'infra-delivery:live-heap';

export type HeapProbeAnswer = { type: typeof HEAP_PROBE; usedBytes: number };

export function answerHeapProbes(): void {
  if (!process.send) {
    return;
  }
  process.on('message', (message: unknown) => {
    if ((message as { type?: unknown })?.type !== HEAP_PROBE) {
      return;
    }
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) {
      throw new Error('The heap probe needs node --expose-gc');
    }
    gc();
    const answer: HeapProbeAnswer = {
      type: HEAP_PROBE,
      usedBytes: v8.getHeapStatistics().used_heap_size,
    };
    process.send!(answer);
  });
  // The channel must not keep the process alive after Backstage shuts down.
  process.channel?.unref();
}
