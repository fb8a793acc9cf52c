import { RefCallback, useCallback, useEffect, useRef, useState } from 'react';

/**
 * The width an element has, followed as it changes: for a table that lays itself out for the
 * room it has, which is the window less the sidebar (pinned or not) and the page's margins,
 * not the window. Undefined until measured, and where the browser cannot measure (no
 * ResizeObserver): the full layout.
 */
export function useContainerWidth<T extends HTMLElement>(): [
  RefCallback<T>,
  number | undefined,
] {
  const [width, setWidth] = useState<number>();
  const observer = useRef<ResizeObserver>();
  const ref = useCallback((element: T | null) => {
    observer.current?.disconnect();
    observer.current = undefined;
    if (!element || typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(entries => {
      const entry = entries[entries.length - 1];
      // Whole pixels: sub-pixel changes would lay the table out again for nothing.
      if (entry) setWidth(Math.round(entry.contentRect.width));
    });
    observer.current.observe(element);
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);
  return [ref, width];
}

/** Whether a measured width is under `limit` (an unmeasured one is not). */
export const narrowerThan = (width: number | undefined, limit: number) =>
  width !== undefined && width < limit;
