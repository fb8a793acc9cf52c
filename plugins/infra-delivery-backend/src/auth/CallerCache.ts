import { hash } from 'node:crypto';
import { BoundedMap } from '../lib/BoundedMap';
import { Caller } from './Caller';

/** Callers remembered per backend instance; the least recently used go first beyond this. */
export const CALLER_CACHE_SIZE = 10_000;

/** What resolving a credential found, and until when it holds. */
export interface RememberedCaller {
  caller: Caller;
  /** The access epoch read before the caller was resolved. */
  epoch: number;
  /** The credential's own end (the token's or the API key's expiry); Infinity when none. */
  expiresAtMs: number;
  /** An API key's id and its last recorded use, which is still written every few minutes. */
  apiKey?: { id: string; lastUsedAtMs: number };
}

/**
 * The callers a backend instance resolved, by credential. Resolving an API key or an access
 * token read the key, the member or service account and their role on every request (one to
 * three statements, a fifth of the CPU of a cached answer in docs/benchmarks.md); a remembered
 * caller costs one read of the access epoch instead (database/AccessEpochStore.ts). An entry
 * counts only under the epoch it was resolved under: every change of a member's role, a
 * member's removal, an API key's or a service account's deletion moves the epoch in its own
 * transaction, on whichever instance made it, and the next request on any instance resolves
 * its caller again. The epoch is read before the credential is resolved, so a change that
 * commits in between leaves an entry under the older epoch, which the next request drops.
 *
 * Entries are keyed by the credential's SHA-256, so the cache holds no usable secret.
 */
export class CallerCache {
  private readonly entries: BoundedMap<string, RememberedCaller>;

  constructor(size = CALLER_CACHE_SIZE) {
    this.entries = new BoundedMap(size);
  }

  /** The key of a bearer credential (one-shot hashing: no Hash object per request). */
  keyOf(credential: string): string {
    return hash('sha256', credential, 'base64');
  }

  /** Whether anything is remembered for `key`, valid or not: only then is the epoch read. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /**
   * The caller remembered for `key` if it was resolved under `epoch` and its credential has
   * not expired; a stale entry is dropped (the credential is then resolved, and refused, as
   * if it had never been seen).
   */
  get(key: string, epoch: number, nowMs: number): RememberedCaller | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      return undefined;
    }
    if (entry.epoch !== epoch || nowMs >= entry.expiresAtMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  remember(key: string, entry: RememberedCaller): void {
    this.entries.set(key, entry);
  }
}
