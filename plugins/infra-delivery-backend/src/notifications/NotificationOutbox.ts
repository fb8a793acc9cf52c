import { LoggerService } from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import {
  NotificationSendOptions,
  NotificationService,
} from '@backstage/plugin-notifications-node';
import {
  OutgoingNotification,
  RecipientLookup,
} from '../database/NotificationOutboxStore';
import { Stores } from '../database/stores';
import { BackgroundDrain } from '../lib/BackgroundDrain';
import { withTimeout } from '../lib/withTimeout';
import { LookUpRecipients } from './ecsServiceEntities';
import { NotificationKind } from './notificationSettings';

type NotificationPayload = NotificationSendOptions['payload'];

/**
 * When a notification the notifications backend did not take is tried again, by attempt: the
 * backend (or the catalog it resolves owners through) starting up answers 503 for seconds, one
 * that is down for minutes. After the last, about 40 minutes on, it is given up on.
 */
export const RETRY_DELAYS_MS = [
  10_000,
  30_000,
  60_000,
  2 * 60_000,
  5 * 60_000,
  10 * 60_000,
  20 * 60_000,
];
/** A sender that stopped mid-send (its instance stopped) leaves the notification to another after this. */
const CLAIM_MS = 2 * 60_000;
/**
 * How the notification service says that no notifications backend is installed: a plugin that
 * is only starting answers 503.
 */
const NOT_INSTALLED = /status 404\b/;
/**
 * How long one notification's send (its catalog lookup and the notifications backend's answer)
 * may take before it counts as failed and is tried again later: neither call has a timeout of
 * its own, and a backend that hangs would otherwise hold this instance's sending for good.
 * A send that answers late anyway is harmless: a repeat of a scope updates the notification.
 */
export const SEND_TIMEOUT_MS = 30_000;
/** Notifications taken per round trip to the database. */
const BATCH = 20;

/**
 * Backstage notifications, sent after the change they tell of has been written and without
 * holding it up: each is kept in the database (`notification_outbox`) and sent in the
 * background, at once by this instance and otherwise by the scheduled round of whichever
 * instance runs it; one the notifications backend does not take is tried again later
 * ({@link RETRY_DELAYS_MS}). A notification sent twice (its sender stopped after sending) is
 * one notification to its readers: each has a scope, and a repeat updates it.
 */
export class NotificationOutbox {
  private readonly background: BackgroundDrain;
  private saidNotInstalled = false;

  constructor(
    private readonly deps: {
      stores: Stores;
      notifications: NotificationService;
      /** Finds the recipients a notification names by a lookup (in the catalog). */
      lookUpRecipients: LookUpRecipients;
      logger: LoggerService;
      now?: () => Date;
      /** {@link SEND_TIMEOUT_MS} unless given. */
      sendTimeoutMs?: number;
    },
  ) {
    this.background = new BackgroundDrain(
      () => this.sendDue(),
      error => deps.logger.warn(`Sending notifications failed: ${error}`),
    );
  }

  /**
   * Keeps the notification and has it sent soon: to the owners of `recipients` and of what
   * `recipientLookup` finds when it is sent (the catalog need not answer now).
   */
  async enqueue(
    kind: NotificationKind,
    recipients: string[],
    payload: NotificationPayload,
    options: {
      recipientLookup?: RecipientLookup;
      /** Users left out although they own what it tells of. */
      excludedRecipients?: string[];
    } = {},
  ): Promise<void> {
    await this.deps.stores.notificationOutbox.add({
      kind,
      recipients,
      payload,
      ...options,
      at: this.now(),
    });
    this.background.soon();
  }

  /** Sends every notification that is due; returns how many were sent. */
  async sendDue(): Promise<number> {
    const { notificationOutbox } = this.deps.stores;
    let sent = 0;
    for (;;) {
      const now = this.now();
      const due = await notificationOutbox.claimDue<NotificationPayload>(
        now,
        new Date(now.getTime() + CLAIM_MS),
        BATCH,
      );
      if (due.length === 0) {
        return sent;
      }
      for (const notification of due) {
        try {
          const delivered = await withTimeout(
            this.send(notification),
            this.deps.sendTimeoutMs ?? SEND_TIMEOUT_MS,
            'The notifications backend',
          );
          sent += delivered ? 1 : 0;
          await notificationOutbox.remove(notification.id);
        } catch (error) {
          await this.failed(notification, error);
        }
      }
    }
  }

  /** Sends one notification; false when its lookup found nobody to send it to. */
  private async send(
    notification: OutgoingNotification<NotificationPayload>,
  ): Promise<boolean> {
    const { recipients, recipientLookup, excludedRecipients } = notification;
    let payload = notification.payload;
    const entityRefs = [...recipients];
    if (recipientLookup) {
      const found = await this.deps.lookUpRecipients(recipientLookup);
      entityRefs.unshift(
        ...found.entityRefs.filter(ref => !recipients.includes(ref)),
      );
      payload = { ...payload, link: found.link ?? payload.link };
    }
    if (entityRefs.length === 0) {
      return false;
    }
    await this.deps.notifications.send({
      recipients: {
        type: 'entity',
        entityRef: entityRefs,
        ...(excludedRecipients.length > 0
          ? { excludeEntityRef: excludedRecipients }
          : {}),
      },
      payload,
    });
    return true;
  }

  /** Waits for the sending started by {@link enqueue} (tests, shutdown). */
  async idle(): Promise<void> {
    await this.background.idle();
  }

  private async failed(
    notification: {
      id: string;
      attempts: number;
      payload: NotificationPayload;
    },
    error: unknown,
  ): Promise<void> {
    const message = isError(error) ? error.message : String(error);
    const what = `the ${
      notification.payload.topic ?? 'infrastructure'
    } notification ${notification.payload.scope ?? notification.id}`;
    if (NOT_INSTALLED.test(message)) {
      // A portal without the notifications backend: nothing to try again, and one warning.
      await this.deps.stores.notificationOutbox.remove(notification.id);
      if (!this.saidNotInstalled) {
        this.saidNotInstalled = true;
        this.deps.logger.warn(
          `Infrastructure notifications are not sent: the notifications backend answered 404 (${message}). Add @backstage/plugin-notifications-backend to the backend, or turn them off with infraDelivery.notifications.enabled: false.`,
        );
      }
      return;
    }
    const delay = RETRY_DELAYS_MS[notification.attempts - 1];
    if (delay === undefined) {
      await this.deps.stores.notificationOutbox.remove(notification.id);
      this.deps.logger.error(
        `Gave up on ${what} after ${notification.attempts} attempts: ${message}`,
      );
      return;
    }
    await this.deps.stores.notificationOutbox.retryAt(
      notification.id,
      new Date(this.now().getTime() + delay),
      message,
    );
    this.deps.logger.warn(
      `Could not send ${what} (attempt ${
        notification.attempts
      }); trying again in ${delay / 1000}s: ${message}`,
    );
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
