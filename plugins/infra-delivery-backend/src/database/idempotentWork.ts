import { AsyncLocalStorage } from 'node:async_hooks';
import { Knex } from 'knex';
import { nowTimestamp } from './timestamps';

/**
 * The idempotency key (its row's id) whose first request's work is running, while it runs:
 * what the work leaves running in the background (a deployment's rollout) carries the same
 * context after the request ended, and must neither mark nor be fenced by the key.
 */
const currentKey = new AsyncLocalStorage<{ keyId: string; running: boolean }>();

/**
 * The key's row is gone or answered: a retry took the key over once this request's lease on it
 * lapsed. Thrown in the work's transaction, which then rolls back, so the work is done once.
 */
export class IdempotentWorkTakenOver extends Error {
  constructor(readonly keyId: string) {
    super(`Idempotency key ${keyId} was taken over by a retry`);
    this.name = 'IdempotentWorkTakenOver';
  }
}

/** Runs `work` as the work of the idempotency key `keyId` (see markIdempotentWork). */
export async function runAsIdempotentWork<T>(
  keyId: string,
  work: () => Promise<T>,
): Promise<T> {
  const context = { keyId, running: true };
  try {
    return await currentKey.run(context, work);
  } finally {
    context.running = false;
  }
}

/**
 * In each transaction of an idempotent request's work: notes on the key's row that the work
 * committed, in the same transaction, so that the note and the work commit (or roll back)
 * together. Nothing outside such work.
 *
 * The row is also the work's fence: a retry takes a key over only by deleting its row while
 * `applied_at` is null, so a transaction that finds the row gone refuses to run (it throws
 * IdempotentWorkTakenOver). On PostgreSQL the update holds the row until the transaction ends,
 * so a takeover either lands before it (and the work refuses) or waits for it (and finds the
 * work applied).
 */
export async function markIdempotentWork(trx: Knex): Promise<void> {
  const context = currentKey.getStore();
  if (context?.running) {
    const { keyId } = context;
    const noted = await trx('idempotency_keys')
      .where({ id: keyId, state: 'PENDING' })
      .update({
        applied_at: trx.raw('coalesce(applied_at, ?)', [nowTimestamp()]),
      });
    if (noted === 0) {
      throw new IdempotentWorkTakenOver(keyId);
    }
  }
}
