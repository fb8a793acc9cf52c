import {
  DatabaseService,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import { Knex } from 'knex';
import { sqliteFileOf } from './sqliteFile';
import {
  syncSqliteCommitsOffTheLoop,
  WalSync,
  walFileSync,
} from './sqliteDurableCommits';
import { cacheSqliteStatements } from './sqliteStatementCache';
import { turnBeforeSqliteQueries } from './sqliteTurns';

const migrationsDir = resolvePackagePath(
  '@infra-delivery/plugin-infra-delivery-backend',
  'migrations',
);

/** Runs the plugin's pending migrations, unless the deployment asked to skip them. */
export async function applyDatabaseMigrations(
  database: DatabaseService,
  knex: Knex,
): Promise<void> {
  if (database.migrations?.skip) {
    return;
  }
  await knex.migrate.latest({ directory: migrationsDir });
}

/**
 * SQLite as Backstage opens it journals with DELETE and syncs fully on every commit. WAL is
 * ~4× faster for the many small transactions the engine makes, and every acknowledged write
 * is still on disk first: its commit is synced off the event loop (sqliteDurableCommits.ts).
 * In-memory databases have no journal to change. Prepared statements are reused
 * (sqliteStatementCache.ts), and the event loop turns before each query or transaction takes
 * the connection (sqliteTurns.ts).
 */
export async function tuneSqlite(
  knex: Knex,
  syncWal: (file: string) => WalSync = walFileSync,
): Promise<void> {
  if (!String(knex.client.config.client).includes('sqlite')) {
    return;
  }
  const file = await sqliteFileOf(knex);
  if (file) {
    await knex.raw('PRAGMA journal_mode = WAL');
    syncSqliteCommitsOffTheLoop(knex, syncWal(file));
  }
  await knex.raw('PRAGMA foreign_keys = ON');
  cacheSqliteStatements(knex);
  turnBeforeSqliteQueries(knex);
}
