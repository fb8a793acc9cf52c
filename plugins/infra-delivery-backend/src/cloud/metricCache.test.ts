import { mockServices } from '@backstage/backend-test-utils';
import { CloudMetric } from '@infra-delivery/plugin-infra-delivery-common';
import {
  FIXED_RANGE_TTL_MS,
  LIVE_RANGE_TTL_MS,
  MetricCache,
  metricCacheKey,
  metricCacheTtl,
} from './metricCache';
import { MetricQuery } from '../providers/CloudProvider';

const now = new Date();
const query: MetricQuery = {
  cloudAccountId: 'acct-1',
  region: 'eu-west-1',
  namespace: 'AWS/ECS',
  metricName: 'CPUUtilization',
  statistic: 'Average',
  period: 60,
  startTime: new Date(now.getTime() - 3600_000),
  endTime: now,
  dimensions: [{ name: 'ClusterName', value: 'prod' }],
};
const fixed: MetricQuery = {
  ...query,
  startTime: new Date('2026-01-01T00:00:00Z'),
  endTime: new Date('2026-01-01T01:00:00Z'),
};

/** A provider stand-in that counts its calls. */
function countingFetch() {
  let calls = 0;
  const fetch = async (): Promise<CloudMetric> => {
    calls += 1;
    return {
      datapoints: [
        { timestamp: now.toISOString(), value: calls, max: calls, min: calls },
      ],
      unit: 'Percent',
    };
  };
  return { fetch, calls: () => calls };
}

describe('MetricCache', () => {
  it('answers a repeated query from the cache without calling the provider', async () => {
    const cache = new MetricCache(inMemory());
    const provider = countingFetch();

    const first = await cache.getOrFetch('org-1', fixed, provider.fetch);
    const second = await cache.getOrFetch('org-1', fixed, provider.fetch);

    expect(provider.calls()).toBe(1);
    expect(second).toEqual(first);
  });

  it('keeps organizations and queries apart', async () => {
    const cache = new MetricCache(inMemory());
    const provider = countingFetch();

    await cache.getOrFetch('org-1', fixed, provider.fetch);
    await cache.getOrFetch('org-2', fixed, provider.fetch);
    await cache.getOrFetch('org-1', { ...fixed, period: 120 }, provider.fetch);
    await cache.getOrFetch(
      'org-1',
      { ...fixed, dimensions: [{ name: 'ClusterName', value: 'dev' }] },
      provider.fetch,
    );

    expect(provider.calls()).toBe(4);
  });

  it('stores ranges ending now for 60 s and fixed ranges for 5 minutes', async () => {
    const store = inMemory();
    const cache = new MetricCache(store);
    const provider = countingFetch();

    await cache.getOrFetch('org-1', query, provider.fetch);
    await cache.getOrFetch('org-1', fixed, provider.fetch);

    expect(store.set).toHaveBeenCalledWith(
      metricCacheKey('org-1', query),
      expect.anything(),
      { ttl: LIVE_RANGE_TTL_MS },
    );
    expect(store.set).toHaveBeenCalledWith(
      metricCacheKey('org-1', fixed),
      expect.anything(),
      { ttl: FIXED_RANGE_TTL_MS },
    );
  });

  it('answers again from its own memory without reading the shared cache', async () => {
    const store = inMemory();
    const cache = new MetricCache(store);
    const provider = countingFetch();

    await cache.getOrFetch('org-1', fixed, provider.fetch);
    await cache.getOrFetch('org-1', fixed, provider.fetch);

    expect(provider.calls()).toBe(1);
    expect(store.get).toHaveBeenCalledTimes(1);
  });

  it('lets another instance take an answer from the shared cache until it expires, and not after', async () => {
    jest.useFakeTimers({ now });
    try {
      const store = inMemory();
      const provider = countingFetch();
      const first = new MetricCache(store);
      await first.getOrFetch('org-1', query, provider.fetch);

      // Another instance, half a TTL later: the shared answer, kept only for what is left.
      jest.setSystemTime(now.getTime() + LIVE_RANGE_TTL_MS / 2);
      const second = new MetricCache(store);
      const shared = await second.getOrFetch('org-1', query, provider.fetch);
      expect(shared.datapoints[0].value).toBe(1);
      expect(provider.calls()).toBe(1);

      // Past the first answer's TTL neither instance answers with it, even where the shared
      // store still holds the entry.
      jest.setSystemTime(now.getTime() + LIVE_RANGE_TTL_MS + 1);
      const renewed = await second.getOrFetch('org-1', query, provider.fetch);
      expect(renewed.datapoints[0].value).toBe(2);
      const alsoRenewed = await first.getOrFetch(
        'org-1',
        query,
        provider.fetch,
      );
      expect(alsoRenewed.datapoints[0].value).toBe(2);
      expect(provider.calls()).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('counts a range ending within a minute of now as live', () => {
    const at = (msBeforeNow: number) => ({
      ...query,
      endTime: new Date(now.getTime() - msBeforeNow),
    });
    expect(metricCacheTtl(at(0), now)).toBe(60_000);
    expect(metricCacheTtl(at(60_000), now)).toBe(60_000);
    expect(metricCacheTtl(at(60_001), now)).toBe(300_000);
  });
});

/** An in-memory CacheService whose methods are spies. */
function inMemory() {
  const values = new Map<string, unknown>();
  return mockServices.cache.mock({
    get: async (key: string) => values.get(key) as any,
    set: async (key: string, value: unknown) => {
      values.set(key, value);
    },
  });
}
