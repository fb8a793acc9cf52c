import { Knex } from 'knex';
import { createStores, Stores } from './pluginInternals';

export interface Statement {
  sql: string;
  bindings: unknown[];
}

export interface SqlFloorResult {
  statements: number;
  p50: number;
  p99: number;
  requestsPerSecond: number;
}

/** The statements Knex sends for one store call, as the driver receives them. */
export async function captureStatements(
  knex: Knex,
  call: (stores: Stores) => Promise<unknown>,
): Promise<Statement[]> {
  const captured: Statement[] = [];
  const listener = (query: { sql: string; bindings?: unknown[] }) => {
    captured.push({ sql: query.sql, bindings: query.bindings ?? [] });
  };
  knex.on('query', listener);
  try {
    await call(createStores(knex));
  } finally {
    knex.off('query', listener);
  }
  return captured;
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[
    Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))
  ];
}

type Executor = (statement: Statement) => Promise<unknown> | unknown;

interface SqliteStatement {
  reader: boolean;
  all(...values: unknown[]): unknown;
  run(...values: unknown[]): unknown;
}

function sqliteValue(value: unknown) {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** PostgreSQL wants `$n` placeholders; Knex's query event shows `?`. */
function positional(sql: string) {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * Runs the captured statements of one request straight through the driver — better-sqlite3's
 * prepared statements, or node-postgres on pooled connections — `concurrency` requests at a
 * time for `seconds`, and reports per-request latency and throughput.
 */
export async function measureSqlFloor(
  knex: Knex,
  statements: Statement[],
  options: { concurrency: number; seconds: number },
): Promise<SqlFloorResult> {
  const isSqlite = String(knex.client.config.client).includes('sqlite');
  const connections: unknown[] = [];
  const workers = isSqlite ? 1 : options.concurrency;
  for (let i = 0; i < workers; i++) {
    connections.push(await knex.client.acquireConnection());
  }
  const executorFor = (connection: any): Executor => {
    if (isSqlite) {
      const prepared = new Map<string, SqliteStatement>();
      return statement => {
        let stmt = prepared.get(statement.sql);
        if (!stmt) {
          stmt = connection.prepare(statement.sql) as SqliteStatement;
          prepared.set(statement.sql, stmt);
        }
        const values = statement.bindings.map(sqliteValue);
        return stmt.reader ? stmt.all(...values) : stmt.run(...values);
      };
    }
    return statement =>
      connection.query(positional(statement.sql), statement.bindings);
  };
  const latencies: number[] = [];
  const deadline = Date.now() + options.seconds * 1000;
  const started = process.hrtime.bigint();
  try {
    await Promise.all(
      connections.map(async connection => {
        const execute = executorFor(connection);
        while (Date.now() < deadline) {
          const t0 = process.hrtime.bigint();
          // The store sends a page's statements together; the driver runs them in turn.
          await Promise.all(statements.map(s => execute(s)));
          latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
      }),
    );
  } finally {
    for (const connection of connections) {
      await knex.client.releaseConnection(connection);
    }
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    statements: statements.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requestsPerSecond: latencies.length / elapsed,
  };
}
