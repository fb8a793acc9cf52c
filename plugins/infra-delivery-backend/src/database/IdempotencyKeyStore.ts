import { Knex } from 'knex';
import { isUniqueViolation } from './dbErrors';
import { newId } from './ids';
import { toTimestamp } from './timestamps';

/** Who used a key for what: a key means something only within its scope. */
export interface IdempotencyScope {
  organizationId: string;
  callerId: string;
  operationId: string;
  key: string;
}

/** A key's record: still being worked on, or the answer the first request got. */
export type IdempotencyRecord =
  | {
      id: string;
      state: 'PENDING';
      requestHash: string;
      createdAt: Date;
      expiresAt: Date;
      /** Whether the first request's work committed (its answer was not recorded yet). */
      applied: boolean;
      /**
       * Until when the instance working on the first request holds the key (it renews the
       * lease while the request runs); undefined on keys written before leases existed.
       */
      leaseExpiresAt?: Date;
    }
  | {
      id: string;
      state: 'COMPLETED';
      requestHash: string;
      createdAt: Date;
      expiresAt: Date;
      responseStatus: number;
      sealedResponse: string;
    };

interface IdempotencyKeyRow {
  id: string;
  request_hash: string;
  state: 'PENDING' | 'COMPLETED';
  response_status: number | null;
  response_body: string | null;
  created_at: string | Date;
  expires_at: string | Date;
  applied_at: string | Date | null;
  lease_expires_at: string | Date | null;
}

function toRecord(row: IdempotencyKeyRow): IdempotencyRecord {
  const base = {
    id: row.id,
    requestHash: row.request_hash,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
  if (row.state === 'COMPLETED') {
    return {
      ...base,
      state: 'COMPLETED',
      responseStatus: Number(row.response_status),
      sealedResponse: row.response_body ?? '',
    };
  }
  return {
    ...base,
    state: 'PENDING',
    applied: row.applied_at !== null,
    leaseExpiresAt: row.lease_expires_at
      ? new Date(row.lease_expires_at)
      : undefined,
  };
}

function scopeWhere(scope: IdempotencyScope) {
  return {
    organization_id: scope.organizationId,
    caller_id: scope.callerId,
    operation_id: scope.operationId,
    idempotency_key: scope.key,
  };
}

/** Idempotency keys and the answers recorded under them. */
export class IdempotencyKeyStore {
  constructor(private readonly db: Knex) {}

  /**
   * Claims a key for a request, with a lease on it until `leaseExpiresAt`: the id of the new
   * PENDING row, or undefined when the key is taken already (the unique index decides between
   * concurrent claims).
   */
  async claim(
    scope: IdempotencyScope,
    requestHash: string,
    now: Date,
    expiresAt: Date,
    leaseExpiresAt: Date,
  ): Promise<string | undefined> {
    const id = newId(now.getTime());
    try {
      await this.db('idempotency_keys').insert({
        id,
        ...scopeWhere(scope),
        request_hash: requestHash,
        state: 'PENDING',
        created_at: toTimestamp(now),
        expires_at: toTimestamp(expiresAt),
        lease_expires_at: toTimestamp(leaseExpiresAt),
      });
      return id;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return undefined;
      }
      throw error;
    }
  }

  async find(scope: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    const row = await this.db<IdempotencyKeyRow>('idempotency_keys')
      .where(scopeWhere(scope))
      .first();
    return row ? toRecord(row) : undefined;
  }

  async complete(
    id: string,
    responseStatus: number,
    sealedResponse: string,
  ): Promise<void> {
    await this.db('idempotency_keys').where({ id, state: 'PENDING' }).update({
      state: 'COMPLETED',
      response_status: responseStatus,
      response_body: sealedResponse,
    });
  }

  /** Extends the lease of a key whose first request is still running; whether it still held it. */
  async renewLease(id: string, leaseExpiresAt: Date): Promise<boolean> {
    const renewed = await this.db('idempotency_keys')
      .where({ id, state: 'PENDING' })
      .update({ lease_expires_at: toTimestamp(leaseExpiresAt) });
    return renewed > 0;
  }

  /**
   * Takes over a key whose first request was cut off before its work committed: deletes its
   * row if it is still PENDING, unapplied and its lease lapsed by `now` (or, written before
   * leases existed, it was created before `createdBefore`). Whether it went. The work's own
   * transactions refuse to run once the row is gone (idempotentWork.ts).
   */
  async releaseAbandoned(
    id: string,
    now: Date,
    createdBefore: Date,
  ): Promise<boolean> {
    const deleted = await this.db('idempotency_keys')
      .where({ id, state: 'PENDING' })
      .whereNull('applied_at')
      .where(lapsed =>
        lapsed
          .where('lease_expires_at', '<=', toTimestamp(now))
          .orWhere(old =>
            old
              .whereNull('lease_expires_at')
              .where('created_at', '<=', toTimestamp(createdBefore)),
          ),
      )
      .delete();
    return deleted > 0;
  }

  /**
   * Frees a key: its request failed (and wrote nothing), its answer expired, or its work was
   * abandoned. Only the row with this id goes, never a newer claim of the same key.
   */
  async release(id: string): Promise<void> {
    await this.db('idempotency_keys').where({ id }).delete();
  }

  /**
   * Frees a key whose work never committed (idempotentWork.ts); whether it did. A key whose
   * work committed stays: sent again, its request must not be carried out a second time.
   */
  async releaseUnapplied(id: string): Promise<boolean> {
    const deleted = await this.db('idempotency_keys')
      .where({ id })
      .whereNull('applied_at')
      .delete();
    return deleted > 0;
  }

  /** Deletes the expired keys; how many went. */
  async deleteExpired(now: Date): Promise<number> {
    return this.db('idempotency_keys')
      .where('expires_at', '<=', toTimestamp(now))
      .delete();
  }
}
