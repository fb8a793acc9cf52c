import { ListResponse } from '../schemas';

/**
 * The items of a keyset list, page after page from its first, until the list ends or `max`
 * items are read (every item by default); with the list's whole count, for a caller that read
 * only part of it to say so.
 */
export async function readPages<T>(
  readPage: (cursor?: string) => Promise<ListResponse<T>>,
  max = Infinity,
): Promise<{ items: T[]; totalCount: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let totalCount = 0;
  do {
    const page = await readPage(cursor);
    items.push(...page.data);
    totalCount = page.meta.totalCount;
    cursor = page.meta.nextCursor;
  } while (cursor && items.length < max);
  return { items, totalCount };
}
