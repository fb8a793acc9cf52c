import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { whereInList } from './idLists';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/** Ids a JSON array has to escape, beside ordinary ones. */
const awkwardIds = [
  'it\'s "quoted"',
  'back\\slash',
  'ünïcödé ✓',
  'tab\tand\nline',
];

describe.each(databases.eachSupportedId())('whereInList on %s', databaseId => {
  let knex: Knex;
  const allIds = [
    ...Array.from({ length: 40 }, (_, i) => `id-${String(i).padStart(2, '0')}`),
    ...awkwardIds,
  ];

  beforeAll(async () => {
    knex = await databases.init(databaseId);
    await knex.schema.createTable('listed', t => {
      t.string('id').primary();
      t.string('kind');
    });
    await knex('listed').insert(
      allIds.map((id, i) => ({ id, kind: i % 2 ? 'odd' : 'even' })),
    );
  });

  afterAll(async () => {
    await knex.destroy();
  });

  const idsIn = async (values: string[]) =>
    (
      await whereInList(knex('listed').select('id'), 'id', values).orderBy('id')
    ).map((row: { id: string }) => row.id);

  it('finds exactly the listed rows, for a short list and a long one', async () => {
    const short = ['id-03', 'id-07', 'missing'];
    expect(await idsIn(short)).toEqual(['id-03', 'id-07']);

    const long = [...allIds.filter((_, i) => i % 3 === 0), 'missing', 'id-01'];
    expect(long.length).toBeGreaterThan(16);
    expect(await idsIn(long)).toEqual(
      allIds.filter(id => long.includes(id)).sort(),
    );
  });

  it('matches ids that JSON has to escape, in a long list', async () => {
    const long = [...allIds.slice(0, 20), ...awkwardIds];
    expect(await idsIn(long)).toEqual([...long].sort());
  });

  it('combines with the query’s other conditions, duplicates counted once', async () => {
    const long = [...allIds.slice(0, 30), ...allIds.slice(0, 30)];
    const rows = await whereInList(
      knex('listed').where({ kind: 'odd' }),
      'id',
      long,
    ).count({ count: '*' });
    expect(Number(rows[0].count)).toBe(15);
  });

  it('sends a long list as one value on SQLite and value by value on PostgreSQL', () => {
    const long = allIds.slice(0, 30);
    const sent = whereInList(knex('listed').select('id'), 'id', long).toSQL();
    const onSqlite = databaseId.startsWith('SQLITE');
    expect(sent.sql.includes('json_each')).toBe(onSqlite);
    expect(sent.bindings).toEqual(onSqlite ? [JSON.stringify(long)] : long);

    const short = whereInList(knex('listed'), 'id', long.slice(0, 3)).toSQL();
    expect(short.bindings).toEqual(long.slice(0, 3));
  });
});
