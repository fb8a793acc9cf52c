import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SecretCipher } from '../auth/SecretCipher';
import {
  IdempotencyKeyStore,
  IdempotencyScope,
} from '../database/IdempotencyKeyStore';
import { runAsIdempotentWork } from '../database/idempotentWork';
import { InfraDeliveryError } from '../errors';

/** Sent with an answer that was recorded earlier, not produced by this request. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/**
 * How long a recorded answer is replayed, how long a request waits for another's, and after
 * how long a key still PENDING counts as abandoned (its instance stopped mid-request).
 */
export interface IdempotencyTimings {
  retentionMs: number;
  waitMs: number;
  pollMs: number;
  abandonedAfterMs: number;
}

export const DEFAULT_IDEMPOTENCY_TIMINGS: IdempotencyTimings = {
  retentionMs: 24 * 60 * 60 * 1000,
  waitMs: 30_000,
  pollMs: 25,
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

function stillInProgress(abandonedAfterMs: number): InfraDeliveryError {
  const minutes = Math.max(1, Math.round(abandonedAfterMs / 60_000));
  return new InfraDeliveryError({
    status: 409,
    entity: 'IdempotencyKey',
    reason: 'IN_PROGRESS',
    message:
      'A request with this Idempotency-Key is still being processed; retry later',
    // The earlier request may also have been cut off by a restart or a database outage,
    // between its work and the record of its answer: nothing here tells which.
    description: `The same request was sent before and its answer is not recorded yet: it is still under way, or a restart or an outage of the service's database cut it off, in which case what it made may already be there (look at the runs, deployments or API keys). From ${minutes} minute${
      minutes === 1 ? '' : 's'
    } after it was sent, the request sent again is carried out if the first made nothing, or answered ANSWER_LOST if it did: never twice.`,
    metadata: { retryAfterSeconds: 1 },
    headers: { 'Retry-After': '1' },
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
 * on the key that it committed (idempotentWork.ts), in itself: a key left PENDING (an instance
 * stopped, or the database went away, before the answer was recorded) is taken over after
 * `abandonedAfterMs` only if its work never committed, and answered ANSWER_LOST otherwise. Keys are scoped by caller, so a
 * recorded answer never reaches anyone but the caller who made it; they expire after
 * `retentionMs`.
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
      );
      if (claimed) {
        return this.doWork(claimed, work);
      }
      const record = await this.store.find(scope);
      if (record && record.expiresAt <= now) {
        await this.store.release(record.id);
        continue;
      }
      const abandoned =
        record?.state === 'PENDING' &&
        now.getTime() - record.createdAt.getTime() >=
          this.timings.abandonedAfterMs;
      if (abandoned && record.requestHash === requestHash && record.applied) {
        // Its work committed: carrying it out again would do it twice.
        throw answerLost();
      }
      if (abandoned) {
        // Its work never committed (or did something else): taken over.
        await this.store.release(record.id);
        continue;
      }
      if (record && record.requestHash !== requestHash) {
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
        throw stillInProgress(this.timings.abandonedAfterMs);
      }
      await sleep(this.timings.pollMs);
    }
  }

  /** Deletes the expired keys (a scheduled task calls it); how many went. */
  async deleteExpired(now = new Date()): Promise<number> {
    return this.store.deleteExpired(now);
  }

  private async doWork(
    id: string,
    work: () => Promise<{ status: number; body: unknown }>,
  ): Promise<IdempotentAnswer> {
    let result: { status: number; body: unknown };
    try {
      // Each transaction of the work notes on the key that it committed (idempotentWork.ts).
      result = await runAsIdempotentWork(id, work);
    } catch (error) {
      // A failure after the work committed keeps the key: sent again, the request is
      // answered ANSWER_LOST once abandoned, never carried out twice.
      await this.store.releaseUnapplied(id);
      throw error;
    }
    await this.store.complete(
      id,
      result.status,
      this.cipher.seal(JSON.stringify(result.body), this.sealContext(id)),
    );
    return { ...result, replayed: false };
  }

  private sealContext(id: string): string {
    return `idempotency_keys/${id}/response_body`;
  }
}
