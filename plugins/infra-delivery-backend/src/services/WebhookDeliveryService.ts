import { LoggerService } from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import { WebhookDelivery } from '@infra-delivery/plugin-infra-delivery-common';
import { z } from 'zod';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { READ } from '../auth/requirements';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import {
  ClaimedDelivery,
  DeliveryOutcome,
} from '../database/WebhookDeliveryStore';
import { InfraDeliveryError } from '../errors';
import { BackgroundDrain } from '../lib/BackgroundDrain';
import {
  deliveryFactsOf,
  installationEventSchema,
  installationRepositoriesEventSchema,
  pullRequestEventSchema,
  pushEventSchema,
} from '../gitTriggers/githubEvents';
import { isValidWebhookSignature } from '../gitTriggers/webhookSignature';
import { GithubAppInstallations } from '../providers/github/GithubAppInstallations';
import { ForgeInstallationEvents } from './ForgeInstallationEvents';
import { GitTriggerService } from './GitTriggerService';
import { DeliveryMetrics } from '../metrics/DeliveryMetrics';

/** A processor that stopped mid-delivery leaves it PROCESSING; after this it is taken again. */
const STALE_CLAIM_MS = 5 * 60 * 1000;
/** Attempts per delivery; transient failures (the forge not answering) are retried. */
const MAX_ATTEMPTS = 5;

/** A delivery whose signature was checked: its headers and parsed payload. */
export interface AuthenticDelivery {
  forgeHost: string;
  appId: string;
  event?: string;
  deliveryGuid?: string;
  payload: Record<string, unknown>;
}

function unauthorized(message: string): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 401,
    entity: 'Webhook',
    reason: 'UNAUTHORIZED',
    message,
  });
}

function badDelivery(message: string): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 400,
    entity: 'Webhook',
    reason: 'INVALID_DELIVERY',
    message,
  });
}

/**
 * The JSON text of a delivery: the body itself, or its `payload` field when the App's webhook
 * is set to GitHub's other content type, `application/x-www-form-urlencoded`.
 */
function payloadText(body: Buffer, contentType: string | undefined): string {
  const text = body.toString('utf8');
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    return new URLSearchParams(text).get('payload') ?? '';
  }
  return text;
}

/**
 * GitHub App webhook deliveries: checked against the App's webhook secret, recorded once by
 * their delivery id with one outcome per organization whose code sources they concern,
 * answered at once and processed afterwards (at once in this instance, and by the scheduled
 * round for what a stopped instance left).
 */
export class WebhookDeliveryService {
  private readonly gitTriggers: GitTriggerService;
  private readonly installations: ForgeInstallationEvents;
  private readonly background: BackgroundDrain;

  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      githubApps: GithubAppInstallations;
      gitTriggers: GitTriggerService;
      logger?: LoggerService;
      metrics?: DeliveryMetrics;
    },
  ) {
    this.gitTriggers = deps.gitTriggers;
    this.installations = new ForgeInstallationEvents(deps);
    this.background = new BackgroundDrain(
      () => this.processPending(),
      error =>
        deps.logger?.warn(`Processing webhook deliveries failed: ${error}`),
    );
  }

  /**
   * Whether the endpoint names an App that can check signatures: checked before the body is
   * read, so an unknown endpoint costs nothing.
   */
  requireEndpoint(forgeHost: string, appId: string): void {
    if (!this.deps.githubApps.webhookSecretOf(forgeHost, appId)) {
      throw new InfraDeliveryError({
        status: 404,
        entity: 'WebhookEndpoint',
        reason: 'NOT_FOUND',
        message: `No GitHub App ${appId} with a webhook secret is configured for ${forgeHost}`,
        description:
          'Set webhookSecret on the App under integrations.github in the app config.',
      });
    }
  }

  /** A delivery without a signature is refused before its body is read. */
  requireSignature(signature: string | undefined): string {
    if (!signature) {
      throw unauthorized('The delivery has no X-Hub-Signature-256');
    }
    return signature;
  }

  /**
   * The delivery's payload, when `signature` (`X-Hub-Signature-256`) is the HMAC of the exact
   * body bytes under the App's webhook secret; a 401 otherwise.
   */
  authenticate(
    forgeHost: string,
    appId: string,
    signature: string | undefined,
    body: Buffer,
    contentType?: string,
  ): Record<string, unknown> {
    this.requireEndpoint(forgeHost, appId);
    const given = this.requireSignature(signature);
    const secret = this.deps.githubApps.webhookSecretOf(forgeHost, appId)!;
    if (!isValidWebhookSignature(secret, body, given)) {
      throw unauthorized(
        "X-Hub-Signature-256 does not match the body under the App's webhook secret",
      );
    }
    let payload: unknown;
    try {
      payload = JSON.parse(payloadText(body, contentType));
    } catch {
      throw badDelivery('The body is not JSON');
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
      throw badDelivery('The body is not a JSON object');
    }
    return payload as Record<string, unknown>;
  }

  /**
   * Records an authentic delivery and has it processed soon; `duplicate` when its delivery id
   * was recorded before (nothing is done again).
   */
  async receive(
    delivery: AuthenticDelivery,
  ): Promise<{ deliveryId: string; duplicate: boolean }> {
    const deliveryGuid = z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/)
      .safeParse(delivery.deliveryGuid);
    const event = z
      .string()
      .regex(/^[a-z_]{1,64}$/)
      .safeParse(delivery.event);
    if (!deliveryGuid.success || !event.success) {
      throw badDelivery(
        'X-GitHub-Delivery (a GUID) and X-GitHub-Event (an event name) are required',
      );
    }
    const facts = {
      deliveryGuid: deliveryGuid.data,
      forgeHost: delivery.forgeHost,
      appId: delivery.appId,
      event: event.data,
      ...deliveryFactsOf(delivery.payload),
    };
    const recorded = await this.deps.stores.transaction(async tx =>
      tx.webhookDeliveries.record(
        facts,
        delivery.payload,
        await this.concernedOrganizations(tx, facts),
      ),
    );
    this.deps.metrics?.webhookDelivery(recorded ? 'accepted' : 'duplicate');
    if (recorded) {
      this.background.soon();
    }
    return { deliveryId: deliveryGuid.data, duplicate: !recorded };
  }

  /** The organization's deliveries, newest first. */
  async list(
    caller: Caller,
    page: KeysetRequest,
  ): Promise<KeysetPage<WebhookDelivery>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.webhookDeliveries.list(caller.organizationId, page);
  }

  /** Processes every pending delivery; returns how many were processed. */
  async processPending(): Promise<number> {
    let processed = 0;
    for (;;) {
      const delivery = await this.deps.stores.webhookDeliveries.claimNext(
        new Date(Date.now() - STALE_CLAIM_MS).toISOString(),
        MAX_ATTEMPTS,
      );
      if (!delivery) {
        return processed;
      }
      await this.process(delivery);
      processed += 1;
    }
  }

  /** Waits for background processing started by `receive` (tests and shutdown). */
  async idle(): Promise<void> {
    await this.background.idle();
  }

  private async process(delivery: ClaimedDelivery): Promise<void> {
    const { webhookDeliveries } = this.deps.stores;
    const organizationIds = await webhookDeliveries.organizationsOf(
      delivery.id,
    );
    let outcomes: Map<string, DeliveryOutcome>;
    try {
      outcomes = await this.dispatch(delivery, organizationIds);
    } catch (error) {
      const message = isError(error) ? error.message : String(error);
      const transient =
        error instanceof InfraDeliveryError && error.status >= 500;
      if (transient && delivery.attempts < MAX_ATTEMPTS) {
        this.deps.logger?.warn(
          `Webhook delivery ${delivery.deliveryGuid} failed (attempt ${delivery.attempts}), will retry: ${message}`,
        );
        await webhookDeliveries.release(delivery.id, message);
        this.deps.metrics?.webhookDelivery('retried');
        return;
      }
      this.deps.logger?.error(
        `Webhook delivery ${delivery.deliveryGuid} (${delivery.event}) failed: ${message}`,
      );
      for (const organizationId of organizationIds) {
        await webhookDeliveries.recordOutcome(delivery.id, organizationId, {
          outcome: 'FAILED',
          reason: message,
        });
      }
      await webhookDeliveries.finish(delivery.id, 'FAILED', message);
      this.deps.metrics?.webhookDelivery('failed');
      return;
    }
    for (const [organizationId, outcome] of outcomes) {
      await webhookDeliveries.recordOutcome(
        delivery.id,
        organizationId,
        outcome,
      );
    }
    await webhookDeliveries.finish(delivery.id, 'DONE');
    this.deps.metrics?.webhookDelivery('processed');
  }

  private async dispatch(
    delivery: ClaimedDelivery,
    organizationIds: string[],
  ): Promise<Map<string, DeliveryOutcome>> {
    const context = {
      deliveryGuid: delivery.deliveryGuid,
      forgeHost: delivery.forgeHost,
    };
    const parsed = <T>(schema: z.ZodType<T>): T => {
      const result = schema.safeParse(delivery.payload);
      if (!result.success) {
        throw badDelivery(
          `The ${
            delivery.event
          } payload lacks what the service reads: ${result.error.issues
            .map(issue => issue.path.join('.'))
            .join(', ')}`,
        );
      }
      return result.data;
    };
    switch (delivery.event) {
      case 'push':
        return this.gitTriggers.onPush(
          context,
          parsed(pushEventSchema),
          organizationIds,
        );
      case 'pull_request':
        return this.gitTriggers.onPullRequest(
          context,
          parsed(pullRequestEventSchema),
          organizationIds,
        );
      case 'installation':
        return this.installations.onInstallation(
          delivery.forgeHost,
          parsed(installationEventSchema),
          organizationIds,
        );
      case 'installation_repositories':
        return this.installations.onInstallationRepositories(
          delivery.forgeHost,
          parsed(installationRepositoriesEventSchema),
          organizationIds,
        );
      default:
        return new Map(
          organizationIds.map(organizationId => [
            organizationId,
            {
              outcome: 'IGNORED',
              reason: `${delivery.event} deliveries start nothing`,
            },
          ]),
        );
    }
  }

  /** The organizations with a code source the delivery is about. */
  private async concernedOrganizations(
    tx: Stores,
    facts: {
      forgeHost: string;
      installationId?: string;
      repositoryId?: string;
    },
  ): Promise<string[]> {
    if (!facts.installationId) {
      return [];
    }
    const sources = facts.repositoryId
      ? await tx.codeSources.findByRepository(
          facts.forgeHost,
          facts.installationId,
          facts.repositoryId,
        )
      : await tx.codeSources.findByInstallation(
          facts.forgeHost,
          facts.installationId,
        );
    return [...new Set(sources.map(source => source.organizationId))];
  }
}
