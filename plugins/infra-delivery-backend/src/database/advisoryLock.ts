import { Knex } from 'knex';

/** An advisory lock held until released. */
export interface HeldLock {
  release(): Promise<void>;
}

/**
 * Takes a PostgreSQL session-level advisory lock, waiting for it, on a connection taken from
 * `knex`'s pool for as long as the lock is held; a crashed holder's lock goes with its
 * connection. Not a transaction-scoped lock: an open transaction holds up every
 * `CREATE INDEX CONCURRENTLY` in its database, and where the portal's plugins share one
 * database (`pluginDivisionMode: schema`) the catalog's first start creates its indexes so —
 * it waited for a start-up that waited for it, and the backend never started.
 */
export async function holdAdvisoryLock(
  knex: Knex,
  key: number,
): Promise<HeldLock> {
  const connection = await knex.client.acquireConnection();
  try {
    await knex.raw('SELECT pg_advisory_lock(?)', [key]).connection(connection);
  } catch (error) {
    await knex.client.releaseConnection(connection);
    throw error;
  }
  return {
    release: async () => {
      try {
        await knex
          .raw('SELECT pg_advisory_unlock(?)', [key])
          .connection(connection);
      } finally {
        await knex.client.releaseConnection(connection);
      }
    },
  };
}
