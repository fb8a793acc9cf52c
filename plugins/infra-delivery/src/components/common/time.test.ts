import { relativeTime } from './time';

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
