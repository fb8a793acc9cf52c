import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Knex } from 'knex';
import { readRows } from './directReads';
import { sqliteFile } from '../__testUtils__/testDatabases';
import { READ_CACHE_ROWS, READ_CACHE_ROWS_PER_READ } from './rememberedReads';

interface RunRow {
  id: string;
  status: string;
}

describe('readRows on SQLite: rows remembered until the database changes', () => {
  let directory: string;
  let file: string;
  let knex: Knex;
  let executed: string[];

  beforeEach(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'read-cache-'));
    file = path.join(directory, 'db.sqlite');
    knex = sqliteFile(file, { min: 1, max: 1 });
    await knex.raw('PRAGMA journal_mode = WAL');
    await knex.schema.createTable('runs', table => {
      table.string('id').primary();
      table.string('status');
    });
    await knex('runs').insert([
      { id: 'r1', status: 'QUEUED' },
      { id: 'r2', status: 'RUNNING' },
    ]);
    // What SQLite is asked to run, seen through the connection's statements.
    executed = [];
    const connection = (await knex.client.acquireConnection()) as {
      prepare(sql: string): { all(bindings: unknown[]): unknown[] };
    };
    const prepare = connection.prepare.bind(connection);
    connection.prepare = (sql: string) => {
      const statement = prepare(sql);
      const all = statement.all.bind(statement);
      statement.all = (bindings: unknown[]) => {
        executed.push(sql);
        return all(bindings);
      };
      return statement;
    };
    await knex.client.releaseConnection(connection);
  });

  afterEach(async () => {
    await knex.destroy();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  const queued = () => knex<RunRow>('runs').where({ status: 'QUEUED' });
  const pageReads = () =>
    executed.filter(sql => sql.includes('from `runs`')).length;

  it('answers the same read again from memory, frozen, while nothing changed', async () => {
    const first = await readRows<RunRow>(queued());
    const again = await readRows<RunRow>(queued());

    expect(again).toEqual([{ id: 'r1', status: 'QUEUED' }]);
    expect(again).toBe(first);
    expect(pageReads()).toBe(1);
    expect(Object.isFrozen(again)).toBe(true);
    expect(Object.isFrozen(again[0])).toBe(true);
    // Other values are another read.
    expect(
      await readRows<RunRow>(knex<RunRow>('runs').where({ status: 'RUNNING' })),
    ).toEqual([{ id: 'r2', status: 'RUNNING' }]);
    expect(pageReads()).toBe(2);
  });

  it('keeps reads of values that would run together apart', async () => {
    await knex('runs').insert([
      { id: 'a', status: 'a' },
      { id: 'bc', status: 'bc' },
      { id: 'ab', status: 'ab' },
      { id: 'c', status: 'c' },
      { id: 'one', status: '1' },
    ]);
    const read = (...values: Knex.Value[]) =>
      readRows<{ id: string }>(
        knex.raw(
          'SELECT id FROM runs WHERE status IN (?, ?) ORDER BY id',
          values,
        ),
      );
    expect((await read('a', 'bc')).map(r => r.id)).toEqual(['a', 'bc']);
    expect((await read('ab', 'c')).map(r => r.id)).toEqual(['ab', 'c']);
    expect((await read('a\u0000string2:bc', '')).map(r => r.id)).toEqual([]);
    expect((await read(null, 'c')).map(r => r.id)).toEqual(['c']);
    expect((await read('null', 'c')).map(r => r.id)).toEqual(['c']);
    // SQLite compares a number with a text column's '1' as different: so must the key.
    expect((await read('1', 'x')).map(r => r.id)).toEqual(['one']);
    expect((await read(1, 'x')).map(r => r.id)).toEqual([]);
  });

  it('reads again after an insert, an update or a delete through the same pool', async () => {
    await readRows<RunRow>(queued());

    await knex('runs').insert({ id: 'r3', status: 'QUEUED' });
    expect((await readRows<RunRow>(queued())).map(r => r.id)).toEqual([
      'r1',
      'r3',
    ]);

    await knex('runs').where({ id: 'r1' }).update({ status: 'RUNNING' });
    expect((await readRows<RunRow>(queued())).map(r => r.id)).toEqual(['r3']);

    await knex('runs').where({ id: 'r3' }).delete();
    expect(await readRows<RunRow>(queued())).toEqual([]);
    expect(pageReads()).toBe(4);
  });

  it('reads again after another connection commits, as another process would', async () => {
    await readRows<RunRow>(queued());
    const other = sqliteFile(file);
    try {
      await other('runs').where({ id: 'r1' }).update({ status: 'FAILED' });
    } finally {
      await other.destroy();
    }

    expect(await readRows<RunRow>(queued())).toEqual([]);
  });

  it('leaves reads inside a transaction to Knex, where they see its own writes', async () => {
    await readRows<RunRow>(queued());
    await knex.transaction(async trx => {
      await trx('runs').insert({ id: 'r4', status: 'QUEUED' });
      const inside = await readRows<RunRow>(
        trx<RunRow>('runs').where({ status: 'QUEUED' }),
      );
      expect(inside.map(r => r.id)).toEqual(['r1', 'r4']);
    });
    expect((await readRows<RunRow>(queued())).map(r => r.id)).toEqual([
      'r1',
      'r4',
    ]);
  });

  it('does not remember a read of more rows than it keeps for one', async () => {
    const ids = Array.from(
      { length: READ_CACHE_ROWS_PER_READ + 1 },
      (_, i) => ({ id: `many-${String(i).padStart(5, '0')}`, status: 'MANY' }),
    );
    for (let i = 0; i < ids.length; i += 200) {
      await knex('runs').insert(ids.slice(i, i + 200));
    }
    const many = () => knex<RunRow>('runs').where({ status: 'MANY' });

    const first = await readRows<RunRow>(many());
    expect(first).toHaveLength(READ_CACHE_ROWS_PER_READ + 1);
    expect(await readRows<RunRow>(many())).not.toBe(first);
  });

  it('forgets the least recently used reads beyond the rows it keeps', async () => {
    const byId = (id: string) => knex<RunRow>('runs').where({ id });
    const first = await readRows<RunRow>(byId('r1'));
    // A read of no row counts one: this many push r1 out.
    for (let i = 0; i < READ_CACHE_ROWS; i++) {
      await readRows<RunRow>(byId(`absent-${i}`));
    }
    expect(await readRows<RunRow>(byId('r1'))).not.toBe(first);
  });
});
