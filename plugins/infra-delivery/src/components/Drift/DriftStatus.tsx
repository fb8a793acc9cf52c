import { DriftStatus as Status } from '@infra-delivery/plugin-infra-delivery-common';
import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import { StatusKind, StatusLabel } from '../common/StatusLabel';

/** What people read for each drift status. */
export const DRIFT_STATUS_LABELS: Record<Status, string> = {
  IN_SYNC: 'In sync',
  DRIFTED: 'Drifted',
  UNKNOWN: 'Unknown',
};

const KINDS: Record<Status, StatusKind> = {
  IN_SYNC: 'ok',
  DRIFTED: 'warning',
  UNKNOWN: 'aborted',
};

/** Whether drift checks watch the stack: a schedule, or a check that ran. */
export function isDriftWatched(stack: Stack): boolean {
  return Boolean(stack.driftCheckIntervalHours || stack.lastDriftCheckAt);
}

/**
 * A stack's drift as its latest drift check found it, with the number of drifted resources; a
 * stack that no check watches says so rather than "unknown".
 */
export const DriftStatus = ({ stack }: { stack: Stack }) => {
  if (!isDriftWatched(stack)) {
    return <StatusLabel kind="pending" label="Not checked" />;
  }
  const count = stack.driftedResourceCount;
  const label =
    stack.driftStatus === 'DRIFTED' && count !== undefined
      ? `Drifted (${count} ${count === 1 ? 'resource' : 'resources'})`
      : DRIFT_STATUS_LABELS[stack.driftStatus];
  return <StatusLabel kind={KINDS[stack.driftStatus]} label={label} />;
};
