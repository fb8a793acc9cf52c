import { useEffect, useState } from 'react';

/**
 * The current time, renewed every `intervalMs` while `live` (a running run's duration, a
 * relative time); a component that is not live does not re-render on its own.
 */
export function useNow(intervalMs: number, live = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, live]);
  return now;
}
