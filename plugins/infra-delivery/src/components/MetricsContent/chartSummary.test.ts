import { chartSummary } from './chartSummary';

const time = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const at = (hhmm: string) => Date.parse(`2026-01-15T${hhmm}:00.000Z`);

describe('chartSummary', () => {
  it('says the span, the lowest, the highest and the latest value with their times', () => {
    expect(
      chartSummary({
        title: 'Memory utilization (%)',
        statistic: 'Average',
        period: 300,
        unit: 'Percent',
        points: [
          { time: at('09:00'), value: 41.5 },
          { time: at('09:05'), value: 12 },
          { time: at('09:10'), value: 77.25 },
          { time: at('09:15'), value: 50 },
        ],
        time,
      }),
    ).toBe(
      'Memory utilization (%), average per 5 min: 4 datapoints from 09:00 to 09:15. ' +
        'Lowest 12% at 09:05, highest 77.25% at 09:10, latest 50%.',
    );
  });

  it('gives values in their unit and one datapoint as one', () => {
    expect(
      chartSummary({
        title: 'Bytes in (sum)',
        statistic: 'Sum',
        period: 3600,
        unit: 'Bytes',
        points: [{ time: at('09:00'), value: 3 * 1024 * 1024 }],
        time,
      }),
    ).toBe(
      'Bytes in (sum), sum per 1 h: 1 datapoint from 09:00 to 09:00. ' +
        'Lowest 3 MiB at 09:00, highest 3 MiB at 09:00, latest 3 MiB.',
    );
  });
});
