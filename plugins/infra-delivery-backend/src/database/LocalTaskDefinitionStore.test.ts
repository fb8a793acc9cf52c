import { mockServices } from '@backstage/backend-test-utils';
import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { LocalTaskDefinitionStore } from './LocalTaskDefinitionStore';
import { applyDatabaseMigrations, tuneSqlite } from './migrations';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'the local task definition registry on %s',
  id => {
    let knex: Knex;

    beforeAll(async () => {
      knex = await databases.init(id);
      await tuneSqlite(knex);
      await applyDatabaseMigrations(mockServices.database({ knex }), knex);
    });

    afterAll(async () => {
      await knex.destroy();
    });

    it('gives registrations made at once each their own revision', async () => {
      const store = new LocalTaskDefinitionStore(knex);
      const key = { accountCloudId: '111122223333', region: 'eu-west-1' };
      const revisions = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.register({ ...key, family: 'api' }),
        ),
      );
      expect([...revisions].sort((a, b) => a - b)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8,
      ]);
      expect(await store.register({ ...key, family: 'worker' })).toBe(1);
      expect(
        await store.register({ ...key, region: 'us-east-1', family: 'api' }),
      ).toBe(1);
      expect(await store.register({ ...key, family: 'api' })).toBe(9);
    });
  },
);
