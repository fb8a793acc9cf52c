const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Tick spacings a time axis may use, shortest first. */
const STEPS = [
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
];

/** The browser's offset from UTC at `ms`, in milliseconds (CloudWatch times are UTC). */
const localOffset = (ms: number) => -new Date(ms).getTimezoneOffset() * MINUTE;

/**
 * Evenly spaced ticks for a time axis from `start` to `end` (epoch ms): the shortest spacing
 * that gives at most `maxTicks`, each on a round local time (a full hour, midnight, …).
 */
export function timeTicks(
  start: number,
  end: number,
  { maxTicks = 6, offsetOf = localOffset } = {},
): number[] {
  const step =
    STEPS.find(candidate => (end - start) / candidate <= maxTicks) ??
    STEPS[STEPS.length - 1];
  const offset = offsetOf(start);
  let tick = Math.ceil((start + offset) / step) * step - offset;
  const ticks: number[] = [];
  for (; tick <= end; tick += step) {
    ticks.push(tick);
  }
  return ticks;
}

/** How a tick of a window of `spanMs` reads: a time of day within a day, a date beyond. */
export function tickLabel(spanMs: number): (ms: number) => string {
  const options: Intl.DateTimeFormatOptions =
    spanMs <= DAY
      ? { hour: '2-digit', minute: '2-digit' }
      : { month: 'short', day: 'numeric' };
  return ms => new Date(ms).toLocaleString(undefined, options);
}
