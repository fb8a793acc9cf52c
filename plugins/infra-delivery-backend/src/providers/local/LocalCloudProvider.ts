import { createHash } from 'node:crypto';
import { CloudMetric } from '@infra-delivery/plugin-infra-delivery-common';
import {
  CloudAccountAccess,
  CloudProvider,
  MetricQuery,
} from '../CloudProvider';

const DAY_SECONDS = 24 * 3600;

/** Four numbers in [0, 1) derived from the series' identity: same series, same wave. */
function seedOf(query: MetricQuery, account: CloudAccountAccess): number[] {
  const digest = createHash('sha256')
    .update(
      JSON.stringify([
        account.cloudAccountId,
        query.region,
        query.namespace,
        query.metricName,
        query.dimensions,
      ]),
    )
    .digest();
  return [0, 4, 8, 12].map(offset => digest.readUInt32BE(offset) / 2 ** 32);
}

function unitOf(metricName: string): string {
  if (/utili[sz]ation|percent/i.test(metricName)) return 'Percent';
  if (/bytes/i.test(metricName)) return 'Bytes';
  if (/latency|duration|time/i.test(metricName)) return 'Milliseconds';
  if (/count|requests|errors/i.test(metricName)) return 'Count';
  return 'None';
}

/**
 * The development driver: no cloud is called. Metrics are a daily sine wave whose baseline,
 * amplitude and phase are seeded by the account, metric and dimensions, sampled at every
 * period boundary inside the (inclusive) range, so a chart looks alive and a test can predict
 * every point. Connecting an account happens through `POST /cloud-accounts/{id}/connect-local`.
 */
export class LocalCloudProvider implements CloudProvider {
  readonly driver = 'local' as const;

  async getMetricData(
    account: CloudAccountAccess,
    query: MetricQuery,
  ): Promise<CloudMetric> {
    const [base, amplitude, phase, spread] = seedOf(query, account);
    const unit = unitOf(query.metricName);
    const scale = unit === 'Percent' ? 50 : 1000;
    const periodMs = query.period * 1000;
    const first = Math.ceil(query.startTime.getTime() / periodMs) * periodMs;
    const datapoints: CloudMetric['datapoints'] = [];
    for (let t = first; t <= query.endTime.getTime(); t += periodMs) {
      const angle =
        (2 * Math.PI * (t / 1000)) / DAY_SECONDS + phase * 2 * Math.PI;
      const average =
        scale * (0.5 + 0.4 * base) + scale * 0.3 * amplitude * Math.sin(angle);
      const width = scale * 0.1 * (0.2 + spread);
      const samples = query.period / 60;
      const value = this.statistic(query.statistic, average, width, samples);
      // A sum of counts is a whole number, as CloudWatch's is.
      const whole = unit === 'Count' && query.statistic === 'Sum';
      const shown = (v: number) => (whole ? Math.round(v) : round(v));
      datapoints.push({
        timestamp: new Date(t).toISOString(),
        value: shown(value),
        max: shown(Math.max(value, average + width)),
        min: shown(Math.min(value, average - width)),
      });
    }
    return { datapoints, unit, source: 'local' };
  }

  private statistic(
    statistic: string,
    average: number,
    width: number,
    samples: number,
  ): number {
    switch (statistic) {
      case 'Sum':
        return average * samples;
      case 'SampleCount':
        return samples;
      case 'Maximum':
        return average + width;
      case 'Minimum':
        return average - width;
      default:
        return average;
    }
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
