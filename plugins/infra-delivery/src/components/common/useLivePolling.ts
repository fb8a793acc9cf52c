import { useEffect, useRef, useState } from 'react';
import useInterval from 'react-use/esm/useInterval';

/**
 * How often a live view with nothing under way reads again. Signals announce what the portal
 * itself started, but a run started elsewhere (the API, another user, a push to git) was only
 * seen once the page was reloaded, and a service gone quiet not at all: an idle runs list kept
 * saying "Succeeded" with the backend stopped. One cheap read per half minute notices both.
 */
export const IDLE_POLL_MS = 30_000;

/** Whether the page is in sight (its browser tab shown), renewed as that changes. */
function usePageVisible(): boolean {
  const [visible, setVisible] = useState(
    () => document.visibilityState !== 'hidden',
  );
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return visible;
}

/**
 * Reads a live view again on its own while its page is in sight: every `underWayMs` while the
 * work it shows is under way (none: every `IDLE_POLL_MS`, as when idle), and at once when the
 * page comes back into sight. A page out of sight does not read at all: nobody looks at it, and
 * a browser with many tabs of the portal open would otherwise keep the service busy for them.
 * `underWayMs` null: nothing to read on its own (a step's logs once it has ended).
 */
export function useLivePolling(
  refresh: () => void,
  underWayMs?: number | null,
) {
  const visible = usePageVisible();
  // `refresh` may change identity as its own load starts and ends (react-use's retry does):
  // the timer keeps its rhythm, and coming into sight is what reads at once, not a new identity.
  const latestRefresh = useRef(refresh);
  latestRefresh.current = refresh;
  const live = underWayMs !== null;
  useInterval(
    () => latestRefresh.current(),
    visible && live ? underWayMs ?? IDLE_POLL_MS : null,
  );
  const wasVisible = useRef(visible);
  useEffect(() => {
    if (visible && !wasVisible.current && live) latestRefresh.current();
    wasVisible.current = visible;
  }, [visible, live]);
}
