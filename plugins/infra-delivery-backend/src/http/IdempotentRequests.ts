import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SecretCipher } from '../auth/SecretCipher';
import {
  IdempotencyKeyStore,
  IdempotencyRecord,
  IdempotencyScope,
} from '../database/IdempotencyKeyStore';
import {
  IdempotentWorkTakenOver,
  runAsIdempotentWork,
} from '../database/idempotentWork';
import { InfraDeliveryError } from '../errors';

/** Sent with an answer that was recorded earlier, not produced by this request. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * How long a recorded answer is replayed; how long a request waits for another's; how long the
 * instance working on a key's first request holds it, and how often it renews that hold while
 * the request runs; and after how long a key written without a lease (before leases existed)
 * counts as abandoned.
 */
export interface IdempotencyTimings {
  retentionMs: number;
  waitMs: number;
  pollMs: number;
  leaseMs: number;
  leaseRenewalMs: number;
  abandonedAfterMs: number;
}

export const DEFAULT_IDEMPOTENCY_TIMINGS: IdempotencyTimings = {
  retentionMs: 24 * 60 * 60 * 1000,
  waitMs: 30_000,
  pollMs: 25,
  // Renewed three times per lease: two renewals may be late or lost (a busy event loop, a
  // database restart) before a retry takes the key over.
  leaseMs: 10_000,
  leaseRenewalMs: 3_000,
  abandonedAfterMs: 5 * 60 * 1000,
};

/** The answer of an idempotent request: fresh, or replayed from the first request. */
export interface IdempotentAnswer {
  status: number;
  body: unknown;
  replayed: boolean;
}

/** The key as sent, or undefined without the header; a malformed key is a 400. */
export function idempotencyKeyOf(
  header: string | undefined,
): string | undefined {
  if (header === undefined) {
    return undefined;
  }
  if (!KEY_FORMAT.test(header)) {
    throw new InfraDeliveryError({
      status: 400,
      entity: 'IdempotencyKey',
      reason: 'INVALID',
      message:
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters',
    });
  }
  return header;
}

/** Object keys sorted at every depth, so that equal JSON values hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      // Keys of one object are distinct: never equal.
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a request asks for: its path parameters, query and body, hashed. */
export function requestHashOf(request: {
  params: unknown;
  query: unknown;
  body: unknown;
}): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

function mismatch(): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 422,
    entity: 'IdempotencyKey',
    reason: 'REUSED_WITH_DIFFERENT_REQUEST',
    message:
      'This Idempotency-Key was used for a different request; use a new key for a new request',
  });
}

function answerLost(): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 409,
    entity: 'IdempotencyKey',
    reason: 'ANSWER_LOST',
    message:
      'The request with this Idempotency-Key was carried out, but its answer was lost before it was recorded',
    description:
      "A restart or an outage of the service's database came between the work and the record of its answer. What it made is there (look at the runs, deployments or API keys); sending it again with this key does nothing, and with a new key would do it a second time.",
  });
}

function stillInProgress(): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 409,
    entity: 'IdempotencyKey',
    reason: 'IN_PROGRESS',
    message:
      'A request with this Idempotency-Key is still being processed; retry later',
    description:
      'The same request was sent before and is still under way: the service is working on it now. Sent again once it ends, this request gets its answer; it is never carried out twice.',
    metadata: { retryAfterSeconds: 1 },
    headers: { 'Retry-After': '1' },
  });
}

function takenOver(): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 409,
    entity: 'IdempotencyKey',
    reason: 'TAKEN_OVER',
    message:
      'This request stalled and the same request sent again with its Idempotency-Key was carried out instead',
    description:
      "The service lost its hold on the key while this request waited (a stalled instance or database), and a retry took it over. Nothing was done by this request; the retry's answer is the one to use, and sending it again with this key replays that answer.",
  });
}

/**
 * Idempotency keys for the POSTs that start work (the operations flagged `idempotent`).
 *
 * The first request with a key claims it by inserting a PENDING row; the unique index over
 * organization, caller, operation and key makes that claim atomic across instances. The
 * claimant does the work and records the answer (sealed: an API key's answer holds its
 * secret). Concurrent requests with the same key wait for that answer and return it, so ten
 * identical requests create one resource and all get the same answer; a request that cannot
 * get it within `waitMs` is a 409 IN_PROGRESS. The same key with another request is a 422.
 *
 * Only successes are recorded. A request that fails before its work committed frees its key,
 * and a retry (or a waiting request) runs the work again. Each transaction of the work notes
 * on the key that it committed (idempotentWork.ts), in itself.
 *
 * Telling a lost request from a slow one: the claimant holds a lease on the key (`leaseMs`)
 * and renews it while the work runs. A key left PENDING with its lease lapsed was cut off (its
 * instance was killed, or the database went away before the answer was recorded): a retry is
 * answered ANSWER_LOST if its work committed, and otherwise takes the key over and does the
 * work. The takeover deletes the key's row only while the work is unapplied, and the work's
 * transactions refuse to run once the row is gone (TAKEN_OVER), so even a claimant that only
 * stalled past its lease never does the work a second time. Instances' clocks are compared
 * through the lease: keep them within a few seconds of each other (NTP). Keys are scoped by
 * caller, so a recorded answer never reaches anyone but the caller who made it; they expire
 * after `retentionMs`.
 */
export class IdempotentRequests {
  constructor(
    private readonly store: IdempotencyKeyStore,
    private readonly cipher: SecretCipher,
    private readonly timings: IdempotencyTimings = DEFAULT_IDEMPOTENCY_TIMINGS,
  ) {}

  async answer(
    scope: IdempotencyScope,
    requestHash: string,
    work: () => Promise<{ status: number; body: unknown }>,
  ): Promise<IdempotentAnswer> {
    const deadline = Date.now() + this.timings.waitMs;
    for (;;) {
      const now = new Date();
      const claimed = await this.store.claim(
        scope,
        requestHash,
        now,
        new Date(now.getTime() + this.timings.retentionMs),
        new Date(now.getTime() + this.timings.leaseMs),
      );
      if (claimed) {
        return this.doWork(claimed, work);
      }
      const record = await this.store.find(scope);
      if (record && record.expiresAt <= now) {
        await this.store.release(record.id);
        continue;
      }
      const sameRequest = record?.requestHash === requestHash;
      if (record?.state === 'PENDING' && this.cutOff(record, now)) {
        if (record.applied) {
          // Its work committed: carrying it out again would do it twice.
          throw sameRequest ? answerLost() : mismatch();
        }
        // Its work never committed: taken over, unless it committed or renewed meanwhile.
        await this.store.releaseAbandoned(
          record.id,
          now,
          new Date(now.getTime() - this.timings.abandonedAfterMs),
        );
        continue;
      }
      if (record && !sameRequest) {
        throw mismatch();
      }
      if (record?.state === 'COMPLETED') {
        return {
          status: record.responseStatus,
          body: JSON.parse(
            this.cipher.open(
              record.sealedResponse,
              this.sealContext(record.id),
            ),
          ),
          replayed: true,
        };
      }
      if (Date.now() >= deadline) {
        throw stillInProgress();
      }
      await sleep(this.timings.pollMs);
    }
  }

  /** Deletes the expired keys (a scheduled task calls it); how many went. */
  async deleteExpired(now = new Date()): Promise<number> {
    return this.store.deleteExpired(now);
  }

  /** Whether a PENDING key's first request was cut off: its lease lapsed. */
  private cutOff(
    record: Extract<IdempotencyRecord, { state: 'PENDING' }>,
    now: Date,
  ): boolean {
    if (record.leaseExpiresAt) {
      return record.leaseExpiresAt <= now;
    }
    // Written by an instance that predates leases: it may still be working on it.
    return (
      now.getTime() - record.createdAt.getTime() >=
      this.timings.abandonedAfterMs
    );
  }

  private async doWork(
    id: string,
    work: () => Promise<{ status: number; body: unknown }>,
  ): Promise<IdempotentAnswer> {
    const lease = this.holdLease(id);
    try {
      let result: { status: number; body: unknown };
      try {
        // Each transaction of the work notes on the key that it committed (idempotentWork.ts).
        result = await runAsIdempotentWork(id, work);
      } catch (error) {
        if (error instanceof IdempotentWorkTakenOver) {
          throw takenOver();
        }
        // A failure after the work committed keeps the key: sent again, the request is
        // answered ANSWER_LOST once its lease lapsed, never carried out twice.
        await this.store.releaseUnapplied(id);
        throw error;
      }
      await this.store.complete(
        id,
        result.status,
        this.cipher.seal(JSON.stringify(result.body), this.sealContext(id)),
      );
      return { ...result, replayed: false };
    } finally {
      lease.stop();
    }
  }

  /**
   * Renews the lease on key `id` every `leaseRenewalMs` until stopped. A renewal that fails
   * (the database away) is tried again at the next turn; if none lands in time, a retry may
   * take the key over, and the work's next transaction refuses to run (idempotentWork.ts).
   */
  private holdLease(id: string): { stop(): void } {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const renew = async () => {
      try {
        await this.store.renewLease(
          id,
          new Date(Date.now() + this.timings.leaseMs),
        );
      } catch {
        // The next turn tries again.
      }
      if (!stopped) {
        timer = setTimeout(renew, this.timings.leaseRenewalMs);
      }
    };
    timer = setTimeout(renew, this.timings.leaseRenewalMs);
    return {
      stop() {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  private sealContext(id: string): string {
    return `idempotency_keys/${id}/response_body`;
  }
}
