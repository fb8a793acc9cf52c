import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { applyDatabaseMigrations, tuneSqlite } from './migrations';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe('migrations', () => {
  it.each(databases.eachSupportedId())(
    'apply, roll back and apply again on %p',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const database = mockServices.database({
        knex,
        migrations: { skip: false },
      });
      await tuneSqlite(knex);
      await applyDatabaseMigrations(database, knex);
      expect(await knex.schema.hasTable('organizations')).toBe(true);

      const migrationsDir = path.resolve(__dirname, '../../migrations');
      await knex.migrate.rollback({ directory: migrationsDir }, true);
      expect(await knex.schema.hasTable('organizations')).toBe(false);

      await applyDatabaseMigrations(database, knex);
      expect(await knex.schema.hasTable('organizations')).toBe(true);
      await knex.destroy();
    },
  );

  it('honours database.migrations.skip', async () => {
    const knex = await databases.init('SQLITE_3');
    const database = mockServices.database({
      knex,
      migrations: { skip: true },
    });
    await applyDatabaseMigrations(database, knex);
    expect(await knex.schema.hasTable('organizations')).toBe(false);
    await knex.destroy();
  });
});
