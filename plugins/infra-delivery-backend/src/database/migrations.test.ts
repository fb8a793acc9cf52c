import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import {
  pipelineRunTally,
  queueStackRun,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import {
  createTestDatabases,
  TestDatabaseId,
} from '../__testUtils__/testDatabases';
import { createStores } from './stores';
import { applyDatabaseMigrations, tuneSqlite } from './migrations';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/** A new database of `databaseId` with every migration applied, as the plugin starts; `database` migrates it again. */
async function migrated(databaseId: TestDatabaseId) {
  const knex = await databases.init(databaseId);
  const database = mockServices.database({ knex });
  await tuneSqlite(knex);
  await applyDatabaseMigrations(database, knex);
  return { knex, database };
}

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
      const { knex, database } = await migrated(databaseId);
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
      const { knex, database } = await migrated(databaseId);
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
      const { knex, database } = await migrated(databaseId);
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

  it.each(databases.eachSupportedId())(
    'rolls runner processes back to one row per runner id, the one seen last, on %p',
    async databaseId => {
      const { knex, database } = await migrated(databaseId);
      const stores = createStores(knex);
      const [acme, other] = await Promise.all(
        ['acme', 'other'].map(name => stores.organizations.create({ name })),
      );
      const at = (minutesAgo: number) =>
        new Date(
          Date.parse('2026-12-02T12:00:00Z') - minutesAgo * 60_000,
        ).toISOString();
      /** A claim at `minutesAgo`; runners seen since `onlineSinceMinutesAgo` are ONLINE. */
      const claim = (
        organizationId: string,
        runnerId: string,
        instanceId: string,
        hostname: string,
        minutesAgo: number,
        onlineSinceMinutesAgo = minutesAgo + 1,
      ) =>
        stores.runners.recordClaim(
          {
            organizationId,
            runnerId,
            instanceId,
            serviceAccountId: 'sa',
            labels: [],
            hostname,
            currentStepExecutionId: null,
            seenAt: at(minutesAgo),
          },
          at(onlineSinceMinutesAgo),
        );
      // Three processes of "build" start one after the other (each row newer than the last)
      // and run side by side; then the first and the third stop, and a fourth process takes
      // over the OFFLINE row seen least recently, the first's: the row with the oldest id is
      // the one seen last.
      await claim(acme.id, 'build', 'p1', 'host-a', 600);
      await claim(acme.id, 'build', 'p2', 'host-b', 590, 610);
      await claim(acme.id, 'build', 'p3', 'host-c', 580, 610);
      await claim(acme.id, 'build', 'p2', 'host-b', 120);
      await claim(acme.id, 'build', 'p4', 'host-d', 5);
      await claim(acme.id, 'solo', 'only', 'host-s', 30);
      await claim(other.id, 'build', 'q1', 'host-q', 300);
      const rowsOf = (organizationId: string) =>
        knex('runners')
          .where({ organization_id: organizationId })
          .orderBy('runner_id');
      expect(
        (await rowsOf(acme.id)).map(r => [r.runner_id, r.hostname]).sort(),
      ).toEqual([
        ['build', 'host-b'],
        ['build', 'host-c'],
        ['build', 'host-d'],
        ['solo', 'host-s'],
      ]);

      await knex.migrate.down({
        directory: path.resolve(__dirname, '../../migrations'),
        name: '20261202010000_runner_instances.js',
      });

      // One row per runner id, as before processes were told apart: the process seen last,
      // known since its runner id was first seen.
      const rows = await rowsOf(acme.id);
      expect(
        rows.map(r => ({
          runnerId: r.runner_id,
          hostname: r.hostname,
          lastSeenAt: new Date(r.last_seen_at).toISOString(),
          firstSeenAt: new Date(r.first_seen_at).toISOString(),
        })),
      ).toEqual([
        {
          runnerId: 'build',
          hostname: 'host-d',
          lastSeenAt: at(5),
          firstSeenAt: at(600),
        },
        {
          runnerId: 'solo',
          hostname: 'host-s',
          lastSeenAt: at(30),
          firstSeenAt: at(30),
        },
      ]);
      // Another organization's runner of the same id is its own.
      expect(
        (await rowsOf(other.id)).map(r => [r.runner_id, r.hostname]),
      ).toEqual([['build', 'host-q']]);
      // The unique index of the earlier schema is back.
      await expect(
        knex('runners').insert({
          ...rows[0],
          id: '0193a8c0-0000-7000-8000-0000000000ff',
        }),
      ).rejects.toThrow();

      // Up again: each runner id's row is the process of an older runner (no instance id).
      await applyDatabaseMigrations(database, knex);
      expect(
        (await rowsOf(acme.id)).map(r => [r.runner_id, r.instance_id]),
      ).toEqual([
        ['build', ''],
        ['solo', ''],
      ]);
      await knex.destroy();
    },
  );

  it.each(databases.eachSupportedId())(
    'moves the run counts to their counter rows and keeps a retry’s latest run on %p',
    async databaseId => {
      const { knex, database } = await migrated(databaseId);
      const stores = createStores(knex);
      const seed = await seedStacks(stores, 1);
      const [{ pipelineId }] = seed.stacks;
      const createRun = () => queueStackRun(stores, seed, 0);
      const [oldest, , newest] = [
        await createRun(),
        await createRun(),
        await createRun(),
      ];

      await knex.migrate.down({
        directory: path.resolve(__dirname, '../../migrations'),
        name: '20261210A0000_pipeline_run_counters.js',
      });
      expect(await knex.schema.hasTable('pipeline_run_counters')).toBe(false);
      expect(
        await knex('pipelines')
          .where({ id: pipelineId })
          .first('run_count', 'latest_run_id', 'latest_run_status'),
      ).toEqual({
        run_count: 3,
        latest_run_id: newest.id,
        latest_run_status: 'QUEUED',
      });
      // A retry, as it was kept before: the pointer moved back to an older run.
      await knex('pipelines')
        .where({ id: pipelineId })
        .update({ latest_run_id: oldest.id });

      await applyDatabaseMigrations(database, knex);
      expect(await pipelineRunTally(knex, pipelineId)).toEqual({
        runCount: 3,
        pipelineLatest: [oldest.id, 'QUEUED'],
      });
      const next = await createRun();
      expect(await pipelineRunTally(knex, pipelineId)).toEqual({
        runCount: 4,
        pipelineLatest: [next.id, 'QUEUED'],
      });
      await knex.destroy();
    },
  );

  it.each(databases.eachSupportedId())(
    'copies the stacks’ runner labels onto the steps of runs not yet ended on %p',
    async databaseId => {
      const { knex, database } = await migrated(databaseId);
      const stores = createStores(knex);
      const seed = await seedStacks(stores, 2);
      const [labeled] = seed.stacks;
      await stores.stacks.update(seed.organizationId, labeled.stackId, {
        runnerLabels: ['region=eu', 'env=prod'],
      });
      const run = (stackIndex: number) =>
        queueStackRun(stores, seed, stackIndex);
      const [waiting, ended, anyRunner] = [
        await run(0),
        await run(0),
        await run(1),
      ];
      await knex('step_executions')
        .where({ pipeline_run_id: ended.id })
        .update({ status: 'SUCCEEDED' });

      await knex.migrate.down({
        directory: path.resolve(__dirname, '../../migrations'),
        name: '20261210B0000_step_required_runner_labels.js',
      });
      await applyDatabaseMigrations(database, knex);
      const copies = async (runId: string) =>
        (
          await knex('step_executions')
            .where({ pipeline_run_id: runId })
            .orderBy('position')
        ).map(step => step.required_runner_labels);
      expect(await copies(waiting.id)).toEqual([
        '["env=prod","region=eu"]',
        '["env=prod","region=eu"]',
        '["env=prod","region=eu"]',
      ]);
      expect(await copies(ended.id)).toEqual(['[]', '[]', '[]']);
      expect(await copies(anyRunner.id)).toEqual(['[]', '[]', '[]']);
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
