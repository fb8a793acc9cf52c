import { RunStatus } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * How often views of work in progress read again. Signals make them current at once, but a
 * signal sent while the browser's signals connection is still opening (or in a portal without
 * the signals plugin) never arrives: a view of active work must not depend on it alone.
 */
export const LIVE_POLL_MS = 5_000;

const ACTIVE_RUN_STATUSES: RunStatus[] = ['QUEUED', 'RUNNING'];

/** Whether a run's view should keep reading while nobody acts: a runner or ECS works on it. */
export function isActiveRun(status: RunStatus | undefined): boolean {
  return status !== undefined && ACTIVE_RUN_STATUSES.includes(status);
}

/**
 * Whether a run's own page should keep reading: while it works, and while it waits for a
 * person, who may decide elsewhere (and a service that stopped answering shows there, not as
 * a "Waiting for approval" that may be long past).
 */
export function isLiveRun(status: RunStatus | undefined): boolean {
  return isActiveRun(status) || status === 'WAITING_FOR_APPROVAL';
}
