import { readKey, RememberedReads } from './rememberedReads';

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

/** One connection's remembered reads, and the statement that says its version. */
class ConnectionReads {
  private readonly remembered = new RememberedReads();

  // Prepared once: it runs before every read of the connection.
  private readonly versionStatement: SqliteStatement;

  constructor(private readonly connection: ReadingConnection) {
    this.versionStatement = connection.prepare(VERSION_SQL);
  }

  read(sql: string, bindings: unknown[]): readonly unknown[] {
    const { changes, version } = this.versionStatement.get() as {
      changes: number;
      version: number;
    };
    this.remembered.moveTo(`${changes}:${version}`);
    const key = readKey(sql, bindings);
    const remembered = this.remembered.recall(key);
    if (remembered) {
      return remembered;
    }
    const rows = this.connection.prepare(sql).all(bindings);
    this.remembered.remember(key, rows);
    return rows;
  }
}

const connectionReads = new WeakMap<ReadingConnection, ConnectionReads>();

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
 * reads the clock is not sent through `readRows`.
 */
export function readRemembered(
  connection: ReadingConnection,
  sql: string,
  bindings: unknown[],
): readonly unknown[] {
  let reads = connectionReads.get(connection);
  if (!reads) {
    reads = new ConnectionReads(connection);
    connectionReads.set(connection, reads);
  }
  return reads.read(sql, bindings);
}
