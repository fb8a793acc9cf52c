import { Knex } from 'knex';

interface AcquiringClient {
  acquireConnection(): Promise<unknown>;
}

const fromTheDatabase = new WeakSet<object>();
const marking = new WeakSet<object>();

function mark(error: unknown): void {
  if (typeof error === 'object' && error !== null) {
    fromTheDatabase.add(error);
  }
}

/**
 * Remembers every error the plugin's Knex client gives: a query's, and a failed acquisition of
 * a connection (refused, reset, the pool's timeout). A socket error of the database's connection
 * and one of a call to GitHub or AWS look alike (ECONNREFUSED, ECONNRESET); only where the error
 * came from tells a database that went away from a cloud that did not answer.
 */
export function markDatabaseErrors(knex: Knex): void {
  if (marking.has(knex.client)) {
    return;
  }
  marking.add(knex.client);
  knex.on('query-error', mark);
  const client = knex.client as unknown as AcquiringClient;
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = () =>
    acquire().catch(error => {
      mark(error);
      throw error;
    });
}

/** Whether `error` came from the plugin's database client (see markDatabaseErrors). */
export function isDatabaseError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && fromTheDatabase.has(error)
  );
}
