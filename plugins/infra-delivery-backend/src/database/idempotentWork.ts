import { AsyncLocalStorage } from 'node:async_hooks';
import { Knex } from 'knex';
import { nowTimestamp } from './timestamps';

/** The idempotency key (its row's id) whose first request's work is running. */
const currentKey = new AsyncLocalStorage<string>();

/** Runs `work` as the work of the idempotency key `keyId` (see markIdempotentWork). */
export function runAsIdempotentWork<T>(
  keyId: string,
  work: () => Promise<T>,
): Promise<T> {
  return currentKey.run(keyId, work);
}

/**
 * In each transaction of an idempotent request's work: notes on the key's row that the work
 * committed, in the same transaction, so that the note and the work commit (or roll back)
 * together. Nothing outside such work.
 */
export async function markIdempotentWork(trx: Knex): Promise<void> {
  const keyId = currentKey.getStore();
  if (keyId) {
    await trx('idempotency_keys')
      .where({ id: keyId })
      .whereNull('applied_at')
      .update({ applied_at: nowTimestamp() });
  }
}
