import { ConfigSources } from '@backstage/config-loader';
import knexFactory, { Knex } from 'knex';
import { holdAdvisoryLock } from '../database/advisoryLock';

/** The advisory lock of a whole backend's start-up (advisory locks are per database). */
const BACKEND_STARTUP_LOCK_KEY = 0x1dde1ae8;

/** What `createBackend()` returns, as far as starting it goes. */
export interface StartableBackend {
  start(): Promise<unknown>;
}

function isPostgres(client: string | undefined): boolean {
  return ['pg', 'postgres', 'postgresql'].includes(String(client));
}

/**
 * Starts a backend so that instances started together against one PostgreSQL server go
 * through start-up one at a time. Backstage core creates each plugin's database and runs the
 * Knex migrations of its own tables (the auth service's key store first) before any plugin
 * code runs, and Knex creates its migration lock tables without a guard: instances that lose
 * that race exit with `MigrationLocked` or "already exists" (backstage/charts#300). Here the
 * whole start-up holds an advisory lock on the configured connection's database, on a
 * connection outside any transaction ({@link holdAdvisoryLock}: a transaction would hold up
 * the catalog's `CREATE INDEX CONCURRENTLY` where plugins share that database), so a crashed
 * instance's lock goes with its connection. On SQLite, a single local instance, the backend
 * simply starts.
 */
export async function startOneInstanceAtATime(
  backend: StartableBackend,
  argv: string[] = process.argv,
): Promise<void> {
  const config = await ConfigSources.toConfig(ConfigSources.default({ argv }));
  const client = config.getOptionalString('backend.database.client');
  const connection = config.getOptional('backend.database.connection');
  config.close();
  if (!isPostgres(client) || connection === undefined) {
    await backend.start();
    return;
  }
  const knex = knexFactory({
    client: 'pg',
    connection: connection as Knex.StaticConnectionConfig,
    pool: { min: 0, max: 1 },
  });
  try {
    const lock = await holdAdvisoryLock(knex, BACKEND_STARTUP_LOCK_KEY);
    try {
      await backend.start();
    } finally {
      await lock.release();
    }
  } finally {
    await knex.destroy();
  }
}
