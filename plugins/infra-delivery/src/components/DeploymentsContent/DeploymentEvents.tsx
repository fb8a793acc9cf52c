import { Progress } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import {
  Deployment,
  InfrastructureEvent,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { infraDeliveryApiRef } from '../../api';
import { LoadNotes } from '../common/LoadNotes';
import { constantLabel } from '../common/labels';
import { shortArns } from '../common/shortArns';
import { eventStage } from './DeploymentStatus';

/** The event's name (service and deployment events) or the task's last status. */
function whatHappened(event: InfrastructureEvent): string {
  const { eventName, lastStatus } = event.data;
  return [eventName, lastStatus]
    .filter((v): v is string => typeof v === 'string')
    .join(' · ');
}

/** A deployment's progress steps and the infrastructure events linked to it (#19). */
export const DeploymentEvents = ({
  deployment,
}: {
  deployment: Deployment;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const events = useReloadableAsync(
    () =>
      client.call('listInfrastructureEvents', {
        query: { deploymentId: deployment.id },
      }),
    // A recorded change of the deployment may come with new events.
    [client, deployment.id, deployment.updatedAt],
    [client, deployment.id],
  );
  const { value, loading } = events;
  return (
    <Box>
      <Typography variant="h6" component="h3">
        Progress
      </Typography>
      {deployment.data.events.length === 0 && (
        <Typography variant="body2">No progress reported yet.</Typography>
      )}
      <Box component="ol" marginTop={0}>
        {deployment.data.events.map((event, i) => (
          <li key={i}>
            {constantLabel(event.stepCode)} · {eventStage(event)}
            {event.message ? ` — ${shortArns(event.message)}` : ''}
          </li>
        ))}
      </Box>
      <Typography variant="h6" component="h3">
        Infrastructure events
      </Typography>
      {loading && <Progress />}
      <LoadNotes state={events} />
      {value && value.data.data.length === 0 && (
        <Typography variant="body2">None received.</Typography>
      )}
      {value && value.data.data.length > 0 && (
        <Box component="ul" marginTop={0}>
          {value.data.data.map(event => (
            <li key={event.id}>
              {event.eventTime} · {event.detailType}
              {whatHappened(event) ? ` · ${whatHappened(event)}` : ''}
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
};
