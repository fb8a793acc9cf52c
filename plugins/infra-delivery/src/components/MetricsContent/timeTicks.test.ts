import { tickLabel, timeTicks } from './timeTicks';

const at = (iso: string) => Date.parse(iso);
const iso = (ticks: number[]) => ticks.map(t => new Date(t).toISOString());
const utc = { offsetOf: () => 0 };

describe('timeTicks', () => {
  it('spaces an hour by 10 minutes, on round minutes', () => {
    expect(
      iso(
        timeTicks(at('2026-11-29T09:07:30Z'), at('2026-11-29T10:07:30Z'), utc),
      ),
    ).toEqual([
      '2026-11-29T09:10:00.000Z',
      '2026-11-29T09:20:00.000Z',
      '2026-11-29T09:30:00.000Z',
      '2026-11-29T09:40:00.000Z',
      '2026-11-29T09:50:00.000Z',
      '2026-11-29T10:00:00.000Z',
    ]);
  });

  it('spaces a day by 6 hours and a week by 2 days, on midnights', () => {
    const day = timeTicks(
      at('2026-11-28T10:00:00Z'),
      at('2026-11-29T10:00:00Z'),
      utc,
    );
    expect(iso(day)).toEqual([
      '2026-11-28T12:00:00.000Z',
      '2026-11-28T18:00:00.000Z',
      '2026-11-29T00:00:00.000Z',
      '2026-11-29T06:00:00.000Z',
    ]);
    const week = timeTicks(
      at('2026-11-22T10:00:00Z'),
      at('2026-11-29T10:00:00Z'),
      utc,
    );
    expect(iso(week)).toEqual([
      '2026-11-23T00:00:00.000Z',
      '2026-11-25T00:00:00.000Z',
      '2026-11-27T00:00:00.000Z',
      '2026-11-29T00:00:00.000Z',
    ]);
  });

  it('puts ticks on the round times of the browser’s time zone', () => {
    // India, UTC+5:30: its full hours are at half past in UTC.
    const india = { offsetOf: () => 5.5 * 3_600_000 };
    expect(
      iso(
        timeTicks(
          at('2026-11-29T04:00:00Z'),
          at('2026-11-29T10:00:00Z'),
          india,
        ),
      ),
    ).toEqual([
      '2026-11-29T04:30:00.000Z',
      '2026-11-29T05:30:00.000Z',
      '2026-11-29T06:30:00.000Z',
      '2026-11-29T07:30:00.000Z',
      '2026-11-29T08:30:00.000Z',
      '2026-11-29T09:30:00.000Z',
    ]);
  });

  it('gives at most the ticks asked for, even for 90 days', () => {
    const ticks = timeTicks(
      at('2026-08-31T00:00:00Z'),
      at('2026-11-29T00:00:00Z'),
      utc,
    );
    expect(ticks.length).toBeLessThanOrEqual(7);
    expect(ticks.length).toBeGreaterThanOrEqual(5);
  });
});

describe('tickLabel', () => {
  it('reads a time of day within a day, a date beyond', () => {
    const noon = new Date(2026, 10, 29, 12, 15).getTime();
    expect(tickLabel(3_600_000)(noon)).toMatch(/12:15/);
    expect(tickLabel(7 * 86_400_000)(noon)).toMatch(/Nov 29|29 Nov/);
  });
});
