/**
 * Timestamps are written as ISO strings: PostgreSQL parses them into `timestamptz`, SQLite keeps
 * the text, which sorts correctly because every value has the same UTC format. They come back
 * as `Date` from PostgreSQL and as text from SQLite; both leave as ISO strings.
 */
export function nowTimestamp(): string {
  return new Date().toISOString();
}

export function toTimestamp(value: Date | string | number): string {
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
