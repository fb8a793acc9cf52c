import { Knex } from 'knex';

/**
 * Lists at most this long are bound value by value (`IN (?, ?, …)`), which SQLite plans
 * best for a few statuses or kinds; longer ones go as one JSON array.
 */
const LONGEST_BOUND_LIST = 16;

function isSqlite(client: Knex.Client): boolean {
  return client.config.client === 'better-sqlite3';
}

/**
 * `column IN (values)`. On SQLite a long list (the 200 ids of #13 and #24) is bound as one JSON
 * array read through `json_each`: better-sqlite3 converts and binds each value separately, and
 * 200 ids took 360–560 µs that way against 190 µs as one array, in the same index lookups
 * (docs/benchmarks.md, optimization 36). One statement also serves every length of list, so
 * the statement cache keeps one prepared statement instead of one per length. PostgreSQL binds
 * the list as usual.
 */
export function whereInList<Q extends Knex.QueryBuilder>(
  query: Q,
  column: string,
  values: readonly string[],
): Q {
  const client = (query as unknown as { client: Knex.Client }).client;
  if (values.length > LONGEST_BOUND_LIST && isSqlite(client)) {
    return query.whereRaw('?? IN (SELECT value FROM json_each(?))', [
      column,
      JSON.stringify(values),
    ]) as Q;
  }
  return query.whereIn(column, values as string[]) as Q;
}
