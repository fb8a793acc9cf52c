import { z } from 'zod';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 500;

/** Query parameters every list endpoint accepts. */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .describe(`Page size, 1..${MAX_PAGE_LIMIT}`),
  // Room for a keyset value of up to 1,024 characters (a stack state's cursor is an address).
  cursor: z
    .string()
    .min(1)
    .max(8192)
    .optional()
    .describe('Opaque cursor from `meta.nextCursor` of the previous page'),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pageMetaSchema = z
  .object({
    limit: z.number().int(),
    // Left out on the last page: the specification types it `string`, so no `null` there.
    nextCursor: z
      .string()
      .optional()
      .describe('Cursor of the next page; absent on the last page'),
    totalCount: z.number().int(),
  })
  .meta({ id: 'PageMeta' });

export type PageMeta = z.infer<typeof pageMetaSchema>;

/** `{ data: [item], meta }`: the shape of every list response. */
export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: pageMetaSchema });
}

/** `{ data: resource }`: the shape of every single-resource response. */
export function dataResponseSchema<T extends z.ZodType>(resource: T) {
  return z.object({ data: resource });
}

export type ListResponse<T> = { data: T[]; meta: PageMeta };
export type DataResponse<T> = { data: T };
