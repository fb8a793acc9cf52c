import { Knex } from 'knex';
import { cachePreparedStatements } from './sqliteStatementCache';
import { PostgresReads } from './postgresReadCache';
import { ReadingConnection, readRemembered } from './sqliteReadCache';

interface PgConnection {
  query(config: {
    text: string;
    values: readonly unknown[];
  }): Promise<{ rows: unknown[] }>;
}

/** The parts of Knex's client a direct read uses. */
interface PoolingClient {
  config: Knex.Config;
  /** Set on the client of a transaction, whose queries keep its connection. */
  transacting?: boolean;
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
  /** better-sqlite3's conversion of Dates and booleans, as Knex applies it. */
  _formatBindings?(bindings: readonly unknown[]): unknown[];
  emit(event: 'query', query: object): boolean;
  emit(event: 'query-error', error: unknown, query: object): boolean;
}

type Driver = 'better-sqlite3' | 'pg';

/**
 * Whether a query of `client` can be sent directly: not in a transaction (its reads stay on
 * its connection, through Knex), of a driver this module knows, with no response hook of the
 * deployment's that Knex would have applied.
 */
function directDriverOf(client: PoolingClient): Driver | undefined {
  const { client: driver, postProcessResponse } = client.config;
  if (client.transacting || postProcessResponse) {
    return undefined;
  }
  return driver === 'better-sqlite3' || driver === 'pg' ? driver : undefined;
}

/** Each pool's remembered reads on PostgreSQL. */
const postgresReads = new WeakMap<PoolingClient, PostgresReads>();

/** A statement sent on a connection of `client`'s pool, with Knex's `query` event. */
async function runOnPool(
  client: PoolingClient,
  sql: string,
  bindings: readonly unknown[],
): Promise<unknown[]> {
  const connection = await client.acquireConnection();
  try {
    const query = emitQuery(client, connection, sql, bindings);
    try {
      const result = await (connection as PgConnection).query({
        text: sql,
        values: bindings,
      });
      return result.rows;
    } catch (error) {
      // As Knex does for its own queries: listeners (databaseErrors.ts) see the failure.
      client.emit('query-error', error, query);
      throw error;
    }
  } finally {
    await client.releaseConnection(connection);
  }
}

function emitQuery(
  client: PoolingClient,
  connection: unknown,
  sql: string,
  bindings: readonly unknown[],
): object {
  const query = {
    __knexUid: (connection as { __knexUid?: string }).__knexUid,
    method: 'select',
    sql,
    bindings,
  };
  client.emit('query', query);
  return query;
}

export interface ReadOptions {
  /**
   * Whether the rows may be answered from, and kept in, the remembered reads (the default).
   * Not for a read that is cheaper sent than asking whether anything changed (the access
   * epoch every request reads first), one a write follows at once (a trigger's pipeline: the
   * write forgets it), or one bound to the clock, which is never asked for again.
   */
  remember?: boolean;
}

/**
 * The rows a read returns, sent straight to the driver on a connection of Knex's own pool,
 * and remembered until the database changes.
 *
 * Knex's runner costs about 35 µs of CPU per query beyond compiling it and the driver's own
 * work (acquiring through its runner, events, response processing, a dozen promise steps);
 * for the hot reads — the access epoch every request reads, the pages and counts of the
 * lists — that was more than their SQL (docs/benchmarks.md, optimization 21). The query is
 * still built and compiled by Knex; only its execution is direct: the connection comes from
 * the same pool (so SQLite's turn before each acquisition and its prepared statements still
 * apply), Knex's `query` event is still emitted, and the rows are what Knex would return for
 * a select. The rows are remembered until the database changes, on SQLite
 * (database/sqliteReadCache.ts) and on PostgreSQL (database/postgresReadCache.ts); they are
 * then frozen. Inside a transaction, or with a client this module does not know, the query
 * runs through Knex as usual. SQL that reads the clock must not be sent through here.
 */
export async function readRows<Row>(
  query: Knex.QueryBuilder | Knex.Raw,
  options: ReadOptions = {},
): Promise<readonly Readonly<Row>[]> {
  // A raw query keeps its client too, though Knex's types only declare the builder's.
  const client = (query as unknown as { client: PoolingClient }).client;
  const driver = directDriverOf(client);
  if (!driver) {
    const result = await query;
    return (Array.isArray(result) ? result : result.rows) as Row[];
  }
  const remember = options.remember ?? true;
  const { sql, bindings } = query.toSQL().toNative();
  if (driver === 'pg') {
    if (!remember) {
      return (await runOnPool(client, sql, bindings)) as Row[];
    }
    let reads = postgresReads.get(client);
    if (!reads) {
      reads = new PostgresReads((text, values) =>
        runOnPool(client, text, values),
      );
      postgresReads.set(client, reads);
    }
    return (await reads.read(sql, bindings)) as Row[];
  }
  const connection = await client.acquireConnection();
  try {
    const emitted = emitQuery(client, connection, sql, bindings);
    const sqlite = connection as ReadingConnection;
    cachePreparedStatements(sqlite);
    const values = client._formatBindings
      ? client._formatBindings(bindings)
      : [...bindings];
    try {
      return (
        remember
          ? readRemembered(sqlite, sql, values)
          : sqlite.prepare(sql).all(values)
      ) as Row[];
    } catch (error) {
      // As on PostgreSQL (runOnPool): listeners (databaseErrors.ts) see the failure.
      client.emit('query-error', error, emitted);
      throw error;
    }
  } finally {
    await client.releaseConnection(connection);
  }
}

/** The first row of a read (it is limited to one), sent as `readRows` sends it. */
export async function readFirst<Row>(
  query: Knex.QueryBuilder,
  options: ReadOptions = {},
): Promise<Row | undefined> {
  const [row] = await readRows<Row>(query.limit(1), options);
  return row;
}
