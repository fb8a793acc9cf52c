import { z } from 'zod';

/** Every id of the service: a UUIDv7 string, opaque to callers. */
export const idSchema = z.string().min(1).max(64);

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

export const nameSchema = z.string().trim().min(1).max(255);
export const descriptionSchema = z.string().max(4000);

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
