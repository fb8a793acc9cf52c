import { Knex } from 'knex';

/** The advisory lock key of the plugin's start-up (advisory locks are per database). */
const STARTUP_LOCK_KEY = 0x1dde1ae7;

export interface StartupLock {
  release(): Promise<void>;
}

/**
 * Lets instances that start together on one PostgreSQL database go through start-up one at a
 * time: Knex's migrations (the plugin's, and the scheduler's on its first task) create their
 * lock tables without a guard, and the instances that lose that race fail to start. Held by an
 * open transaction, so a crashed instance's lock goes with its connection. SQLite has one
 * writer, and one connection that must stay free, so it takes no lock.
 */
export async function takeStartupLock(knex: Knex): Promise<StartupLock> {
  if (
    !['pg', 'postgres', 'postgresql'].includes(
      String(knex.client.config.client),
    )
  ) {
    return { release: async () => {} };
  }
  const holder = await knex.transaction();
  try {
    await holder.raw('SELECT pg_advisory_xact_lock(?)', [STARTUP_LOCK_KEY]);
  } catch (error) {
    await holder.rollback();
    throw error;
  }
  return { release: () => holder.commit().then(() => undefined) };
}
