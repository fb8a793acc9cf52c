import { RefObject, useEffect, useRef } from 'react';

/** The height of a line in Backstage's log viewer. */
const LOG_LINE_HEIGHT = 20;
/** Lines left visible above the line opened at, to show what leads to it. */
const LINES_ABOVE = 1;
/** How many frames to wait for the log viewer's lazily loaded list to appear. */
const MAX_FRAMES = 120;

/**
 * Scrolls Backstage's log viewer inside `container` to `line` (1-based) once, when it first
 * shows: the viewer has no prop for it and scrolls to the last line whenever it gets text. Its
 * list is the element that scrolls (react-window's outer element); it is looked for frame by
 * frame, as the viewer is loaded lazily, and set a frame after it appears, after the viewer's
 * own scroll to the end.
 */
export function useLogOpensAt(
  container: RefObject<HTMLElement>,
  line: number | undefined,
) {
  const opened = useRef(false);
  useEffect(() => {
    if (line === undefined || opened.current) return undefined;
    let frames = 0;
    let frame = requestAnimationFrame(function look() {
      const list = container.current?.querySelector<HTMLElement>(
        '[style*="overflow: auto"]',
      );
      frames += 1;
      if (!list) {
        if (frames < MAX_FRAMES) frame = requestAnimationFrame(look);
        return;
      }
      frame = requestAnimationFrame(() => {
        opened.current = true;
        list.scrollTop = Math.max(0, line - 1 - LINES_ABOVE) * LOG_LINE_HEIGHT;
        list.dispatchEvent(new Event('scroll'));
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [container, line]);
}
