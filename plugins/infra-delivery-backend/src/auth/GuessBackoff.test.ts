import { CacheService } from '@backstage/backend-plugin-api';
import { InfraDeliveryError } from '../errors';
import { GuessBackoff } from './GuessBackoff';

describe('GuessBackoff', () => {
  let now = 0;
  const backoff = () =>
    new GuessBackoff(
      inMemoryCache(),
      { limit: 3, windowSeconds: 8 },
      () => now,
    );

  /** A cache that keeps what it is given, as the real one does. */
  function inMemoryCache() {
    const values = new Map<string, unknown>();
    return {
      get: async (key: string) => values.get(key),
      set: async (key: string, value: unknown) => {
        values.set(key, value);
      },
      delete: async (key: string) => {
        values.delete(key);
      },
    } as unknown as CacheService;
  }

  async function retryAfter(guesses: GuessBackoff, key: string) {
    try {
      await guesses.assertAllowed(key);
      return 0;
    } catch (error) {
      return Number((error as InfraDeliveryError).headers!['Retry-After']);
    }
  }

  it('lets the first failures through, then doubles the wait up to the cap', async () => {
    const guesses = backoff();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      await guesses.recordFailure('a|owner');
      const wait = await retryAfter(guesses, 'a|owner');
      waits.push(wait);
      now += wait * 1000;
    }
    expect(waits).toEqual([0, 0, 1, 2, 4, 8, 8, 8]);
  });

  it('keeps each address and account apart, and forgets a key on success', async () => {
    const guesses = backoff();
    for (let i = 0; i < 5; i++) {
      await guesses.recordFailure('guesser|owner');
    }
    expect(await retryAfter(guesses, 'guesser|owner')).toBeGreaterThan(0);
    expect(await retryAfter(guesses, 'owner-laptop|owner')).toBe(0);
    expect(await retryAfter(guesses, 'guesser|someone-else')).toBe(0);

    await guesses.forget('guesser|owner');
    expect(await retryAfter(guesses, 'guesser|owner')).toBe(0);
  });
});
