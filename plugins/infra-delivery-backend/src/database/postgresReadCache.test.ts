import { TestDatabaseId } from '@backstage/backend-test-utils';
import knexFactory, { Knex } from 'knex';
import { readRows } from './directReads';
import { createTestDatabases } from '../__testUtils__/testDatabases';

jest.setTimeout(60_000);

interface RunRow {
  id: string;
  status: string;
  data: { steps: string[] } | null;
}

const databases = createTestDatabases();
const postgres = databases
  .eachSupportedId()
  .filter(([id]) => id.startsWith('POSTGRES'));
// Without a PostgreSQL to test on (a developer's machine), the suite is reported as skipped.
const describeOnPostgres =
  postgres.length > 0
    ? describe.each(postgres)
    : describe.skip.each<[TestDatabaseId]>([['POSTGRES_15']]);

describeOnPostgres(
  'readRows on %s: rows remembered while the snapshot stays the same',
  databaseId => {
    let knex: Knex;
    let statements: string[] = [];
    const listener = (query: { sql: string }) => statements.push(query.sql);

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      await knex.schema.createTable('runs', table => {
        table.string('id').primary();
        table.string('status');
        table.jsonb('data');
      });
      knex.on('query', listener);
    });

    beforeEach(async () => {
      await knex('runs').delete();
      await knex('runs').insert([
        { id: 'r1', status: 'QUEUED', data: { steps: ['plan'] } },
        { id: 'r2', status: 'RUNNING', data: null },
      ]);
      statements = [];
    });

    const queued = () =>
      knex<RunRow>('runs').where({ status: 'QUEUED' }).orderBy('id');
    const reads = () =>
      statements.filter(sql => sql.startsWith('select * from "runs"'));
    const snapshots = () =>
      statements.filter(sql => sql.includes('txid_current_snapshot'));

    it('answers the same read again from memory, deeply frozen, while nothing was committed', async () => {
      // The snapshot is the server's: a commit of another test file, in another database of
      // the same server, may fall between the two reads and rightly forget the first. The pair
      // is read again then, a few times at most: a cache that never remembers still fails.
      // Only the second read's statements are counted: after a retry the first read may itself
      // be answered from memory, by the pair before it.
      const readTwice = async () => {
        const once = await readRows<RunRow>(queued());
        statements = [];
        return [once, await readRows<RunRow>(queued())];
      };
      let [first, again] = await readTwice();
      for (let retry = 1; again !== first && retry <= 4; retry++) {
        [first, again] = await readTwice();
      }

      expect(again).toEqual([
        { id: 'r1', status: 'QUEUED', data: { steps: ['plan'] } },
      ]);
      expect(again).toBe(first);
      expect(reads()).toHaveLength(0);
      expect(snapshots()).toHaveLength(1);
      expect(Object.isFrozen(again)).toBe(true);
      expect(Object.isFrozen(again[0])).toBe(true);
      // A JSON column is an object on PostgreSQL: a reader cannot change it for the others.
      expect(Object.isFrozen(again[0].data!.steps)).toBe(true);
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
      expect(reads()).toHaveLength(4);
    });

    it('reads again after another backend instance commits on the same database', async () => {
      await readRows<RunRow>(queued());
      // Another pool of its own, as another instance of the backend would have.
      const other = knexFactory(knex.client.config);
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
          trx<RunRow>('runs').where({ status: 'QUEUED' }).orderBy('id'),
        );
        expect(inside.map(r => r.id)).toEqual(['r1', 'r4']);
        // Not committed yet: a read outside the transaction does not see it.
        expect((await readRows<RunRow>(queued())).map(r => r.id)).toEqual([
          'r1',
        ]);
      });
      expect((await readRows<RunRow>(queued())).map(r => r.id)).toEqual([
        'r1',
        'r4',
      ]);
    });

    it('shares one snapshot read between the reads asked for in one turn', async () => {
      const [a, b] = await Promise.all([
        readRows<RunRow>(queued()),
        readRows<RunRow>(knex<RunRow>('runs').where({ id: 'r2' })),
      ]);

      expect(a.map(r => r.id)).toEqual(['r1']);
      expect(b.map(r => r.id)).toEqual(['r2']);
      expect(snapshots()).toHaveLength(1);
    });

    it('sends one statement for the same read asked for by several at once', async () => {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => readRows<RunRow>(queued())),
      );

      for (const answer of answers) expect(answer).toBe(answers[0]);
      expect(answers[0].map(r => r.id)).toEqual(['r1']);
      expect(reads()).toHaveLength(1);
    });

    it('sends a read that is not to be remembered every time, without a snapshot', async () => {
      await readRows<RunRow>(queued(), { remember: false });
      const again = await readRows<RunRow>(queued(), { remember: false });

      expect(again.map(r => r.id)).toEqual(['r1']);
      expect(reads()).toHaveLength(2);
      expect(snapshots()).toHaveLength(0);
      expect(Object.isFrozen(again)).toBe(false);
    });
  },
);

// Without PostgreSQL (no connection string), there is nothing to run above.
it('runs on PostgreSQL when the test databases include it', () => {
  expect(postgres.length).toBe(databases.supports('POSTGRES_15') ? 1 : 0);
});
