/** Time ranges offered by the Metrics tab, each ending now. */
export const TIME_RANGES = [
  { label: 'Last hour', seconds: 3600 },
  { label: 'Last 6 hours', seconds: 6 * 3600 },
  { label: 'Last day', seconds: 86400 },
  { label: 'Last week', seconds: 7 * 86400 },
  { label: 'Last 30 days', seconds: 30 * 86400 },
  { label: 'Last 90 days', seconds: 90 * 86400 },
];

export const PERIODS = [60, 300, 900, 3600, 21600, 86400];

const DAY = 86400;

/**
 * The smallest period CloudWatch keeps for a window (the service enforces the same floors):
 * 60 s up to 15 days, 300 s up to 63 days, 3600 s beyond.
 */
export function periodFloor(rangeSeconds: number): number {
  if (rangeSeconds <= 15 * DAY) return 60;
  if (rangeSeconds <= 63 * DAY) return 300;
  return 3600;
}

/**
 * The periods a person may pick for a range: at or above its floor, no longer than the range,
 * and at most 1,440 points.
 */
export function allowedPeriods(rangeSeconds: number): number[] {
  const floor = periodFloor(rangeSeconds);
  return PERIODS.filter(
    p => p >= floor && p <= rangeSeconds && rangeSeconds / p <= 1440,
  );
}

export function periodLabel(seconds: number): string {
  if (seconds < 3600) return `${seconds / 60} min`;
  if (seconds < 86400) return `${seconds / 3600} h`;
  return `${seconds / 86400} d`;
}
