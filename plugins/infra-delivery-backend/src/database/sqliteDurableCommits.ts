import { Knex } from 'knex';
import { open } from 'node:fs/promises';

/** Syncs a write-ahead log: everything written to it before the call is on disk when it resolves. */
export type WalSync = () => Promise<void>;

/** The better-sqlite3 connection and statement, as far as this module uses them. */
interface SqliteConnection {
  inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  pragma(source: string): unknown;
}
interface SqliteStatement {
  readonly: boolean;
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
}

/** Knex's client, transaction and runner, as far as this module wraps them. */
interface KnexInternals {
  acquireConnection(): Promise<SqliteConnection>;
  _query(connection: SqliteConnection, query: QueryObject): Promise<unknown>;
  runner(builder: unknown): KnexRunner;
  transaction(
    container: unknown,
    config: unknown,
    outerTx?: unknown,
  ): KnexTransaction;
}
interface QueryObject {
  durable?: Promise<void>;
}
interface KnexRunner {
  query(query: QueryObject): Promise<unknown>;
  run(): Promise<unknown>;
}
interface KnexTransaction {
  _promise: Promise<unknown>;
  commit(connection: SqliteConnection, value: unknown): Promise<unknown>;
}

/** Syncs the `-wal` file of `databaseFile` from libuv's thread pool. */
export function walFileSync(databaseFile: string): WalSync {
  return async () => {
    const wal = await open(`${databaseFile}-wal`, 'r+');
    try {
      await wal.datasync();
    } finally {
      await wal.close();
    }
  };
}

/**
 * Group commit: one sync serves every write that reached the log before it started. A write
 * made while a sync runs may have missed it, so it waits for the next one, which every write
 * made meanwhile shares.
 */
export class GroupSync {
  private running?: Promise<void>;
  private next?: Promise<void>;

  constructor(private readonly sync: WalSync) {}

  /** Resolves once everything written before this call is on disk. */
  afterWrite(): Promise<void> {
    if (!this.running) {
      return this.start();
    }
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<void> {
    const running = this.sync().finally(() => {
      if (this.running === running) {
        this.running = undefined;
      }
    });
    this.running = running;
    return running;
  }
}

/** What a connection wrote that is not yet known to be on disk. */
interface ConnectionWrites {
  /** The open transaction has written. */
  dirty: boolean;
  /** Commits and writes outside a transaction so far: a caller compares before and after. */
  count: number;
  /** The sync that makes the last of them durable. */
  latest: Promise<void>;
}

const durableClients = new WeakSet<object>();

/**
 * Makes a file-backed better-sqlite3 database sync its commits off the event loop.
 *
 * With `synchronous = FULL` SQLite syncs the write-ahead log inside every COMMIT, and
 * better-sqlite3 runs COMMIT on the event loop: the whole process waits for the disk. Traced
 * under the trigger loads (docs/benchmarks.md, session 39), those syncs held the loop for 4.2 s
 * out of 45 (1,302 of them, up to 239 ms each; p99 43 ms) while other writers on the machine
 * kept the disk busy: they were the stalls of 90–670 ms that the benchmark kept finding.
 *
 * Each connection runs with `synchronous = NORMAL` instead (a COMMIT writes the log without
 * syncing it) and every write is still acknowledged only once it is on disk: a transaction's
 * promise, and a statement's outside one, resolve after a sync of the log from libuv's thread
 * pool that started after the write (`GroupSync`: concurrent commits share one sync). The
 * connection goes back to the pool first, so the next transaction runs while the disk syncs.
 * A process crash loses nothing either way (the log is in the operating system's cache); a
 * power cut loses nothing that was acknowledged. What another request reads may be newer than
 * what is on disk for the few milliseconds of a sync, as with a write it has not yet been told
 * about. Checkpoints (sqliteCheckpointer.ts) sync the log and the database file themselves.
 *
 * Transactions must await Knex's transaction promise or the transactor's `commit()` (the
 * container form and the provider form both do); the plugin has no other form. Every connection
 * Knex's pool hands out is set up on its first acquisition, before its first statement.
 */
export function syncSqliteCommitsOffTheLoop(knex: Knex, sync: WalSync): void {
  if (
    knex.client.config.client !== 'better-sqlite3' ||
    durableClients.has(knex.client)
  ) {
    return;
  }
  durableClients.add(knex.client);
  const client = knex.client as unknown as KnexInternals;
  const syncs = new GroupSync(sync);
  const writes = new WeakMap<SqliteConnection, ConnectionWrites>();
  const writesOf = (connection: SqliteConnection) => writes.get(connection);

  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = async () => {
    const connection = await acquire();
    if (!writes.has(connection)) {
      connection.pragma('synchronous = NORMAL');
      writes.set(connection, {
        dirty: false,
        count: 0,
        latest: Promise.resolve(),
      });
      noteWrites(connection, writes.get(connection)!, syncs);
    }
    return connection;
  };

  // A statement outside a transaction: the runner gives its connection back, then waits.
  const query = client._query.bind(client);
  client._query = async (connection, obj) => {
    const before = writesOf(connection)?.count;
    const result = await query(connection, obj);
    const after = writesOf(connection);
    if (after && before !== undefined && after.count > before) {
      obj.durable = after.latest;
    }
    return result;
  };
  const makeRunner = client.runner.bind(client);
  client.runner = builder => {
    const runner = makeRunner(builder);
    let durable: Promise<void> | undefined;
    const runQuery = runner.query.bind(runner);
    runner.query = async obj => {
      const result = await runQuery(obj);
      durable = obj?.durable ?? durable;
      return result;
    };
    const run = runner.run.bind(runner);
    runner.run = async () => {
      const result = await run();
      await durable;
      return result;
    };
    return runner;
  };

  // A transaction: its promise settles after Knex has given the connection back.
  const transaction = client.transaction.bind(client);
  client.transaction = (container, config, outerTx) => {
    const trx = transaction(container, config, outerTx);
    if (outerTx) {
      return trx;
    }
    let durable: Promise<void> | undefined;
    const commit = trx.commit.bind(trx);
    trx.commit = (connection, value) => {
      const before = writesOf(connection)?.count;
      const committed = commit(connection, value);
      durable = committed.then(() => {
        const after = writesOf(connection);
        return after && before !== undefined && after.count > before
          ? after.latest
          : undefined;
      });
      return committed.then(async result => {
        await durable;
        return result;
      });
    };
    trx._promise = trx._promise.then(async value => {
      await durable;
      return value;
    });
    return trx;
  };
}

/**
 * Counts a connection's commits and its writes outside a transaction, starting a sync for
 * each: every statement it prepares from now on reports what it did.
 */
function noteWrites(
  connection: SqliteConnection,
  writes: ConnectionWrites,
  syncs: GroupSync,
) {
  const durable = () => {
    writes.count++;
    writes.latest = syncs.afterWrite();
    // A caller that does not wait (none should) must not see an unhandled rejection.
    writes.latest.catch(() => undefined);
  };
  const noteStatement = (
    statement: SqliteStatement,
    wasInTransaction: boolean,
    sql: string,
  ) => {
    const inTransaction = connection.inTransaction;
    if (wasInTransaction && inTransaction) {
      writes.dirty ||= !statement.readonly;
    } else if (inTransaction) {
      writes.dirty = false;
    } else if (wasInTransaction) {
      if (writes.dirty && !/^\s*ROLLBACK\b/i.test(sql)) {
        durable();
      }
      writes.dirty = false;
    } else if (!statement.readonly) {
      durable();
    }
  };

  const wrapped = new WeakSet<SqliteStatement>();
  const prepare = connection.prepare.bind(connection);
  connection.prepare = (sql: string) => {
    const statement = prepare(sql);
    if (!wrapped.has(statement)) {
      wrapped.add(statement);
      const methods = statement.readonly
        ? (['run'] as const) // BEGIN, COMMIT and ROLLBACK are read-only statements
        : (['run', 'all', 'get'] as const);
      for (const method of methods) {
        const execute = statement[method].bind(statement);
        statement[method] = (...params: unknown[]) => {
          const inTransaction = connection.inTransaction;
          const result = execute(...params);
          noteStatement(statement, inTransaction, sql);
          return result;
        };
      }
    }
    return statement;
  };
}
