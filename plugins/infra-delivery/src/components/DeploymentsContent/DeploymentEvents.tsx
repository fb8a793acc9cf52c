import { useApi } from '@backstage/frontend-plugin-api';
import { Deployment } from '@internal/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { infraDeliveryApiRef } from '../../api';
import { ErrorPanel } from '../common/ErrorPanel';

/** A deployment's progress steps and the infrastructure events linked to it (#19). */
export const DeploymentEvents = ({
  deployment,
}: {
  deployment: Deployment;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const { value, error } = useAsync(
    () =>
      client.call('listInfrastructureEvents', {
        query: { deploymentId: deployment.id },
      }),
    [client, deployment.id],
  );
  return (
    <Box padding={2}>
      <Typography variant="subtitle2">Progress</Typography>
      <Box component="ol" marginTop={0}>
        {deployment.data.events.map((event, i) => (
          <li key={i}>
            {event.stepCode} · {event.currentStep}/{event.totalSteps}
            {event.lifecycleStage ? ` · ${event.lifecycleStage}` : ''}
            {event.trafficPhase ? ` · ${event.trafficPhase}` : ''}
            {event.message ? ` — ${event.message}` : ''}
          </li>
        ))}
      </Box>
      <Typography variant="subtitle2">Infrastructure events</Typography>
      {error && <ErrorPanel error={error} />}
      {value && value.data.data.length === 0 && (
        <Typography variant="body2">None received.</Typography>
      )}
      {value && value.data.data.length > 0 && (
        <Box component="ul" marginTop={0}>
          {value.data.data.map(event => (
            <li key={event.id}>
              {event.eventTime} · {event.detailType}
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
};
