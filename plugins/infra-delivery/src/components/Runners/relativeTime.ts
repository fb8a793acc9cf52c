const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** How long ago `timestamp` was, for a person: "12 seconds ago", "3 hours ago". */
export function relativeTime(timestamp: string, now: number = Date.now()) {
  const seconds = Math.round((Date.parse(timestamp) - now) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? [
    'second',
    1,
  ];
  return format.format(Math.round(seconds / size), unit);
}
