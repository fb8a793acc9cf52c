import { Knex } from 'knex';
import { sharedPerTurn } from '../lib/sharedPerTurn';
import { readRows } from './directReads';

const CURRENT_EPOCH_SQL = 'select epoch from access_epoch where id = 1';

/**
 * The access epoch (migration `20261126150000_access_epoch.js`): one counter in the database
 * that moves, in the same transaction, with every change of who may call as whom — a member's
 * role changed or the member removed, an API key deleted, a service account deleted. The
 * caller cache (auth/CallerCache.ts) reads it on every request, so a change made through any
 * backend instance sharing the database ends what every instance remembered.
 */
export class AccessEpochStore {
  /** The read the requests of this turn of the event loop share (optimization 24). */
  private readonly shared = sharedPerTurn(() => this.read());

  constructor(private readonly db: Knex) {}

  /**
   * The epoch now. Requests that ask in the same turn of the event loop share one read, sent
   * once that turn is over, so each still sees every change committed before it arrived.
   * Inside a transaction the epoch is read on its connection at once.
   */
  current(): Promise<number> {
    return this.db.isTransaction ? this.read() : this.shared();
  }

  /**
   * A primary-key read of one row, sent to the driver directly. Not remembered: asking
   * whether anything changed since would cost as much as reading the row.
   */
  private async read(): Promise<number> {
    const rows = await readRows<{ epoch: number | string }>(
      this.db.raw(CURRENT_EPOCH_SQL),
      { remember: false },
    );
    return Number(rows[0]?.epoch ?? 0);
  }
}

/**
 * Moves the access epoch and runs `change` in one transaction (the caller's, when `db` is
 * one): the change and the end of every cached caller commit together. The epoch's row is
 * locked first, before any member, key or service account row the change locks, so that two
 * transactions changing access on PostgreSQL always take their locks in the same order (a
 * member's removal and a change of the same member's role would otherwise deadlock).
 */
export async function changingAccess<T>(
  db: Knex,
  change: (db: Knex) => Promise<T>,
): Promise<T> {
  const advanceAndChange = async (trx: Knex) => {
    await trx('access_epoch')
      .where({ id: 1 })
      .update({ epoch: trx.raw('epoch + 1') });
    return change(trx);
  };
  return db.isTransaction
    ? advanceAndChange(db)
    : db.transaction(advanceAndChange);
}

/**
 * Locks the access epoch's row until the transaction `db` ends, without moving it
 * (PostgreSQL; SQLite runs one write transaction at a time). What adds a way to call as a
 * principal (an API key) takes it before reading that the principal still exists: the
 * principal's deletion takes it (through `changingAccess`) before deleting what calls as the
 * principal, so the two run one after the other instead of leaving a key of nobody.
 */
export async function holdingAccess(db: Knex): Promise<void> {
  if (String(db.client.config.client).startsWith('pg')) {
    await db('access_epoch').where({ id: 1 }).select('epoch').forUpdate();
  }
}
