import { CacheService } from '@backstage/backend-plugin-api';
import { InfraDeliveryError } from '../errors';

export interface RateLimit {
  /** Attempts allowed per window. */
  limit: number;
  windowSeconds: number;
}

/** Limits on the unauthenticated ways in, per client address and per email. */
export interface AuthRateLimits {
  signupsPerAddress: RateLimit;
  tokenAttemptsPerAddress: RateLimit;
  /**
   * Wrong passwords per client address and account: from the `limit`-th on, each makes the
   * next attempt wait twice as long as the one before, up to `windowSeconds` (GuessBackoff).
   */
  tokenAttemptsPerEmail: RateLimit;
  /** Requests with an API key that fails verification, per client address. */
  apiKeyFailuresPerAddress: RateLimit;
}

/**
 * Fixed-window counters in the Backstage cache, so that every instance sharing a Redis or
 * Valkey cache shares the limits. Counting is approximate under races, which is enough to stop
 * guessing and floods.
 */
export class RateLimiter {
  constructor(private readonly cache: CacheService) {}

  /** Counts an attempt, refusing it (429) when the window's attempts are used up. */
  async consume(bucket: string, key: string, rule: RateLimit): Promise<void> {
    await this.assertAllowed(bucket, key, rule);
    await this.record(bucket, key, rule);
  }

  /**
   * Refuses (429 with Retry-After) when the window's attempts are used up, without counting:
   * with `record` for limits that count only failures.
   */
  async assertAllowed(
    bucket: string,
    key: string,
    rule: RateLimit,
  ): Promise<void> {
    const { cacheKey, windowStart } = this.window(bucket, key, rule);
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
  }

  /** Counts one attempt in the current window. */
  async record(bucket: string, key: string, rule: RateLimit): Promise<void> {
    const { cacheKey } = this.window(bucket, key, rule);
    const used = Number((await this.cache.get(cacheKey)) ?? 0);
    await this.cache.set(cacheKey, used + 1, {
      ttl: rule.windowSeconds * 1000,
    });
  }

  private window(bucket: string, key: string, rule: RateLimit) {
    const windowStart =
      Math.floor(Date.now() / 1000 / rule.windowSeconds) * rule.windowSeconds;
    return { cacheKey: `rate:${bucket}:${key}:${windowStart}`, windowStart };
  }
}
