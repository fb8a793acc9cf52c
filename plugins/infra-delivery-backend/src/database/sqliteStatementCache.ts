import { Knex } from 'knex';
import { BoundedMap } from '../lib/BoundedMap';

/** Distinct statements kept per connection; a list of up to 16 values makes one SQL text per length. */
export const STATEMENT_CACHE_SIZE = 500;

interface PreparingConnection {
  prepare(sql: string): unknown;
}

interface QueryingClient {
  _query(connection: PreparingConnection, query: unknown): Promise<unknown>;
}

const cachingConnections = new WeakSet<PreparingConnection>();

/**
 * Makes a better-sqlite3 connection reuse its prepared statements. Knex's better-sqlite3
 * dialect prepares every query afresh: with a million runs that was 11% of the backend's CPU
 * while serving the runs list (docs/benchmarks.md), more than the page's own query plan
 * costs. A statement is reusable once it has finished (better-sqlite3 runs it synchronously to
 * completion) and SQLite re-prepares it by itself after a schema change. The least recently
 * used statements beyond `size` are dropped.
 */
export function cachePreparedStatements(
  connection: PreparingConnection,
  size = STATEMENT_CACHE_SIZE,
): void {
  if (cachingConnections.has(connection)) {
    return;
  }
  cachingConnections.add(connection);
  const prepare = connection.prepare.bind(connection);
  const statements = new BoundedMap<string, unknown>(size);
  connection.prepare = (sql: string) => {
    const statement = statements.get(sql) ?? prepare(sql);
    // Set again on every use: the least recently used statement is the one dropped.
    statements.set(sql, statement);
    return statement;
  };
}

/**
 * Caches prepared statements on every connection a better-sqlite3 Knex client queries, the
 * ones its pool opens later included. Other clients are left alone.
 */
export function cacheSqliteStatements(knex: Knex): void {
  if (knex.client.config.client !== 'better-sqlite3') {
    return;
  }
  const client = knex.client as unknown as QueryingClient;
  const query = client._query.bind(client);
  client._query = (connection, obj) => {
    cachePreparedStatements(connection);
    return query(connection, obj);
  };
}
