import { createApiRef, useApiHolder } from '@backstage/frontend-plugin-api';
import {
  APPROVAL_NOTIFICATION_TOPIC,
  approvalNotificationScope,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useCallback } from 'react';

/** What this plugin asks of the notifications plugin's API. */
export interface ApprovalNotificationsApi {
  getNotifications(options: {
    read?: boolean;
    topic?: string;
    limit?: number;
  }): Promise<{
    notifications: { id: string; payload: { scope?: string } }[];
  }>;
  updateNotifications(options: {
    ids: string[];
    read?: boolean;
  }): Promise<unknown>;
}

/**
 * The notifications plugin's API, found by its id (an app finds an API by its ref's id), so
 * that this plugin does not depend on `@backstage/plugin-notifications`: in an app without it,
 * that dependency's newest release (of the next Backstage line) brought second copies of
 * catalog-react, signals-react and four other shared packages.
 */
export const approvalNotificationsApiRef =
  createApiRef<ApprovalNotificationsApi>({
    id: 'plugin.notifications.service',
  });

/**
 * Marks read the signed-in person's "a plan waits for your approval" of a run they have just
 * approved or rejected. The service replaces that notification with the decision for the
 * stack's other owners, but leaves the decider's as it was (a notification it updates is made
 * unread again), so the portal, acting as them, marks it. A portal without the notifications
 * plugin has nothing to mark; a failure leaves it unread, as before, and the decision stands.
 */
export function useApprovalNotificationRead(): (
  runId: string,
) => Promise<void> {
  const notifications = useApiHolder().get(approvalNotificationsApiRef);
  return useCallback(
    async (runId: string) => {
      if (!notifications) {
        return;
      }
      try {
        const unread = await notifications.getNotifications({
          read: false,
          topic: APPROVAL_NOTIFICATION_TOPIC,
          limit: 100,
        });
        const ids = unread.notifications
          .filter(n => n.payload.scope === approvalNotificationScope(runId))
          .map(n => n.id);
        if (ids.length > 0) {
          await notifications.updateNotifications({ ids, read: true });
        }
      } catch {
        // Left unread: the bell says no more than it said before the decision.
      }
    },
    [notifications],
  );
}
