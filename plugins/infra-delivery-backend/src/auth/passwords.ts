import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * scrypt's cost as log2 of N: 15 (N = 32,768, about 50 ms a password) unless
 * `infraDelivery.passwords.scryptCost` says. Passwords are low-entropy, so they get a deliberately
 * slow hash; API keys, which are random, get SHA-256 instead (see apiKeyFormat.ts).
 */
export const DEFAULT_SCRYPT_COST = 15;
export const MIN_SCRYPT_COST = 10;
export const MAX_SCRYPT_COST = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
// scrypt needs 128 · N · r bytes: 128 MiB at the highest cost (OWASP's recommendation).
const MAXMEM = 2 * 128 * 2 ** MAX_SCRYPT_COST * R;

/**
 * Hashes passwords as `scrypt$N$r$p$salt$hash` (salt and hash in base64). A stored hash carries
 * its own parameters, so changing the cost changes only passwords set from then on.
 */
export class PasswordHasher {
  private decoy?: Promise<string>;

  constructor(readonly cost: number = DEFAULT_SCRYPT_COST) {
    if (
      !Number.isInteger(cost) ||
      cost < MIN_SCRYPT_COST ||
      cost > MAX_SCRYPT_COST
    ) {
      throw new Error(
        `infraDelivery.passwords.scryptCost must be an integer from ${MIN_SCRYPT_COST} to ${MAX_SCRYPT_COST}, not ${cost}`,
      );
    }
  }

  async hash(password: string): Promise<string> {
    const n = 2 ** this.cost;
    const salt = randomBytes(16);
    const hash = await scryptAsync(password, salt, KEY_LENGTH, {
      N: n,
      r: R,
      p: P,
      maxmem: MAXMEM,
    });
    return [
      'scrypt',
      n,
      R,
      P,
      salt.toString('base64'),
      hash.toString('base64'),
    ].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !hash) {
      return false;
    }
    const expected = Buffer.from(hash, 'base64');
    const actual = await scryptAsync(
      password,
      Buffer.from(salt, 'base64'),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: MAXMEM },
    );
    return timingSafeEqual(expected, actual);
  }

  /** A hash to verify against when the user has no password, so timing does not tell. */
  decoyHash(): Promise<string> {
    this.decoy ??= this.hash(randomBytes(16).toString('hex'));
    return this.decoy;
  }
}
