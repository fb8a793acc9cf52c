/**
 * Lays every container measured through `useContainerWidth` out `width` px wide until the
 * returned function restores the original: jsdom lays nothing out and has no ResizeObserver.
 */
export function fakeContainerWidth(width: number): () => void {
  const globals = globalThis as { ResizeObserver?: unknown };
  const original = globals.ResizeObserver;
  globals.ResizeObserver = class {
    constructor(
      private readonly report: (
        entries: { target: Element; contentRect: { width: number } }[],
      ) => void,
    ) {}
    observe(target: Element) {
      this.report([{ target, contentRect: { width } }]);
    }
    unobserve() {}
    disconnect() {}
  };
  return () => {
    globals.ResizeObserver = original;
  };
}
