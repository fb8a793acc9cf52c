import { notificationsApiRef } from '@backstage/plugin-notifications';
import { approvalNotificationsApiRef } from './useApprovalNotificationRead';

describe('approvalNotificationsApiRef', () => {
  it('names the notifications plugin’s API, which an app finds by its id', () => {
    // The plugin does not depend on @backstage/plugin-notifications (a whole plugin, whose
    // newest release brought another Backstage line's shared packages into apps without it);
    // its own ref reaches the API the notifications plugin provides in apps that have it.
    expect(approvalNotificationsApiRef.id).toBe(notificationsApiRef.id);
  });
});
