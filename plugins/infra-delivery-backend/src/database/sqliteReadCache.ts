/** Rows kept at most per connection, over all of its remembered reads. */
export const READ_CACHE_ROWS = 5_000;

/** A read that returns more rows than this is not remembered. */
export const READ_CACHE_ROWS_PER_READ = 1_001;

/**
 * Changes when anything in the database may have changed: `total_changes()` counts the rows
 * this connection inserted, updated or deleted since it opened; `data_version` moves when
 * another connection (of this process or another) commits.
 */
const VERSION_SQL =
  'SELECT total_changes() AS changes, data_version AS version FROM pragma_data_version';

interface SqliteStatement {
  all(bindings: unknown[]): unknown[];
  get(): unknown;
}

export interface ReadingConnection {
  prepare(sql: string): SqliteStatement;
}

/**
 * The values of a read, as the rest of its key: each with its type and its length, so that no
 * two lists of values give the same text. `JSON.stringify` of the values escaped the 8 KB JSON
 * array of a 200-id list's groups again at every read (optimization 39).
 */
function bindingsKey(bindings: unknown[]): string {
  let key = '';
  for (const value of bindings) {
    const text = valueText(value);
    key += `\u0000${typeof value}${text.length}:${text}`;
  }
  return key;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value) ?? '';
}

/** One connection's remembered reads, all taken at `version`. */
class RememberedReads {
  private version = '';
  private readonly reads = new Map<string, readonly unknown[]>();
  private rows = 0;

  // Prepared once: it runs before every read of the connection.
  private readonly versionStatement: SqliteStatement;

  constructor(private readonly connection: ReadingConnection) {
    this.versionStatement = connection.prepare(VERSION_SQL);
  }

  read(sql: string, bindings: unknown[]): unknown[] {
    const { changes, version } = this.versionStatement.get() as {
      changes: number;
      version: number;
    };
    const current = `${changes}:${version}`;
    if (current !== this.version) {
      this.version = current;
      this.reads.clear();
      this.rows = 0;
    }
    const key = sql + bindingsKey(bindings);
    const remembered = this.reads.get(key);
    if (remembered) {
      // The least recently used read is the first dropped.
      this.reads.delete(key);
      this.reads.set(key, remembered);
      return remembered as unknown[];
    }
    const rows = this.connection.prepare(sql).all(bindings);
    if (rows.length <= READ_CACHE_ROWS_PER_READ) {
      this.remember(key, rows);
    }
    return rows;
  }

  private remember(key: string, rows: unknown[]): void {
    // Shared by every later reader: a reader that changed a row would change it for all.
    for (const row of rows) Object.freeze(row);
    this.reads.set(key, Object.freeze(rows));
    this.rows += rows.length + 1;
    while (this.rows > READ_CACHE_ROWS) {
      const [oldestKey, oldest] = this.reads.entries().next().value!;
      this.reads.delete(oldestKey);
      this.rows -= oldest.length + 1;
    }
  }
}

const rememberedReads = new WeakMap<ReadingConnection, RememberedReads>();

/**
 * The rows of a read on a better-sqlite3 connection, remembered until the database changes.
 *
 * The list pages are read again and again unchanged (every open runs tab polls its page), and
 * their statements were the largest part of a page's cost: a page of 51 runs and the sum of
 * the organization's 2,000 run counters took 0.2–0.4 ms of SQLite's time per request
 * (docs/benchmarks.md, optimization 37). Each read first asks the connection whether anything
 * changed since its remembered reads were taken (one statement of a few microseconds): any
 * insert, update or delete on this connection, or any commit of another connection or
 * process, forgets them all. The same SQL with the same values then answers the same rows, so
 * they are answered from memory. Only reads outside a transaction come here, and SQL that
 * reads the clock is not sent through `readRows`. Rows are frozen when remembered: they are
 * shared by every later reader.
 */
export function readRemembered(
  connection: ReadingConnection,
  sql: string,
  bindings: unknown[],
): unknown[] {
  let reads = rememberedReads.get(connection);
  if (!reads) {
    reads = new RememberedReads(connection);
    rememberedReads.set(connection, reads);
  }
  return reads.read(sql, bindings);
}
