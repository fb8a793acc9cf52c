import { LoggerService } from '@backstage/backend-plugin-api';
import { Knex } from 'knex';
import { sqliteFileOf } from './sqliteFile';
import { Worker } from 'node:worker_threads';

/** How often the worker copies the write-ahead log into the database file. */
const CHECKPOINT_INTERVAL_MS = 1000;
/**
 * The committing connection's own checkpoint threshold while the worker runs (pages of 4 KiB):
 * only reached if the worker falls behind by 40 MB. SQLite's default, restored if the worker
 * stops, is 1,000.
 */
const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/**
 * The worker, as source: it needs nothing of the plugin's and so runs the same from the
 * TypeScript sources and from a build. `driver` is better-sqlite3's resolved path.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    clearInterval(timer);
    db.close();
    parentPort.postMessage({ failed: String(error && error.message || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface SqliteCheckpointer {
  stop(): Promise<void>;
}

/**
 * Moves a file-backed SQLite database's WAL checkpoints off the event loop. SQLite checkpoints
 * in the connection that commits once the log passes 1,000 pages: better-sqlite3 runs that
 * synchronously, so the commit that crosses the line holds the process while pages are
 * copied into a database of millions of rows and synced (20–30 ms on top of the commit's own
 * ~12 ms, the longest stall of a 10,000-resource plan's ingestion: docs/benchmarks.md). A
 * worker thread with its own connection checkpoints every second instead (PASSIVE: it never
 * blocks a reader or the writer); the committing connection keeps a far threshold in case the
 * worker falls behind, and SQLite's own as soon as the worker stops. Durability is unchanged:
 * a commit is synced to the log before it is acknowledged, checkpoint or not.
 *
 * Returns undefined for other databases and for in-memory SQLite.
 */
export async function startSqliteCheckpointer(
  knex: Knex,
  logger: LoggerService,
  intervalMs = CHECKPOINT_INTERVAL_MS,
): Promise<SqliteCheckpointer | undefined> {
  if (knex.client.config.client !== 'better-sqlite3') {
    return undefined;
  }
  const file = await sqliteFileOf(knex);
  const [{ journal_mode: journalMode }] = await knex.raw<
    { journal_mode: string }[]
  >('PRAGMA journal_mode');
  if (!file || journalMode !== 'wal') {
    return undefined;
  }

  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driver: require.resolve('better-sqlite3'),
      intervalMs,
    },
  });
  // The worker must not keep a stopping process alive.
  worker.unref();
  await knex.raw(
    `PRAGMA wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`,
  );

  let stopping = false;
  const exited = new Promise<void>(resolve => worker.once('exit', resolve));
  const restoreAutocheckpoint = () =>
    knex
      .raw(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`)
      .catch(() => undefined);
  const fallBack = async (why: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    logger.warn(
      `SQLite checkpoints are back in the committing connection: ${why}`,
    );
    await restoreAutocheckpoint();
  };
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) {
      void fallBack(`the checkpoint worker failed: ${message.failed}`);
    }
  });
  worker.on('error', (error: Error) => void fallBack(error.message));
  worker.once('exit', code => void fallBack(`the worker exited (${code})`));

  return {
    async stop() {
      if (!stopping) {
        stopping = true;
        await restoreAutocheckpoint();
        worker.postMessage('stop');
      }
      await exited;
    },
  };
}
