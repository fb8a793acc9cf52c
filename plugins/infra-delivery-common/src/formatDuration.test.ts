import { formatDuration } from './formatDuration';

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
