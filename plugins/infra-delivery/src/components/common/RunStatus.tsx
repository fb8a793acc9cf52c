import { StepStatus } from '@internal/plugin-infra-delivery-common';
import { StatusKind, StatusLabel } from './StatusLabel';

const LABELS: Record<StepStatus, string> = {
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

/** A run's or step's status with Backstage's status colours, readable by screen readers. */
export const RunStatus = ({ status }: { status?: StepStatus }) =>
  status ? (
    <StatusLabel kind={KINDS[status]} label={LABELS[status]} />
  ) : (
    <StatusLabel kind="pending" label="Never run" />
  );
