import {
  StatusAborted,
  StatusError,
  StatusOK,
  StatusPending,
  StatusRunning,
  StatusWarning,
} from '@backstage/core-components';
import { StepStatus } from '@internal/plugin-infra-delivery-common';

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

/** A run's or step's status with Backstage's status colours. */
export const RunStatus = ({ status }: { status?: StepStatus }) => {
  if (!status) {
    return <StatusPending>Never run</StatusPending>;
  }
  const label = LABELS[status];
  switch (status) {
    case 'SUCCEEDED':
      return <StatusOK>{label}</StatusOK>;
    case 'FAILED':
      return <StatusError>{label}</StatusError>;
    case 'RUNNING':
      return <StatusRunning>{label}</StatusRunning>;
    case 'WAITING_FOR_APPROVAL':
      return <StatusWarning>{label}</StatusWarning>;
    case 'CANCELLED':
    case 'SKIPPED':
      return <StatusAborted>{label}</StatusAborted>;
    default:
      return <StatusPending>{label}</StatusPending>;
  }
};
