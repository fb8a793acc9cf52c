import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API keys look like `idk_<lookup id><secret><checksum>`:
 * - `idk_` makes them recognisable to people and secret scanners;
 * - the 12-character lookup id finds the key's row without comparing secrets in SQL;
 * - the 32-character secret carries 190 bits of randomness;
 * - the 6-character CRC32 checksum rejects typos and made-up keys without a database hit.
 * Only the SHA-256 of the whole key is stored; a slow hash would cap a core at a few dozen
 * requests per second, and a random key needs none.
 */
export const API_KEY_PREFIX = 'idk_';
const LOOKUP_LENGTH = 12;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET =
  '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}[0-9A-Za-z]{${
    LOOKUP_LENGTH + SECRET_LENGTH + CHECKSUM_LENGTH
  }}$`,
);

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && out.length < length) {
        out += ALPHABET[byte % 62];
      }
    }
  }
  return out;
}

function base62Checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface GeneratedApiKey {
  key: string;
  lookupId: string;
  secretHash: string;
  keySuffix: string;
}

export function generateApiKey(): GeneratedApiKey {
  const lookupId = randomBase62(LOOKUP_LENGTH);
  const body = `${API_KEY_PREFIX}${lookupId}${randomBase62(SECRET_LENGTH)}`;
  const key = `${body}${base62Checksum(body)}`;
  return {
    key,
    lookupId,
    secretHash: hashApiKey(key),
    keySuffix: key.slice(-4),
  };
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** The lookup id of a well-formed key with a correct checksum, else undefined. */
export function parseApiKey(token: string): { lookupId: string } | undefined {
  if (!KEY_PATTERN.test(token)) {
    return undefined;
  }
  const body = token.slice(0, -CHECKSUM_LENGTH);
  if (base62Checksum(body) !== token.slice(-CHECKSUM_LENGTH)) {
    return undefined;
  }
  return {
    lookupId: token.slice(
      API_KEY_PREFIX.length,
      API_KEY_PREFIX.length + LOOKUP_LENGTH,
    ),
  };
}

export function apiKeyMatches(token: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashApiKey(token), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
