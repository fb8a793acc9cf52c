import { createHash } from 'node:crypto';
import { CacheService } from '@backstage/backend-plugin-api';
import { CloudMetric } from '@internal/plugin-infra-delivery-common';
import { MetricQuery } from './metricQuery';

/** §4.5: answers for ranges ending now live 60 s, answers for fixed ranges 5 minutes. */
export const LIVE_RANGE_TTL_MS = 60_000;
export const FIXED_RANGE_TTL_MS = 5 * 60_000;
/** A range whose end is at most this far behind now still ends "now". */
const LIVE_RANGE_MARGIN_MS = 60_000;

export function metricCacheKey(
  organizationId: string,
  query: MetricQuery,
): string {
  const normal = JSON.stringify([
    organizationId,
    query.cloudAccountId,
    query.region,
    query.namespace,
    query.metricName,
    query.statistic,
    query.period,
    query.startTime.toISOString(),
    query.endTime.toISOString(),
    query.dimensions.map(d => [d.name, d.value]),
  ]);
  return `cloud-metric:${createHash('sha256').update(normal).digest('hex')}`;
}

export function metricCacheTtl(query: MetricQuery, now = new Date()): number {
  return query.endTime.getTime() >= now.getTime() - LIVE_RANGE_MARGIN_MS
    ? LIVE_RANGE_TTL_MS
    : FIXED_RANGE_TTL_MS;
}

/**
 * Metric answers through the Backstage cache (shared by instances when it is Redis or
 * Valkey), keyed by the organization and the query in its normal form.
 */
export class MetricCache {
  constructor(private readonly cache: CacheService) {}

  async getOrFetch(
    organizationId: string,
    query: MetricQuery,
    fetch: () => Promise<CloudMetric>,
  ): Promise<CloudMetric> {
    const key = metricCacheKey(organizationId, query);
    const cached = await this.cache.get<CloudMetric>(key);
    if (cached) {
      return cached;
    }
    const metric = await fetch();
    await this.cache.set(key, metric, { ttl: metricCacheTtl(query) });
    return metric;
  }
}
