import { useApiHolder } from '@backstage/frontend-plugin-api';
import { notificationsApiRef } from '@backstage/plugin-notifications';
import {
  APPROVAL_NOTIFICATION_TOPIC,
  approvalNotificationScope,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useCallback } from 'react';

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
  const notifications = useApiHolder().get(notificationsApiRef);
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
