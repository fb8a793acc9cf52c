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

  it.each(databases.eachSupportedId())(
    'fills a stack’s applied input from its latest change run that succeeded on %p',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const database = mockServices.database({ knex });
      await tuneSqlite(knex);
      await applyDatabaseMigrations(database, knex);
      const stores = createStores(knex);
      const seed = await seedStacks(stores, 2);
      const [applied, never] = seed.stacks;
      const run = async (
        input: Record<string, unknown> | undefined,
        status: string,
        completedAt: string,
        kind = 'STANDARD',
      ) => {
        const created = await stores.pipelineRuns.createRun({
          organizationId: seed.organizationId,
          pipelineId: applied.pipelineId,
          pipelineVersionId: applied.versionId,
          projectId: seed.projectId,
          attachedEntityId: applied.stackId,
          attachedEntityType: 'STACK',
          input,
          steps: [],
        });
        await knex('pipeline_runs')
          .where({ id: created.id })
          .update({ status, kind, completed_at: new Date(completedAt) });
      };
      await run({ threshold: 80 }, 'SUCCEEDED', '2026-11-01T10:00:00Z');
      await run({ threshold: 90 }, 'SUCCEEDED', '2026-11-02T10:00:00Z');
      // Neither a failed run nor a drift check applied its input.
      await run({ threshold: 95 }, 'FAILED', '2026-11-03T10:00:00Z');
      await run(undefined, 'SUCCEEDED', '2026-11-04T10:00:00Z', 'DRIFT_CHECK');

      await knex.migrate.down({
        directory: path.resolve(__dirname, '../../migrations'),
        name: '20261129040000_stack_applied_input.js',
      });
      expect(await knex.schema.hasColumn('stacks', 'applied_input')).toBe(
        false,
      );
      await applyDatabaseMigrations(database, knex);

      const inputOf = async (stackId: string) =>
        (await stores.stacks.get(seed.organizationId, stackId))?.appliedInput;
      expect(await inputOf(applied.stackId)).toEqual({ threshold: 90 });
      expect(await inputOf(never.stackId)).toBeUndefined();
      await knex.destroy();
    },
  );

  it.each(databases.eachSupportedId())(
    'gives repeated service-account names a number, the oldest keeping its own, and refuses new repeats on %p',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const database = mockServices.database({ knex });
      await tuneSqlite(knex);
      await applyDatabaseMigrations(database, knex);
      await knex.migrate.down({
        directory: path.resolve(__dirname, '../../migrations'),
        name: '20261129010000_service_account_names_unique.js',
      });
      const stores = createStores(knex);
      const [acme, other] = await Promise.all(
        ['acme', 'other'].map(name => stores.organizations.create({ name })),
      );
      const account = (organizationId: string, name: string) =>
        stores.serviceAccounts.create({
          organizationId,
          name,
          role: 'MEMBER',
          createdById: 'owner',
        });
      const oldest = await account(acme.id, 'Runner');
      const taken = await account(acme.id, 'Runner (2)');
      const second = await account(acme.id, 'Runner');
      const third = await account(acme.id, 'Runner');
      const elsewhere = await account(other.id, 'Runner');

      await applyDatabaseMigrations(database, knex);

      const nameOf = async (id: string) =>
        (await knex('service_accounts').where({ id }).first()).name;
      expect(await nameOf(oldest.id)).toBe('Runner');
      expect(await nameOf(taken.id)).toBe('Runner (2)');
      expect(await nameOf(second.id)).toBe('Runner (3)');
      expect(await nameOf(third.id)).toBe('Runner (4)');
      expect(await nameOf(elsewhere.id)).toBe('Runner');
      await expect(account(acme.id, 'Runner')).rejects.toThrow();
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
