import { formatDuration, relativeTime } from './time';

describe('relativeTime', () => {
  const now = Date.parse('2026-01-15T10:00:00.000Z');

  it.each([
    ['2026-01-15T09:59:48.000Z', '12 seconds ago'],
    ['2026-01-15T10:00:00.000Z', 'now'],
    ['2026-01-15T09:58:00.000Z', '2 minutes ago'],
    ['2026-01-15T07:00:00.000Z', '3 hours ago'],
    ['2026-01-13T10:00:00.000Z', '2 days ago'],
  ])('says %s was %s', (timestamp, expected) => {
    expect(relativeTime(timestamp, now)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [-5_000, '0s'],
    [1, '<1s'],
    [999, '<1s'],
    [1_000, '1s'],
    [45_900, '45s'],
    [185_000, '3m 05s'],
    [2 * 3_600_000 + 7 * 60_000 + 59_000, '2h 07m'],
    [3 * 86_400_000 + 4 * 3_600_000, '3d 4h'],
  ])('writes %d ms as %s', (milliseconds, expected) => {
    expect(formatDuration(milliseconds)).toBe(expected);
  });
});
