const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const absolute = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** How long ago `timestamp` was, for a person: "12 seconds ago", "3 hours ago". */
export function relativeTime(timestamp: string, now: number = Date.now()) {
  const seconds = Math.round((Date.parse(timestamp) - now) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? [
    'second',
    1,
  ];
  return relative.format(Math.round(seconds / size), unit);
}

/** The exact time, for the hover text beside a relative one: "Jan 15, 2026, 10:00:00 AM". */
export function absoluteTime(timestamp: string): string {
  return absolute.format(new Date(timestamp));
}

/**
 * How long something took, in the two largest units: "45s", "3m 05s", "2h 07m", "3d 4h";
 * under a second "<1s". Negative spans (clocks apart) count as 0s.
 */
export function formatDuration(milliseconds: number): string {
  // A step that took a few hundred milliseconds did take time: "0s" read as not run at all.
  if (milliseconds > 0 && milliseconds < 1000) return '<1s';
  const total = Math.max(0, Math.floor(milliseconds / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(seconds)}s`;
  return `${seconds}s`;
}
