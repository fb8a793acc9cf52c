import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { readRows } from './directReads';
import { tuneSqlite } from './migrations';

jest.setTimeout(60_000);

const databases = createTestDatabases();

interface RunRow {
  id: string;
  status: string;
  attempts: number | string;
}

describe.each(databases.eachSupportedId())('readRows on %s', databaseId => {
  let knex: Knex;
  let table: string;
  let tableCounter = 0;

  beforeAll(async () => {
    knex = await databases.init(databaseId);
    await tuneSqlite(knex);
  });

  afterAll(async () => {
    await knex.destroy();
  });

  beforeEach(async () => {
    tableCounter += 1;
    table = `direct_reads_${tableCounter}`;
    await knex.schema.createTable(table, t => {
      t.string('id').primary();
      t.string('status');
      t.integer('attempts');
    });
    await knex(table).insert([
      { id: 'a', status: 'QUEUED', attempts: 1 },
      { id: 'b', status: 'RUNNING', attempts: 2 },
      { id: 'c', status: 'QUEUED', attempts: 3 },
    ]);
  });

  it('answers what Knex answers for a compiled select, a count and a raw query', async () => {
    const queued = () =>
      knex<RunRow>(table)
        .where({ status: 'QUEUED' })
        .whereIn('id', ['a', 'b', 'c'])
        .orderBy('id', 'desc');
    expect(await readRows<RunRow>(queued())).toEqual(await queued());
    expect((await readRows<RunRow>(queued())).map(r => r.id)).toEqual([
      'c',
      'a',
    ]);

    const [{ count }] = await readRows<{ count: number | string }>(
      knex(table).where('attempts', '>', 1).count({ count: '*' }),
    );
    expect(Number(count)).toBe(2);

    const raw = await readRows<{ id: string }>(
      knex.raw(`select id from ${table} where attempts >= ? order by id`, [2]),
    );
    expect(raw).toEqual([{ id: 'b' }, { id: 'c' }]);
  });

  it('announces each read as Knex does, with its SQL and bindings', async () => {
    const seen: { sql: string; bindings: unknown[] }[] = [];
    const listener = (query: { sql: string; bindings: unknown[] }) =>
      seen.push(query);
    knex.on('query', listener);
    try {
      await readRows(knex(table).where({ id: 'b' }));
    } finally {
      knex.off('query', listener);
    }
    // On PostgreSQL the snapshot read before it is announced too (postgresReadCache.ts).
    const reads = seen.filter(query => query.sql.includes(table));
    expect(reads).toHaveLength(1);
    expect(reads[0].bindings).toEqual(['b']);
    expect(seen.length).toBeLessThanOrEqual(2);
  });

  it('reads inside a transaction on its connection, seeing its uncommitted rows', async () => {
    await knex.transaction(async trx => {
      await trx(table).insert({ id: 'd', status: 'QUEUED', attempts: 0 });
      const rows = await readRows<RunRow>(
        trx<RunRow>(table).where({ status: 'QUEUED' }).orderBy('id'),
      );
      expect(rows.map(r => r.id)).toEqual(['a', 'c', 'd']);
    });
  });

  it('gives the connection back to the pool when the driver refuses the query', async () => {
    const broken = () => readRows(knex.raw('select * from no_such_table'));
    for (let i = 0; i < 12; i++) {
      await expect(broken()).rejects.toThrow(/no_such_table|no such table/);
    }
    // Every pool here is smaller than 12: a connection kept by a failed read would starve it.
    expect(await readRows<RunRow>(knex(table).where({ id: 'a' }))).toEqual([
      expect.objectContaining({ id: 'a', status: 'QUEUED' }),
    ]);
  });

  it("emits Knex's query-error for a read the driver refuses, with or without remembering", async () => {
    const seen: unknown[] = [];
    const listener = (error: unknown) => seen.push(error);
    knex.on('query-error', listener);
    try {
      const errors: unknown[] = [];
      for (const remember of [true, false]) {
        await readRows(knex.raw('select * from no_such_table'), {
          remember,
        }).catch(error => errors.push(error));
      }
      expect(errors).toHaveLength(2);
      expect(seen).toEqual(errors);
    } finally {
      knex.off('query-error', listener);
    }
  });
});
