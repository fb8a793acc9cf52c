import { mockServices } from '@backstage/backend-test-utils';
import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { AccessEpochStore, changingAccess } from './AccessEpochStore';
import { applyDatabaseMigrations, tuneSqlite } from './migrations';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())('the access epoch on %s', id => {
  let knex: Knex;
  let epochReads: number;
  const countEpochReads = (query: { sql: string }) => {
    if (/from\s+"?access_epoch"?/i.test(query.sql)) epochReads += 1;
  };

  beforeAll(async () => {
    knex = await databases.init(id);
    await tuneSqlite(knex);
    await applyDatabaseMigrations(mockServices.database({ knex }), knex);
    knex.on('query', countEpochReads);
  });

  afterAll(async () => {
    knex.off('query', countEpochReads);
    await knex.destroy();
  });

  beforeEach(() => {
    epochReads = 0;
  });

  const advance = () =>
    changingAccess(knex, async () => {
      /* the change itself does not matter here */
    });

  it('gives the requests of one turn of the event loop one read', async () => {
    const store = new AccessEpochStore(knex);
    const epochs = await Promise.all(
      Array.from({ length: 8 }, () => store.current()),
    );
    expect(new Set(epochs).size).toBe(1);
    expect(epochReads).toBe(1);
  });

  it('reads again for a request that came after the shared read started', async () => {
    const store = new AccessEpochStore(knex);
    const before = await store.current();
    await advance();
    // The change committed after the first read: the next request must see it.
    expect(await store.current()).toBe(before + 1);
    expect(epochReads).toBe(2);
  });

  it('reads at once, on its connection, inside a transaction', async () => {
    const outside = await new AccessEpochStore(knex).current();
    await knex.transaction(async trx => {
      await changingAccess(trx, async () => {});
      expect(await new AccessEpochStore(trx).current()).toBe(outside + 1);
    });
  });
});
