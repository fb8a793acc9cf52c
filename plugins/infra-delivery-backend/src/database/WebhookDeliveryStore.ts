import {
  WebhookDelivery,
  WebhookDeliveryOutcome,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { fromJsonColumn, toJsonColumn } from './json';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import {
  nowTimestamp,
  optional,
  toOptionalTimestamp,
  toTimestamp,
} from './timestamps';

type Timestamp = string | Date;

interface DeliveryRow {
  id: string;
  delivery_guid: string;
  forge_host: string;
  app_id: string;
  event: string;
  action: string | null;
  installation_id: string | null;
  repository_id: string | null;
  repository_full_name: string | null;
  payload: string | null;
  status: DeliveryStatus;
  attempts: number;
  claimed_at: Timestamp | null;
  received_at: Timestamp;
  processed_at: Timestamp | null;
  error: string | null;
}

interface OutcomeRow {
  id: string;
  webhook_delivery_id: string;
  organization_id: string;
  outcome: WebhookDeliveryOutcome;
  reason: string | null;
  started_run_ids: string | null;
  cancelled_run_ids: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Where a delivery is in its processing. */
export type DeliveryStatus = 'PENDING' | 'PROCESSING' | 'DONE' | 'FAILED';

/** What a delivery says about itself, read from its headers and payload at receipt. */
export interface DeliveryFacts {
  deliveryGuid: string;
  forgeHost: string;
  appId: string;
  event: string;
  action?: string;
  installationId?: string;
  repositoryId?: string;
  repositoryFullName?: string;
}

/** A delivery taken for processing, with its payload. */
export interface ClaimedDelivery extends DeliveryFacts {
  id: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/** What processing made of a delivery for one organization. */
export interface DeliveryOutcome {
  outcome: WebhookDeliveryOutcome;
  reason?: string;
  startedRunIds?: string[];
  cancelledRunIds?: string[];
}

type ListedRow = OutcomeRow &
  Pick<
    DeliveryRow,
    | 'delivery_guid'
    | 'forge_host'
    | 'app_id'
    | 'event'
    | 'action'
    | 'installation_id'
    | 'repository_full_name'
    | 'received_at'
    | 'processed_at'
  >;

function toWebhookDelivery(row: ListedRow): WebhookDelivery {
  return {
    id: row.id,
    deliveryId: row.delivery_guid,
    event: row.event,
    action: optional(row.action),
    forgeHost: row.forge_host,
    appId: row.app_id,
    installationId: optional(row.installation_id),
    repository: optional(row.repository_full_name),
    receivedAt: toTimestamp(row.received_at),
    processedAt: toOptionalTimestamp(row.processed_at),
    outcome: row.outcome,
    reason: optional(row.reason),
    startedRunIds: fromJsonColumn<string[]>(row.started_run_ids) ?? [],
    cancelledRunIds: fromJsonColumn<string[]>(row.cancelled_run_ids) ?? [],
  };
}

/**
 * Webhook deliveries: recorded once by GitHub's delivery id (a redelivery finds the first
 * record), processed afterwards by whichever instance claims them, and listed per
 * organization through the outcome each organization got.
 */
export class WebhookDeliveryStore {
  constructor(private readonly db: Knex) {}

  /**
   * Records a delivery with a PENDING outcome for each organization it concerns; `undefined`
   * when a delivery with that id was recorded before.
   */
  async record(
    facts: DeliveryFacts,
    payload: Record<string, unknown>,
    organizationIds: string[],
  ): Promise<string | undefined> {
    const id = newId();
    const now = nowTimestamp();
    const row: DeliveryRow = {
      id,
      delivery_guid: facts.deliveryGuid,
      forge_host: facts.forgeHost,
      app_id: facts.appId,
      event: facts.event,
      action: facts.action ?? null,
      installation_id: facts.installationId ?? null,
      repository_id: facts.repositoryId ?? null,
      repository_full_name: facts.repositoryFullName ?? null,
      payload: JSON.stringify(payload),
      status: 'PENDING',
      attempts: 0,
      claimed_at: null,
      received_at: now,
      processed_at: null,
      error: null,
    };
    await this.db('webhook_deliveries')
      .insert(row)
      .onConflict('delivery_guid')
      .ignore();
    const stored = await this.db<DeliveryRow>('webhook_deliveries')
      .where({ delivery_guid: facts.deliveryGuid })
      .first('id');
    if (stored?.id !== id) {
      return undefined;
    }
    if (organizationIds.length > 0) {
      await this.db('webhook_delivery_outcomes').insert(
        organizationIds.map(organizationId => ({
          id: newId(),
          webhook_delivery_id: id,
          organization_id: organizationId,
          outcome: 'PENDING',
          reason: null,
          started_run_ids: null,
          cancelled_run_ids: null,
          created_at: now,
          updated_at: now,
        })),
      );
    }
    return id;
  }

  /** Which of these delivery ids (`X-GitHub-Delivery`) were recorded. */
  async recordedGuids(guids: readonly string[]): Promise<Set<string>> {
    const recorded = new Set<string>();
    for (let i = 0; i < guids.length; i += 500) {
      const rows = await this.db<DeliveryRow>('webhook_deliveries')
        .whereIn('delivery_guid', guids.slice(i, i + 500))
        .select('delivery_guid');
      for (const row of rows) recorded.add(row.delivery_guid);
    }
    return recorded;
  }

  /**
   * Takes one delivery for processing: a pending one, or one whose processor stopped
   * (claimed before `staleBefore`) and has attempts left. A compare-and-set on the status and
   * claim time, so two instances never take the same one.
   */
  async claimNext(
    staleBefore: string,
    maxAttempts: number,
  ): Promise<ClaimedDelivery | undefined> {
    const candidates = await this.db<DeliveryRow>('webhook_deliveries')
      .where(q =>
        q
          .where({ status: 'PENDING' })
          .orWhere(stale =>
            stale
              .where({ status: 'PROCESSING' })
              .where('claimed_at', '<', staleBefore),
          ),
      )
      .where('attempts', '<', maxAttempts)
      .orderBy('id', 'asc')
      .limit(5);
    for (const row of candidates) {
      const claimed = await this.db('webhook_deliveries')
        .where({ id: row.id, status: row.status, attempts: row.attempts })
        .update({
          status: 'PROCESSING',
          claimed_at: nowTimestamp(),
          attempts: row.attempts + 1,
        });
      if (claimed === 1 && row.payload) {
        return {
          id: row.id,
          deliveryGuid: row.delivery_guid,
          forgeHost: row.forge_host,
          appId: row.app_id,
          event: row.event,
          action: optional(row.action),
          installationId: optional(row.installation_id),
          repositoryId: optional(row.repository_id),
          repositoryFullName: optional(row.repository_full_name),
          payload: JSON.parse(row.payload),
          attempts: row.attempts + 1,
        };
      }
    }
    return undefined;
  }

  /** The organizations a delivery concerns (those with an outcome row). */
  async organizationsOf(deliveryId: string): Promise<string[]> {
    const rows = await this.db<OutcomeRow>('webhook_delivery_outcomes')
      .where({ webhook_delivery_id: deliveryId })
      .orderBy('id', 'asc')
      .select('organization_id');
    return rows.map(row => row.organization_id);
  }

  async recordOutcome(
    deliveryId: string,
    organizationId: string,
    outcome: DeliveryOutcome,
  ): Promise<void> {
    await this.db('webhook_delivery_outcomes')
      .where({
        webhook_delivery_id: deliveryId,
        organization_id: organizationId,
      })
      .update({
        outcome: outcome.outcome,
        reason: outcome.reason ?? null,
        started_run_ids: toJsonColumn(outcome.startedRunIds ?? []),
        cancelled_run_ids: toJsonColumn(outcome.cancelledRunIds ?? []),
        updated_at: nowTimestamp(),
      });
  }

  /** Processing ended; the payload is not kept any longer than it is needed. */
  async finish(
    deliveryId: string,
    status: 'DONE' | 'FAILED',
    error?: string,
  ): Promise<void> {
    await this.db('webhook_deliveries')
      .where({ id: deliveryId })
      .update({
        status,
        payload: null,
        error: error ?? null,
        processed_at: nowTimestamp(),
      });
  }

  /** Processing failed but may be tried again (by the next round). */
  async release(deliveryId: string, error: string): Promise<void> {
    await this.db('webhook_deliveries')
      .where({ id: deliveryId, status: 'PROCESSING' })
      .update({ status: 'PENDING', error, claimed_at: null });
  }

  /** The organization's deliveries, newest first. */
  async list(
    organizationId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<WebhookDelivery>> {
    const query = this.db('webhook_delivery_outcomes as o')
      .join('webhook_deliveries as d', 'd.id', 'o.webhook_delivery_id')
      .where('o.organization_id', organizationId)
      .select(
        'o.*',
        'd.delivery_guid',
        'd.forge_host',
        'd.app_id',
        'd.event',
        'd.action',
        'd.installation_id',
        'd.repository_full_name',
        'd.received_at',
        'd.processed_at',
      );
    return keysetPage(query, 'o.id', page, toWebhookDelivery, 'desc', () =>
      this.db('webhook_delivery_outcomes')
        .where({ organization_id: organizationId })
        .count({ count: '*' })
        .then(([row]) => Number(row.count)),
    );
  }
}
