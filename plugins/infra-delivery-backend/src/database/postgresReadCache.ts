import { sharedPerTurn } from '../lib/sharedPerTurn';
import { readKey, RememberedReads } from './rememberedReads';

/**
 * The transactions committed and in progress, as PostgreSQL's visibility rules see them
 * (`xmin:xmax:in-progress ids`). Two equal snapshots see the same data: a transaction that
 * commits in between leaves the in-progress list or moves `xmax`. The text is the same on
 * every database of the server, and every write anywhere on the server moves it.
 * (`txid_current_snapshot` rather than `pg_current_snapshot`: the same answer, and PostgreSQL
 * before 13 has only this one.)
 */
const SNAPSHOT_SQL = 'select txid_current_snapshot()::text as snapshot';

/** Runs a statement on a connection of the pool and gives its rows. */
export type RunStatement = (
  sql: string,
  bindings: readonly unknown[],
) => Promise<unknown[]>;

/** Whether snapshot `a` was taken before snapshot `b` (its `xmax` is lower). */
function isOlder(a: string, b: string): boolean {
  if (!b) {
    return false;
  }
  return BigInt(a.split(':')[1]) < BigInt(b.split(':')[1]);
}

/** One pool's remembered reads, and the snapshot read its reads share. */
export class PostgresReads {
  private readonly remembered = new RememberedReads();
  /**
   * The snapshot now. Reads that ask in the same turn of the event loop share one statement,
   * as the access epoch's readers do: it starts after every read that joined it was asked for.
   */
  private readonly snapshot = sharedPerTurn(async () => {
    const [row] = (await this.run(SNAPSHOT_SQL, [])) as { snapshot: string }[];
    return row.snapshot;
  });
  /** The reads sent and not yet answered, with the snapshot each was sent at. */
  private readonly sending = new Map<
    string,
    { snapshot: string; rows: Promise<readonly unknown[]> }
  >();

  constructor(private readonly run: RunStatement) {}

  /**
   * The rows of a read, remembered while the server's snapshot stays the same.
   *
   * The snapshot is read after the read was asked for, so it sees every commit made before:
   * a remembered read taken at the same snapshot saw the same data. A read taken at an
   * older snapshot than the remembered ones is answered but not remembered. Reads of the same
   * SQL and values at the same snapshot that are sent at the same time share one statement:
   * after each commit the concurrent requests of a list would otherwise all send its read.
   */
  async read(
    sql: string,
    bindings: readonly unknown[],
  ): Promise<readonly unknown[]> {
    const snapshot = await this.snapshot();
    const key = readKey(sql, bindings);
    if (snapshot === this.remembered.version) {
      const remembered = this.remembered.recall(key);
      if (remembered) {
        return remembered;
      }
    }
    const sent = this.sending.get(key);
    if (sent?.snapshot === snapshot) {
      const rows = await sent.rows;
      // Shared only when remembered, and so frozen: a reader could change rows of its own.
      if (Object.isFrozen(rows)) {
        return rows;
      }
    }
    const rows = this.send(key, snapshot, sql, bindings);
    this.sending.set(key, { snapshot, rows });
    try {
      return await rows;
    } finally {
      if (this.sending.get(key)?.rows === rows) {
        this.sending.delete(key);
      }
    }
  }

  private async send(
    key: string,
    snapshot: string,
    sql: string,
    bindings: readonly unknown[],
  ): Promise<readonly unknown[]> {
    const rows = await this.run(sql, bindings);
    // Its rows were read after `snapshot` was taken: the same data, or newer.
    if (!isOlder(snapshot, this.remembered.version)) {
      this.remembered.moveTo(snapshot);
      this.remembered.remember(key, rows);
    }
    return rows;
  }
}
