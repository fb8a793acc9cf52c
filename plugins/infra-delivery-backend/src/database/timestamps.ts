/**
 * Timestamps are written as ISO strings: PostgreSQL parses them into `timestamptz`, SQLite keeps
 * the text, which sorts correctly because every value has the same UTC format. They come back
 * as `Date` from PostgreSQL and as text from SQLite; both leave as ISO strings.
 */
export function nowTimestamp(): string {
  return new Date().toISOString();
}

/** The exact shape `toISOString()` writes. */
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function toTimestamp(value: Date | string | number): string {
  // SQLite gives back the text this module wrote: parsing and re-formatting it cost a fifth
  // of a runs page's CPU time in the benchmarks.
  if (typeof value === 'string' && CANONICAL_ISO.test(value)) {
    return value;
  }
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function toOptionalTimestamp(
  value: Date | string | number | null | undefined,
): string | undefined {
  return value === null || value === undefined ? undefined : toTimestamp(value);
}

/** `undefined` for SQL NULL, as the wire format omits absent fields. */
export function optional<T>(value: T | null | undefined): T | undefined {
  return value === null ? undefined : value;
}
