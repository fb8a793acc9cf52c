import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Knex } from 'knex';
import { takeStartupLock } from '../database/startupLock';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { startOneInstanceAtATime } from './startOneInstanceAtATime';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/** Fails where `work` has not ended in `ms`: what a lock held up would never end. */
async function within<T>(ms: number, what: string, work: Promise<T>) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: still waiting after ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Backstage's catalog creates its search index so on its first start. */
async function createIndexConcurrently(knex: Knex, table: string) {
  await knex.schema.createTable(table, t => t.string('key'));
  await knex.raw(`CREATE INDEX CONCURRENTLY ${table}_key_idx ON ${table}(key)`);
}

/** The `--config` arguments of a backend whose database is the one `knex` is connected to. */
function argvFor(knex: Knex): string[] {
  const connection = knex.client.config.connection as Knex.PgConnectionConfig;
  const file = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'infra-delivery-start-')),
    'app-config.yaml',
  );
  fs.writeFileSync(
    file,
    JSON.stringify({
      backend: {
        database: {
          client: 'pg',
          connection: {
            host: connection.host,
            port: Number(connection.port ?? 5432),
            user: connection.user,
            password: connection.password,
            database: connection.database,
          },
        },
      },
    }),
  );
  return ['node', 'backend', '--config', file];
}

const postgres = databases.supports('POSTGRES_15') ? describe : describe.skip;

postgres('start-up locks on PostgreSQL', () => {
  let knex: Knex;

  beforeAll(async () => {
    knex = await databases.init('POSTGRES_15');
  });

  it('lets the plugins of a starting backend create indexes concurrently in its database (pluginDivisionMode: schema)', async () => {
    // The catalog's first start in a database the plugins share: a start-up lock held by an
    // open transaction made it wait for the start-up that waited for it.
    await within(
      20_000,
      'the backend start',
      startOneInstanceAtATime(
        { start: () => createIndexConcurrently(knex, 'catalog_search') },
        argvFor(knex),
      ),
    );

    const built = await knex('pg_indexes')
      .where({ indexname: 'catalog_search_key_idx' })
      .select('indexname');
    expect(built).toEqual([{ indexname: 'catalog_search_key_idx' }]);
  });

  it('starts instances one at a time', async () => {
    const events: string[] = [];
    const backend = (name: string) => ({
      start: async () => {
        events.push(`${name} starts`);
        await new Promise(resolve => setTimeout(resolve, 300));
        events.push(`${name} started`);
      },
    });

    await Promise.all([
      startOneInstanceAtATime(backend('a'), argvFor(knex)),
      startOneInstanceAtATime(backend('b'), argvFor(knex)),
    ]);

    expect([
      ['a starts', 'a started', 'b starts', 'b started'],
      ['b starts', 'b started', 'a starts', 'a started'],
    ]).toContainEqual(events);
  });

  it("holds the plugin's start-up lock without holding up an index created concurrently, and one instance at a time", async () => {
    const lock = await takeStartupLock(knex);
    await within(
      20_000,
      'the index',
      createIndexConcurrently(knex, 'plugin_search'),
    );

    let second = false;
    const next = takeStartupLock(knex).then(held => {
      second = true;
      return held;
    });
    await new Promise(resolve => setTimeout(resolve, 300));
    expect(second).toBe(false);
    await lock.release();
    await (await next).release();
    expect(second).toBe(true);
  });
});
