import knexFactory, { Knex } from 'knex';
import {
  cachePreparedStatements,
  cacheSqliteStatements,
} from './sqliteStatementCache';
import { inMemorySqlite } from '../__testUtils__/testDatabases';

function countingConnection() {
  const prepared: string[] = [];
  const connection = {
    prepare: (sql: string) => {
      prepared.push(sql);
      return { sql, serial: prepared.length };
    },
  };
  return { connection, prepared };
}

describe('cachePreparedStatements', () => {
  it('prepares a statement once and hands the same one out again', () => {
    const { connection, prepared } = countingConnection();
    cachePreparedStatements(connection);
    const first = connection.prepare('select 1');
    expect(connection.prepare('select 1')).toBe(first);
    expect(connection.prepare('select 2')).not.toBe(first);
    expect(prepared).toEqual(['select 1', 'select 2']);
  });

  it('keeps at most its size, dropping the least recently used', () => {
    const { connection, prepared } = countingConnection();
    cachePreparedStatements(connection, 2);
    connection.prepare('a');
    connection.prepare('b');
    connection.prepare('a'); // b is now the least recently used
    connection.prepare('c'); // evicts b
    connection.prepare('a');
    connection.prepare('b'); // prepared again
    expect(prepared).toEqual(['a', 'b', 'c', 'b']);
  });

  it('wraps a connection once however often it is asked', () => {
    const { connection, prepared } = countingConnection();
    cachePreparedStatements(connection);
    cachePreparedStatements(connection);
    connection.prepare('x');
    connection.prepare('x');
    expect(prepared).toEqual(['x']);
  });
});

describe('cacheSqliteStatements on better-sqlite3', () => {
  let knex: Knex;

  beforeEach(async () => {
    knex = inMemorySqlite();
    cacheSqliteStatements(knex);
    await knex.schema.createTable('runs', table => {
      table.string('id').primary();
      table.string('status');
    });
  });

  afterEach(() => knex.destroy());

  it('answers from reused statements with the current data', async () => {
    const connection = await knex.client.acquireConnection();
    const prepare = jest.spyOn(connection, 'prepare');
    knex.client.releaseConnection(connection);

    const statuses = () => knex('runs').orderBy('id').pluck('status');
    await knex('runs').insert({ id: 'a', status: 'QUEUED' });
    expect(await statuses()).toEqual(['QUEUED']);
    await knex('runs').where({ id: 'a' }).update({ status: 'RUNNING' });
    await knex('runs').insert({ id: 'b', status: 'QUEUED' });
    expect(await statuses()).toEqual(['RUNNING', 'QUEUED']);

    // The same SQL went to the driver three times; the wrapper is what was spied on, so the
    // calls are counted, and each returned the statement prepared the first time.
    const selects = prepare.mock.results.filter((_r, i) =>
      String(prepare.mock.calls[i][0]).startsWith('select'),
    );
    expect(selects).toHaveLength(2);
    expect(selects[0].value).toBe(selects[1].value);
  });

  it('sees a column added after the statement was first prepared', async () => {
    await knex('runs').insert({ id: 'a', status: 'QUEUED' });
    const all = () => knex('runs').select('*');
    expect(await all()).toEqual([{ id: 'a', status: 'QUEUED' }]);
    await knex.schema.alterTable('runs', table => {
      table.string('comment').defaultTo('none');
    });
    expect(await all()).toEqual([
      { id: 'a', status: 'QUEUED', comment: 'none' },
    ]);
  });

  it('rolls a failed transaction back through cached BEGIN and ROLLBACK', async () => {
    for (const id of ['a', 'b']) {
      await expect(
        knex.transaction(async trx => {
          await trx('runs').insert({ id, status: 'QUEUED' });
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
    }
    expect(await knex('runs').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('leaves other clients alone', () => {
    const pg = knexFactory({ client: 'pg' });
    const before = (pg.client as any)._query;
    cacheSqliteStatements(pg);
    expect((pg.client as any)._query).toBe(before);
    return pg.destroy();
  });
});
