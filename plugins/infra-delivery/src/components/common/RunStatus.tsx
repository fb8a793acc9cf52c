import { StepStatus } from '@infra-delivery/plugin-infra-delivery-common';
import { StatusKind, StatusLabel } from './StatusLabel';

/** What people read for each status. */
export const STATUS_LABELS: Record<StepStatus, string> = {
  QUEUED: 'Queued',
  RUNNING: 'Running',
  WAITING_FOR_APPROVAL: 'Waiting for approval',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
  PENDING: 'Pending',
  SKIPPED: 'Skipped',
};

const KINDS: Record<StepStatus, StatusKind> = {
  QUEUED: 'pending',
  RUNNING: 'running',
  WAITING_FOR_APPROVAL: 'warning',
  SUCCEEDED: 'ok',
  FAILED: 'error',
  CANCELLED: 'aborted',
  PENDING: 'pending',
  SKIPPED: 'aborted',
};

/**
 * A run's or step's status with Backstage's status colours, readable by screen readers; `wrap`
 * lets a long one take two lines in a narrow column.
 */
export const RunStatus = ({
  status,
  wrap,
}: {
  status?: StepStatus;
  wrap?: boolean;
}) =>
  status ? (
    <StatusLabel
      kind={KINDS[status]}
      label={STATUS_LABELS[status]}
      wrap={wrap}
    />
  ) : (
    <StatusLabel kind="pending" label="Never run" />
  );
