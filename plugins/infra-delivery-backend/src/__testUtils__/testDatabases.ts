import { TestDatabaseId, TestDatabases } from '@backstage/backend-test-utils';
import knexFactory, { Knex } from 'knex';

/**
 * The databases every store test runs on: SQLite always, PostgreSQL 15 when
 * `BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING` names one (the README's test command
 * sets it). With `INFRA_DELIVERY_REQUIRE_POSTGRES=1` a missing PostgreSQL fails the run
 * instead of being skipped, so CI cannot pass on SQLite alone.
 */
export function createTestDatabases(): TestDatabases {
  const databases = TestDatabases.create({
    ids: ['SQLITE_3', 'POSTGRES_15'],
    disableDocker: true,
  });
  if (
    process.env.INFRA_DELIVERY_REQUIRE_POSTGRES === '1' &&
    !databases.supports('POSTGRES_15')
  ) {
    throw new Error(
      'PostgreSQL is required (INFRA_DELIVERY_REQUIRE_POSTGRES=1) but BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING is not set',
    );
  }
  return databases;
}

/** A Knex over an in-memory better-sqlite3 database: for the helpers that only SQLite has. */
export function inMemorySqlite(): Knex {
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: ':memory:' },
    useNullAsDefault: true,
  });
}

/**
 * A Knex over a better-sqlite3 database in `filename`: for what only a file has, a second
 * connection to the same database or its write-ahead log.
 */
export function sqliteFile(filename: string, pool?: Knex.PoolConfig): Knex {
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    ...(pool ? { pool } : {}),
  });
}

export type { TestDatabaseId };
