import { Knex } from 'knex';

/** PostgreSQL allows 65,535 bound parameters per statement. */
const MAX_PARAMETERS = 60_000;

type Value = string | number | bigint | Buffer | null;

/** better-sqlite3 binds numbers, strings, bigints, buffers and null only. */
function sqliteValue(value: unknown): Value {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as Value;
}

interface SqliteDatabase {
  prepare(sql: string): { run(...values: Value[]): unknown };
  transaction(work: () => void): () => void;
}

/**
 * Inserts `rows` in one transaction. On SQLite one prepared statement runs per row inside a
 * single driver transaction (Knex would build a compound SELECT per batch, which SQLite
 * caps at 500 rows); on PostgreSQL multi-row statements as large as the protocol allows.
 */
export async function bulkInsert(
  knex: Knex,
  table: string,
  rows: Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  if (String(knex.client.config.client).includes('sqlite')) {
    const connection =
      (await knex.client.acquireConnection()) as SqliteDatabase;
    try {
      const statement = connection.prepare(
        `INSERT INTO "${table}" (${columns
          .map(c => `"${c}"`)
          .join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      connection.transaction(() => {
        for (const row of rows) {
          statement.run(...columns.map(c => sqliteValue(row[c])));
        }
      })();
    } finally {
      await knex.client.releaseConnection(connection);
    }
    return;
  }
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  await knex.transaction(async trx => {
    for (let i = 0; i < rows.length; i += perStatement) {
      await trx(table).insert(rows.slice(i, i + perStatement));
    }
  });
}

/**
 * Collects rows and writes them `batchSize` at a time, so that a million rows never sit in
 * memory at once.
 */
export class RowWriter {
  private pending: Record<string, unknown>[] = [];
  written = 0;

  constructor(
    private readonly knex: Knex,
    private readonly table: string,
    private readonly batchSize = 20_000,
  ) {}

  async add(row: Record<string, unknown>): Promise<void> {
    this.pending.push(row);
    if (this.pending.length >= this.batchSize) {
      await this.flush();
    }
  }

  async flush(): Promise<void> {
    const rows = this.pending;
    this.pending = [];
    await bulkInsert(this.knex, this.table, rows);
    this.written += rows.length;
  }
}
