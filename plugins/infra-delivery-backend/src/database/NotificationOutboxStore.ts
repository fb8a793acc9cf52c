import { Knex } from 'knex';
import { newId } from './ids';
import { fromJsonColumn, toJsonColumn } from './json';
import { toTimestamp } from './timestamps';

interface OutboxRow {
  id: string;
  kind: string;
  recipients: string;
  payload: string;
  recipient_lookup: string | null;
  excluded_recipients: string | null;
  attempts: number;
  next_attempt_at: string | Date;
  last_error: string | null;
  created_at: string | Date;
}

/** Recipients found when a notification is sent: the owners of the entities showing an ECS service. */
export interface RecipientLookup {
  ecsService: string;
}

/** A notification waiting to be sent: to the owners of `recipients` (catalog entity refs). */
export interface OutgoingNotification<TPayload = Record<string, unknown>> {
  id: string;
  kind: string;
  recipients: string[];
  payload: TPayload;
  /** More recipients, to look up (in the catalog) when it is sent. */
  recipientLookup?: RecipientLookup;
  /** Users left out although they own what it tells of (catalog entity refs). */
  excludedRecipients: string[];
  /** Attempts made, this one included once claimed. */
  attempts: number;
}

function toOutgoing<TPayload>(
  row: OutboxRow,
  attempts: number,
): OutgoingNotification<TPayload> {
  return {
    id: row.id,
    kind: row.kind,
    recipients: fromJsonColumn<string[]>(row.recipients) ?? [],
    payload: fromJsonColumn<TPayload>(row.payload)!,
    recipientLookup: fromJsonColumn<RecipientLookup>(row.recipient_lookup),
    excludedRecipients: fromJsonColumn<string[]>(row.excluded_recipients) ?? [],
    attempts,
  };
}

/**
 * Notifications kept until the notifications backend takes them: added after the change they
 * tell of, claimed by one sender at a time (a claim moves `next_attempt_at` on, so another
 * instance takes it only when that sender stopped), removed once sent or given up on.
 */
export class NotificationOutboxStore {
  constructor(private readonly db: Knex) {}

  /** Keeps a notification, due at once: `at` is now by the sender's clock, which claims it. */
  async add(input: {
    kind: string;
    recipients: string[];
    payload: unknown;
    recipientLookup?: RecipientLookup;
    excludedRecipients?: string[];
    at: Date;
  }): Promise<string> {
    const now = toTimestamp(input.at);
    const id = newId();
    await this.db<OutboxRow>('notification_outbox').insert({
      id,
      kind: input.kind,
      recipients: toJsonColumn(input.recipients)!,
      payload: toJsonColumn(input.payload)!,
      recipient_lookup: toJsonColumn(input.recipientLookup),
      excluded_recipients: input.excludedRecipients?.length
        ? toJsonColumn(input.excludedRecipients)
        : null,
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      created_at: now,
    });
    return id;
  }

  /**
   * Takes up to `limit` notifications due at `now`, oldest first, each until `claimedUntil`:
   * a compare-and-set on the attempts, so two senders never take the same one.
   */
  async claimDue<TPayload>(
    now: Date,
    claimedUntil: Date,
    limit: number,
  ): Promise<OutgoingNotification<TPayload>[]> {
    const due = await this.db<OutboxRow>('notification_outbox')
      .where('next_attempt_at', '<=', now.toISOString())
      .orderBy([
        { column: 'next_attempt_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])
      .limit(limit);
    const claimed: OutgoingNotification<TPayload>[] = [];
    for (const row of due) {
      const taken = await this.db('notification_outbox')
        .where({ id: row.id, attempts: row.attempts })
        .update({
          attempts: row.attempts + 1,
          next_attempt_at: claimedUntil.toISOString(),
        });
      if (taken === 1) {
        claimed.push(toOutgoing<TPayload>(row, row.attempts + 1));
      }
    }
    return claimed;
  }

  /** Sent, or given up on: nothing more to do. */
  async remove(id: string): Promise<void> {
    await this.db('notification_outbox').where({ id }).delete();
  }

  /** Sending failed; it is due again at `retryAt`. */
  async retryAt(id: string, retryAt: Date, error: string): Promise<void> {
    await this.db('notification_outbox')
      .where({ id })
      .update({ next_attempt_at: retryAt.toISOString(), last_error: error });
  }
}
