import { shortArns } from '../common/shortArns';
import {
  Deployment,
  DeploymentEvent,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { StatusKind, StatusLabel } from '../common/StatusLabel';
import { constantLabel } from '../common/labels';

const STATUSES: Record<Deployment['status'], [StatusKind, string]> = {
  PENDING: ['pending', 'Pending'],
  IN_PROGRESS: ['running', 'In progress'],
  SUCCEEDED: ['ok', 'Succeeded'],
  FAILED: ['error', 'Failed'],
  ROLLED_BACK: ['warning', 'Rolled back'],
  CANCELLED: ['aborted', 'Cancelled'],
};

/** A deployment's status as a word screen readers read, beside Backstage's status colour. */
export const DeploymentStatus = ({
  deployment,
}: {
  deployment: Deployment;
}) => {
  const [kind, label] = STATUSES[deployment.status] ?? STATUSES.PENDING;
  return <StatusLabel kind={kind} label={label} />;
};

/**
 * Where an event stands, as people read it: `2/4 · Scale up · standby traffic` (ECS lifecycle
 * stages like SCALE_UP are named in words; the API keeps the constants).
 */
export function eventStage(event: DeploymentEvent): string {
  return [
    `${event.currentStep}/${event.totalSteps}`,
    event.lifecycleStage && constantLabel(event.lifecycleStage),
    event.trafficPhase && `${event.trafficPhase} traffic`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The latest progress of a deployment: its stage, and what the cloud said under it. */
export const DeploymentProgress = ({
  deployment,
}: {
  deployment: Deployment;
}) => {
  const last = deployment.data.events[deployment.data.events.length - 1];
  if (!last) return null;
  return (
    <Box>
      <Typography variant="body2">{eventStage(last)}</Typography>
      {last.message && (
        <Typography variant="caption" color="textSecondary">
          {shortArns(last.message)}
        </Typography>
      )}
    </Box>
  );
};
