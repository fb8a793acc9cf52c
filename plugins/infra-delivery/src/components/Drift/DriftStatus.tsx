import { DriftStatus as Status } from '@infra-delivery/plugin-infra-delivery-common';
import { Stack } from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
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
 * stack that no check watches says so rather than "unknown". `stacked` puts the number on a
 * line of its own, for a narrow table column.
 */
export const DriftStatus = ({
  stack,
  stacked,
}: {
  stack: Stack;
  stacked?: boolean;
}) => {
  if (!isDriftWatched(stack)) {
    return <StatusLabel kind="pending" label="Not checked" />;
  }
  const count = stack.driftedResourceCount;
  const label = DRIFT_STATUS_LABELS[stack.driftStatus];
  if (stack.driftStatus !== 'DRIFTED' || count === undefined) {
    return <StatusLabel kind={KINDS[stack.driftStatus]} label={label} />;
  }
  const resources = `${count} ${count === 1 ? 'resource' : 'resources'}`;
  return stacked ? (
    <>
      <StatusLabel kind="warning" label={label} />
      <Typography variant="caption" color="textSecondary" component="div">
        {resources}
      </Typography>
    </>
  ) : (
    <StatusLabel kind="warning" label={`${label} (${resources})`} />
  );
};
