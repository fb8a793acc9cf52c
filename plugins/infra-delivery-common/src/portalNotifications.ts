/**
 * How the service's Backstage notifications are told apart: the backend sends them, and the
 * frontend finds a person's own among them (the approval they just decided on, to mark read).
 */

/** The topic of "a plan waits for your approval" and of the decision that replaces it. */
export const APPROVAL_NOTIFICATION_TOPIC = 'Infrastructure: approvals';

/** The scope of a run's approval notification: a later one of the run replaces it. */
export const approvalNotificationScope = (runId: string) =>
  `infra-delivery:run:${runId}:approval`;
