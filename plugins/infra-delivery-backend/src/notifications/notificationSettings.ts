import { Config } from '@backstage/config';

/** What the service tells people through Backstage notifications, each one a setting. */
export const NOTIFICATION_KINDS = [
  'approvalWaiting',
  'runFailed',
  'deploymentFailed',
  'driftFound',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface NotificationSettings {
  /** The kinds that are sent; every kind is on unless configured off. */
  kinds: Record<NotificationKind, boolean>;
}

/**
 * `infraDelivery.notifications`: `enabled: false` turns them all off; each kind
 * (`approvalWaiting`, `runFailed`, `deploymentFailed`, `driftFound`) can be turned off alone.
 */
export function readNotificationSettings(
  pluginConfig: Config | undefined,
): NotificationSettings {
  const config = pluginConfig?.getOptionalConfig('notifications');
  const enabled = config?.getOptionalBoolean('enabled') ?? true;
  return {
    kinds: Object.fromEntries(
      NOTIFICATION_KINDS.map(kind => [
        kind,
        enabled && (config?.getOptionalBoolean(kind) ?? true),
      ]),
    ) as Record<NotificationKind, boolean>,
  };
}
