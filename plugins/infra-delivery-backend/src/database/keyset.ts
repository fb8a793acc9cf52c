import { Knex } from 'knex';
import { readRows } from './directReads';

/** A page of rows in id order (newest first) and the total the filter matches. */
export interface KeysetPage<T> {
  items: T[];
  totalCount: number;
  /** The id to continue after, when there is a next page. */
  nextAfterId?: string;
}

export interface KeysetRequest {
  limit: number;
  /** Continue after this id (exclusive). */
  afterId?: string;
}

/** Lists are newest first; logs read oldest first. */
export type KeysetOrder = 'desc' | 'asc';

/**
 * Newest-first keyset pagination on the time-ordered primary key. The filter goes in `query`
 * (without order or limit); one more row than asked tells whether a next page exists, so a
 * page costs one index range scan however deep it is. The count runs on the same filter and
 * needs an index that covers it. Both are sent to the driver directly (database/directReads.ts).
 */
export async function keysetPage<Row, T>(
  query: Knex.QueryBuilder,
  idColumn: string,
  request: KeysetRequest,
  mapRow: (row: Row) => T,
  order: KeysetOrder = 'desc',
  /** The total from somewhere cheaper than counting the filter's rows (a kept counter). */
  totalCount?: () => Promise<number>,
): Promise<KeysetPage<T>> {
  const countQuery = totalCount
    ? totalCount().then(count => [{ count }])
    : readRows<{ count: number | string }>(
        query.clone().clearSelect().count({ count: '*' }),
      );
  const pageQuery = query
    .clone()
    .orderBy(idColumn, order)
    .limit(request.limit + 1);
  if (request.afterId) {
    pageQuery.where(idColumn, order === 'desc' ? '<' : '>', request.afterId);
  }
  const [rows, [{ count }]] = await Promise.all([
    readRows(pageQuery),
    countQuery,
  ]);
  const hasMore = rows.length > request.limit;
  const pageRows = (hasMore ? rows.slice(0, request.limit) : rows) as Row[];
  return {
    items: pageRows.map(mapRow),
    totalCount: Number(count),
    nextAfterId: hasMore
      ? String(
          (pageRows[pageRows.length - 1] as Record<string, unknown>)[
            idColumn.split('.').pop()!
          ] as string | number,
        )
      : undefined,
  };
}
