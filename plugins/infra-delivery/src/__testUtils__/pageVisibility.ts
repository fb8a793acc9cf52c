import { act } from '@testing-library/react';

/**
 * The browser shows or hides the page's tab (`document.visibilityState`, announced by a
 * `visibilitychange` event), as live views that read only while in sight watch it.
 */
export function setPageVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', {
    value: state,
    configurable: true,
  });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** Jest's fake timers moved on by `ms`, what they run acted out. */
export const timersLater = (ms: number) =>
  act(() => {
    jest.advanceTimersByTime(ms);
  });
