import { z } from 'zod';

/** ISO 8601 date-time, as every timestamp of the service is sent. */
export const timestampSchema = z.iso.datetime({ offset: true });

/** A caller-chosen id, unique within its parent (`givenId`). */
export const givenIdSchema = z
  .string()
  .min(1)
  .max(63)
  .regex(
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/,
    'lowercase letters, digits and inner dashes',
  );

/**
 * A `givenId` made from a name ("Payments API" → "payments-api"): what the service derives when
 * a caller gives none, and what forms propose; `fallback` when the name has no letter or digit.
 */
export function givenIdFromName(name: string, fallback: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 50)
      .replace(/^-+|-+$/g, '') || fallback
  );
}

/**
 * Text of one line (names, runner ids, hostnames, labels): no C0 or C1 control character (NUL,
 * BEL, tab, line feed, DEL, …), no line or paragraph separator, no bidirectional embedding,
 * override or isolate (U+202A–U+202E, U+2066–U+2069: they make text display in another order
 * than it reads), and no unpaired surrogate (not Unicode at all; PostgreSQL refuses NUL too).
 * Letters of any script, emoji and the bidirectional marks (U+200E, U+200F) are text.
 */
const SINGLE_LINE_TEXT =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /^[^\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]*$/u;

/**
 * Text of several lines (descriptions, comments): as {@link SINGLE_LINE_TEXT}, but tabs, line
 * feeds, carriage returns and the line and paragraph separators are text.
 */
const MULTI_LINE_TEXT =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]*$/u;

const SINGLE_LINE_MESSAGE =
  'must not contain control characters (nor line breaks, tabs, bidirectional overrides or unpaired surrogates)';
const MULTI_LINE_MESSAGE =
  'must not contain control characters other than tabs and line breaks (nor bidirectional overrides or unpaired surrogates)';

/**
 * Every id of the service: a UUIDv7 string, opaque to callers. Text of one line: an id with a
 * NUL was looked up and not found on SQLite, and refused by PostgreSQL (which stores no NUL in
 * any text) with another answer.
 */
export const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(SINGLE_LINE_TEXT, SINGLE_LINE_MESSAGE);

/** A string of one line (see {@link SINGLE_LINE_TEXT}); bounds are added by the caller. */
export const singleLineTextSchema = z
  .string()
  .regex(SINGLE_LINE_TEXT, SINGLE_LINE_MESSAGE);

/** A string of several lines (see {@link MULTI_LINE_TEXT}); bounds are added by the caller. */
export const multiLineTextSchema = z
  .string()
  .regex(MULTI_LINE_TEXT, MULTI_LINE_MESSAGE);

export const nameSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(SINGLE_LINE_TEXT, SINGLE_LINE_MESSAGE);
export const descriptionSchema = multiLineTextSchema.max(4000);

export const emailSchema = z
  .email()
  .max(320)
  .transform(email => email.toLowerCase());

/** A request body of the specification: `{ data: … }`. */
export function requestBody<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/** A query parameter that may repeat (`?status=A&status=B`), capped at `max` values. */
export function repeatableQuery<T extends z.ZodType>(item: T, max: number) {
  return z.preprocess(
    value => (value === undefined || Array.isArray(value) ? value : [value]),
    z.array(item).max(max),
  );
}
