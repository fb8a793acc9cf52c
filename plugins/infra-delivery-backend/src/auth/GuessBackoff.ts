import { CacheService } from '@backstage/backend-plugin-api';
import { InfraDeliveryError } from '../errors';
import { RateLimit } from './RateLimiter';

type GuessRecord = {
  failures: number;
  /** Epoch milliseconds before which the next attempt is refused. */
  blockedUntil: number;
};

/**
 * Slows down a guesser without locking out the owner: failures are counted per key (a client
 * address and an account); from the `rule.limit`-th on, each failure makes the key wait twice
 * as long as the one before (1 s, 2 s, 4 s, … up to `rule.windowSeconds`). A
 * success forgets the key. The owner, from their own address, is never made to wait for a
 * stranger's failures. Kept in the Backstage cache, so instances sharing a cache share it.
 */
export class GuessBackoff {
  constructor(
    private readonly cache: CacheService,
    private readonly rule: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  private cacheKey(key: string) {
    return `guess-backoff:${key}`;
  }

  private async read(key: string): Promise<GuessRecord | undefined> {
    return (await this.cache.get(this.cacheKey(key))) as
      | GuessRecord
      | undefined;
  }

  /** Refuses (429 with Retry-After) while the key waits. */
  async assertAllowed(key: string): Promise<void> {
    const record = await this.read(key);
    const waitMs = (record?.blockedUntil ?? 0) - this.now();
    if (waitMs > 0) {
      const retryAfter = Math.ceil(waitMs / 1000);
      throw new InfraDeliveryError({
        status: 429,
        entity: 'Request',
        reason: 'RATE_LIMITED',
        message: 'Too many failed attempts; retry later',
        metadata: { retryAfterSeconds: retryAfter },
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
  }

  async recordFailure(key: string): Promise<void> {
    const failures = ((await this.read(key))?.failures ?? 0) + 1;
    const beyond = failures - this.rule.limit;
    const delaySeconds =
      beyond >= 0
        ? Math.min(this.rule.windowSeconds, 2 ** Math.min(beyond, 30))
        : 0;
    const record: GuessRecord = {
      failures,
      blockedUntil: this.now() + delaySeconds * 1000,
    };
    await this.cache.set(this.cacheKey(key), record, {
      ttl: Math.max(3600, this.rule.windowSeconds * 4) * 1000,
    });
  }

  async forget(key: string): Promise<void> {
    await this.cache.delete(this.cacheKey(key));
  }
}
