import net from 'node:net';
import knexFactory, { Knex } from 'knex';
import { markDatabaseErrors } from '../database/databaseErrors';
import { CuttableProxy } from '../__testUtils__/cuttableProxy';
import { InfraDeliveryError } from './InfraDeliveryError';
import { fromLostDatabase, lostDatabaseCause } from './databaseUnavailable';

async function errorOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected the work to fail');
}

describe('fromLostDatabase', () => {
  const opened: Knex[] = [];
  afterAll(() => Promise.all(opened.map(knex => knex.destroy())));

  function client(config: Knex.Config): Knex {
    const knex = knexFactory(config);
    markDatabaseErrors(knex);
    opened.push(knex);
    return knex;
  }

  it('answers a PostgreSQL that refuses connections with 503, Retry-After and the cause', async () => {
    const knex = client({
      client: 'pg',
      // Nothing listens on port 1.
      connection: { host: '127.0.0.1', port: 1, user: 'nobody' },
      pool: { min: 0, max: 1 },
      acquireConnectionTimeout: 5_000,
    });
    const error = await errorOf(knex.select(1));
    const answer = fromLostDatabase(error);
    expect(answer).toBeInstanceOf(InfraDeliveryError);
    expect(answer!.status).toBe(503);
    expect(answer!.headers).toEqual({ 'Retry-After': '5' });
    expect(answer!.toBody()).toMatchObject({
      code: 'InfraDelivery:Database:UNAVAILABLE',
      message:
        "The service's database cannot be reached (ECONNREFUSED); try again in 5 s",
      metadata: { retryAfterSeconds: 5 },
    });
  });

  it("answers 503 when node-postgres' connectionTimeoutMillis expires (a partition, no pooled connection)", async () => {
    // Accepts connections and answers nothing, as a database behind a lost network does.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer(socket => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    const port = await new Promise<number>(resolve =>
      silent.listen(0, '127.0.0.1', () =>
        resolve((silent.address() as net.AddressInfo).port),
      ),
    );
    try {
      const knex = client({
        client: 'pg',
        connection: {
          host: '127.0.0.1',
          port,
          user: 'nobody',
          connectionTimeoutMillis: 300,
        } as Knex.PgConnectionConfig,
        pool: { min: 0, max: 1 },
        acquireConnectionTimeout: 10_000,
      });
      const error = await errorOf(knex.select(1));
      // What node-postgres 8 says: "timeout expired".
      expect(fromLostDatabase(error)?.status).toBe(503);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise(resolve => silent.close(resolve));
    }
  });

  it('finds the database error under errors that wrap it', async () => {
    const knex = client({
      client: 'pg',
      connection: { host: '127.0.0.1', port: 1, user: 'nobody' },
      pool: { min: 0, max: 1 },
    });
    const lost = await errorOf(knex.select(1));
    const wrapped = new Error('could not list runs', { cause: lost });
    expect(lostDatabaseCause(wrapped)).toBe('ECONNREFUSED');
  });

  it('leaves SQL errors to the usual answers', async () => {
    const knex = client({
      client: 'better-sqlite3',
      connection: { filename: ':memory:' },
      useNullAsDefault: true,
    });
    const error = await errorOf(knex.raw('select * from no_such_table'));
    expect(fromLostDatabase(error)).toBeUndefined();
  });

  it('does not blame the database for a connection error of anything else', () => {
    // What fetch throws when GitHub or a runner's address refuses the connection.
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
    });
    const fetchFailed = new TypeError('fetch failed', { cause: refused });
    expect(fromLostDatabase(fetchFailed)).toBeUndefined();
    expect(fromLostDatabase(refused)).toBeUndefined();
  });
});

/**
 * Knex gives a transaction's queries their own client (makeTxClient), which passes
 * `query-error` on to the pool's client and so to knex.on; BEGIN needs an acquisition, COMMIT
 * goes through the driver directly. Each is the database's when the connection is lost.
 */
describe('fromLostDatabase, in a transaction on PostgreSQL', () => {
  const connectionString =
    process.env.BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING;
  if (!connectionString) {
    it('needs PostgreSQL (BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING)', () => {
      expect(process.env.INFRA_DELIVERY_REQUIRE_POSTGRES).not.toBe('1');
    });
    return;
  }
  let proxy: CuttableProxy;
  let knex: Knex;

  beforeEach(async () => {
    const target = new URL(connectionString);
    proxy = await CuttableProxy.start({
      host: target.hostname,
      port: Number(target.port || 5432),
    });
    knex = knexFactory({
      client: 'pg',
      connection: {
        connectionString: proxy.rewrite(connectionString),
        connectionTimeoutMillis: 1_000,
        query_timeout: 1_000,
      } as Knex.PgConnectionConfig,
      pool: { min: 0, max: 2 },
      acquireConnectionTimeout: 3_000,
    });
    markDatabaseErrors(knex);
  });

  afterEach(async () => {
    await knex.destroy();
    await proxy.close();
  });

  describe.each(['refused', 'silent'] as const)('cut %s', kind => {
    it("answers 503 for a lost transaction's query", async () => {
      const error = await errorOf(
        knex.transaction(async trx => {
          await trx.raw('select 1');
          await proxy.cutOff(kind);
          await trx.raw('select 2');
        }),
      );
      expect(fromLostDatabase(error)?.status).toBe(503);
    });

    it('answers 503 for a lost COMMIT', async () => {
      const error = await errorOf(
        knex.transaction(async trx => {
          await trx.raw('select 1');
          await proxy.cutOff(kind);
        }),
      );
      expect(fromLostDatabase(error)?.status).toBe(503);
    });

    it('answers 503 for a transaction that gets no connection', async () => {
      await proxy.cutOff(kind);
      const error = await errorOf(
        knex.transaction(async trx => {
          await trx.raw('select 1');
        }),
      );
      expect(fromLostDatabase(error)?.status).toBe(503);
    });
  });
});
