import { CacheService } from '@backstage/backend-plugin-api';
import { InfraDeliveryError } from '../errors';

export interface RateLimit {
  /** Attempts allowed per window. */
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in the Backstage cache, so that every instance sharing a Redis or
 * Valkey cache shares the limits. Counting is approximate under races, which is enough to stop
 * guessing and floods.
 */
export class RateLimiter {
  constructor(private readonly cache: CacheService) {}

  async consume(bucket: string, key: string, rule: RateLimit): Promise<void> {
    const windowStart =
      Math.floor(Date.now() / 1000 / rule.windowSeconds) * rule.windowSeconds;
    const cacheKey = `rate:${bucket}:${key}:${windowStart}`;
    const used = Number((await this.cache.get(cacheKey)) ?? 0);
    if (used >= rule.limit) {
      const retryAfter =
        windowStart + rule.windowSeconds - Math.floor(Date.now() / 1000);
      throw new InfraDeliveryError({
        status: 429,
        entity: 'Request',
        reason: 'RATE_LIMITED',
        message: 'Too many attempts; retry later',
        metadata: { retryAfterSeconds: retryAfter },
        headers: { 'Retry-After': String(Math.max(1, retryAfter)) },
      });
    }
    await this.cache.set(cacheKey, used + 1, {
      ttl: rule.windowSeconds * 1000,
    });
  }
}
