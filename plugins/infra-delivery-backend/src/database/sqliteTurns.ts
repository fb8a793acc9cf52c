import { Knex } from 'knex';

interface AcquiringClient {
  acquireConnection(): Promise<unknown>;
}

const turning = new WeakSet<object>();

/**
 * Lets the event loop turn before each acquisition of a better-sqlite3 connection.
 *
 * better-sqlite3 answers synchronously and Knex's pool hands a released connection to the
 * next waiter through a promise, so under concurrent requests one query's end starts the next
 * query (or transaction) in the same run of the microtask queue: with 16 requests waiting, a
 * chain of their statements and transactions ran for 50–130 ms without the event loop taking
 * a single turn, and timers, new connections and the answers already computed waited for the
 * whole chain (docs/benchmarks.md, optimization 16). One turn before each acquisition bounds
 * such a chain to one query or one transaction. Statements inside a transaction keep their
 * connection and do not wait.
 */
export function turnBeforeSqliteQueries(knex: Knex): void {
  if (
    knex.client.config.client !== 'better-sqlite3' ||
    turning.has(knex.client)
  ) {
    return;
  }
  turning.add(knex.client);
  const client = knex.client as unknown as AcquiringClient;
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = () =>
    new Promise(resolve => setImmediate(resolve)).then(acquire);
}
