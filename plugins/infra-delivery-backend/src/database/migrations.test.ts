import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import { seedStacks } from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { createStores } from './stores';
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

  it.each(databases.eachSupportedId())(
    'adds and removes the cloud account of stacks without touching stacks or pipelines on %p',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const database = mockServices.database({ knex });
      await tuneSqlite(knex);
      await applyDatabaseMigrations(database, knex);
      const stores = createStores(knex);
      const seed = await seedStacks(stores, 1);
      const account = await stores.cloudAccounts.create({
        organizationId: seed.organizationId,
        givenId: 'production',
        name: 'Production',
        cloudId: '123456789012',
        externalId: 'external',
      });
      const [{ stackId, pipelineId }] = seed.stacks;
      await stores.stacks.update(seed.organizationId, stackId, {
        cloudAccountId: account.id,
      });

      await knex.migrate.down({
        directory: path.resolve(__dirname, '../../migrations'),
        name: '20261122090000_stack_cloud_account.js',
      });
      expect(await knex.schema.hasColumn('stacks', 'cloud_account_id')).toBe(
        false,
      );
      expect(await knex('stacks').where({ id: stackId })).toHaveLength(1);
      expect(await knex('pipelines').where({ id: pipelineId })).toHaveLength(1);

      await applyDatabaseMigrations(database, knex);
      const stack = await stores.stacks.get(seed.organizationId, stackId);
      expect(stack?.id).toBe(stackId);
      expect(stack?.cloudAccountId).toBeUndefined();
      // Adding the column again left the stack's pipelines in place too.
      expect(await knex('pipelines').where({ id: pipelineId })).toHaveLength(1);
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
