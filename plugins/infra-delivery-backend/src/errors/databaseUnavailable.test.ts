import net from 'node:net';
import knexFactory, { Knex } from 'knex';
import { markDatabaseErrors } from '../database/databaseErrors';
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
