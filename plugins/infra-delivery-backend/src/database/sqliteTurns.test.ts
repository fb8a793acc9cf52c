import knexFactory, { Knex } from 'knex';
import { turnBeforeSqliteQueries } from './sqliteTurns';
import { inMemorySqlite } from '../__testUtils__/testDatabases';

/** Counts the event loop's turns: once per check phase, as long as it runs. */
function loopTurns() {
  let turns = 0;
  let running = true;
  const turn = () => {
    turns++;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    now: () => turns,
    stop: () => {
      running = false;
    },
  };
}

/**
 * Runs `count` units of work at once; answers the turn of the event loop on which the last
 * of them finished (0: all of them in the turn that started them).
 */
async function lastFinishedOnTurn(
  count: number,
  work: (turns: () => number) => Promise<unknown>,
): Promise<number> {
  const turns = loopTurns();
  let last = 0;
  try {
    await Promise.all(
      Array.from({ length: count }, () =>
        work(turns.now).then(() => {
          last = Math.max(last, turns.now());
        }),
      ),
    );
  } finally {
    turns.stop();
  }
  return last;
}

describe('turnBeforeSqliteQueries', () => {
  let knex: Knex;

  beforeEach(async () => {
    knex = inMemorySqlite();
    await knex.schema.createTable('runs', table => {
      table.increments('id');
      table.string('status');
    });
  });

  afterEach(async () => {
    await knex.destroy();
  });

  /** What a request does: a transaction, then reads. */
  const request = async () => {
    await knex.transaction(async trx => {
      await trx('runs').insert({ status: 'QUEUED' });
      await trx('runs').update({ status: 'RUNNING' });
    });
    for (let i = 0; i < 4; i++) {
      await knex('runs').select('id').limit(1);
    }
  };

  it('is needed: without it, concurrent requests run to their end without the event loop turning', async () => {
    // better-sqlite3 answers synchronously and the pool hands the connection on through
    // promises. If Knex ever turned the loop by itself, this fails and the helper can go.
    expect(await lastFinishedOnTurn(16, request)).toBe(0);
  });

  it('turns the event loop before each query and each transaction', async () => {
    turnBeforeSqliteQueries(knex);
    // One transaction and four reads: five acquisitions, each after a turn.
    expect(await lastFinishedOnTurn(16, request)).toBeGreaterThanOrEqual(5);
    expect(await knex('runs').count({ n: '*' })).toEqual([{ n: 16 }]);
  });

  it('does not turn inside a transaction, which keeps its connection', async () => {
    turnBeforeSqliteQueries(knex);
    const spans: number[] = [];
    await lastFinishedOnTurn(4, turns =>
      knex.transaction(async trx => {
        const start = turns();
        for (let i = 0; i < 20; i++) {
          await trx('runs').insert({ status: 'QUEUED' });
        }
        spans.push(turns() - start);
      }),
    );
    expect(spans).toEqual([0, 0, 0, 0]);
  });

  it('wraps a client once, and leaves other clients alone', async () => {
    turnBeforeSqliteQueries(knex);
    const acquire = knex.client.acquireConnection;
    turnBeforeSqliteQueries(knex);
    expect(knex.client.acquireConnection).toBe(acquire);

    const pg = knexFactory({ client: 'pg' });
    const pgAcquire = pg.client.acquireConnection;
    turnBeforeSqliteQueries(pg);
    expect(pg.client.acquireConnection).toBe(pgAcquire);
    await pg.destroy();
  });
});
