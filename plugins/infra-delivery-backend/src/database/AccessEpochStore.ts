import { Knex } from 'knex';

const CURRENT_EPOCH_SQL = 'select epoch from access_epoch where id = 1';

/**
 * The access epoch (migration `20261126150000_access_epoch.js`): one counter in the database
 * that moves, in the same transaction, with every change of who may call as whom — a member's
 * role changed or the member removed, an API key deleted, a service account deleted. The
 * caller cache (auth/CallerCache.ts) reads it on every request, so a change made through any
 * backend instance sharing the database ends what every instance remembered.
 */
export class AccessEpochStore {
  constructor(private readonly db: Knex) {}

  /** The epoch now: a primary-key read of one row, sent as prepared SQL without a builder. */
  async current(): Promise<number> {
    const result = await this.db.raw(CURRENT_EPOCH_SQL);
    const rows: { epoch: number | string }[] = Array.isArray(result)
      ? result
      : result.rows;
    return Number(rows[0]?.epoch ?? 0);
  }
}

/**
 * Runs `change` and moves the access epoch in one transaction (the caller's, when `db` is
 * one): the change and the end of every cached caller commit together.
 */
export async function changingAccess<T>(
  db: Knex,
  change: (db: Knex) => Promise<T>,
): Promise<T> {
  const changeAndAdvance = async (trx: Knex) => {
    const result = await change(trx);
    await trx('access_epoch')
      .where({ id: 1 })
      .update({ epoch: trx.raw('epoch + 1') });
    return result;
  };
  return db.isTransaction
    ? changeAndAdvance(db)
    : db.transaction(changeAndAdvance);
}
