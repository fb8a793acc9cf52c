import { Knex } from 'knex';
import { HeldLock, holdAdvisoryLock } from './advisoryLock';

/** The advisory lock key of the plugin's start-up (advisory locks are per database). */
const STARTUP_LOCK_KEY = 0x1dde1ae7;

export type StartupLock = HeldLock;

/**
 * Lets instances that start together on one PostgreSQL database go through start-up one at a
 * time: Knex's migrations (the plugin's, and the scheduler's on its first task) create their
 * lock tables without a guard, and the instances that lose that race fail to start. Held by a
 * connection outside any transaction ({@link holdAdvisoryLock}), so a crashed instance's lock
 * goes with its connection. SQLite has one writer, and one connection that must stay free, so
 * it takes no lock.
 */
export async function takeStartupLock(knex: Knex): Promise<StartupLock> {
  if (
    !['pg', 'postgres', 'postgresql'].includes(
      String(knex.client.config.client),
    )
  ) {
    return { release: async () => {} };
  }
  return holdAdvisoryLock(knex, STARTUP_LOCK_KEY);
}
