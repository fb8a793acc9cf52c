import {
  StatusAborted,
  StatusError,
  StatusOK,
  StatusPending,
  StatusRunning,
  StatusWarning,
} from '@backstage/core-components';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';

export const DeploymentStatus = ({
  deployment,
}: {
  deployment: Deployment;
}) => {
  switch (deployment.status) {
    case 'SUCCEEDED':
      return <StatusOK>Succeeded</StatusOK>;
    case 'FAILED':
      return <StatusError>Failed</StatusError>;
    case 'IN_PROGRESS':
      return <StatusRunning>In progress</StatusRunning>;
    case 'ROLLED_BACK':
      return <StatusWarning>Rolled back</StatusWarning>;
    case 'CANCELLED':
      return <StatusAborted>Cancelled</StatusAborted>;
    default:
      return <StatusPending>Pending</StatusPending>;
  }
};

/** The latest progress step: `2/4 · deploy · standby`. */
export function progressOf(deployment: Deployment): string {
  const last = deployment.data.events[deployment.data.events.length - 1];
  if (!last) return '';
  return [
    `${last.currentStep}/${last.totalSteps}`,
    last.lifecycleStage,
    last.trafficPhase,
    last.message,
  ]
    .filter(Boolean)
    .join(' · ');
}
