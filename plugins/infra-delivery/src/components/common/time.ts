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
