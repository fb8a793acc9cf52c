import { LocalCloudProvider } from './LocalCloudProvider';
import { MetricQuery } from '../CloudProvider';

const account = {
  cloudAccountId: 'acct-1',
  givenId: 'dev',
  cloudId: '123456789012',
  roleArn: 'arn:aws:iam::123456789012:role/infra-delivery/local-driver',
  externalId: 'x',
};
const query: MetricQuery = {
  cloudAccountId: 'acct-1',
  region: 'eu-west-1',
  namespace: 'AWS/ECS',
  metricName: 'CPUUtilization',
  statistic: 'Average',
  period: 300,
  startTime: new Date('2026-06-01T00:02:00Z'),
  endTime: new Date('2026-06-01T01:00:00Z'),
  dimensions: [{ name: 'ServiceName', value: 'web' }],
};

describe('LocalCloudProvider', () => {
  const provider = new LocalCloudProvider();

  it('answers one datapoint per period boundary inside the inclusive range', async () => {
    const metric = await provider.getMetricData(account, query);
    expect(metric.unit).toBe('Percent');
    expect(metric.datapoints.map(d => d.timestamp)).toEqual(
      [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60].map(minute =>
        new Date(Date.UTC(2026, 5, 1, 0, minute)).toISOString(),
      ),
    );
    for (const point of metric.datapoints) {
      expect(point.min).toBeLessThanOrEqual(point.value);
      expect(point.value).toBeLessThanOrEqual(point.max);
      expect(point.value).toBeGreaterThan(0);
      expect(point.value).toBeLessThan(100);
    }
    expect(new Set(metric.datapoints.map(d => d.value)).size).toBeGreaterThan(
      1,
    );
  });

  it('is deterministic per series and differs between series', async () => {
    const again = await provider.getMetricData(account, { ...query });
    expect(again).toEqual(await provider.getMetricData(account, query));

    const otherService = await provider.getMetricData(account, {
      ...query,
      dimensions: [{ name: 'ServiceName', value: 'worker' }],
    });
    expect(otherService.datapoints.map(d => d.value)).not.toEqual(
      again.datapoints.map(d => d.value),
    );
  });

  it('sums counts to whole numbers, as CloudWatch does, and says the series is its own', async () => {
    const metric = await provider.getMetricData(account, {
      ...query,
      namespace: 'AWS/ApplicationELB',
      metricName: 'RequestCount',
      statistic: 'Sum',
    });
    expect(metric.unit).toBe('Count');
    expect(metric.source).toBe('local');
    for (const point of metric.datapoints) {
      expect(Number.isInteger(point.value)).toBe(true);
      expect(Number.isInteger(point.max)).toBe(true);
      expect(Number.isInteger(point.min)).toBe(true);
    }
  });

  it('honours the period and the statistic', async () => {
    const hourly = await provider.getMetricData(account, {
      ...query,
      period: 3600,
    });
    expect(hourly.datapoints.map(d => d.timestamp)).toEqual([
      '2026-06-01T01:00:00.000Z',
    ]);
    const counts = await provider.getMetricData(account, {
      ...query,
      statistic: 'SampleCount',
    });
    expect(new Set(counts.datapoints.map(d => d.value))).toEqual(new Set([5]));
    const maxima = await provider.getMetricData(account, {
      ...query,
      statistic: 'Maximum',
    });
    maxima.datapoints.forEach(point => expect(point.value).toBe(point.max));
  });
});
