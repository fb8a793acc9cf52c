import { allowedPeriods, periodFloor } from './timeRanges';

describe('metric periods', () => {
  it('follows the granularity floors of the service', () => {
    expect(periodFloor(15 * 86400)).toBe(60);
    expect(periodFloor(15 * 86400 + 1)).toBe(300);
    expect(periodFloor(63 * 86400)).toBe(300);
    expect(periodFloor(63 * 86400 + 1)).toBe(3600);
  });

  it('offers only periods at or above the floor, with a bounded number of points', () => {
    expect(allowedPeriods(3600)).toEqual([60, 300, 900, 3600]);
    expect(allowedPeriods(30 * 86400)).toEqual([3600, 21600, 86400]);
    expect(allowedPeriods(90 * 86400)).toEqual([21600, 86400]);
  });
});
