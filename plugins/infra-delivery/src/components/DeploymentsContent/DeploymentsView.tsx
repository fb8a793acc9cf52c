import { Progress, Table, TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/frontend-plugin-api';
import { Deployment } from '@internal/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useEffect } from 'react';
import useAsyncRetry from 'react-use/esm/useAsyncRetry';
import { infraDeliveryApiRef } from '../../api';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { ErrorPanel } from '../common/ErrorPanel';
import { useCanExecuteRuns } from '../common/useCanExecuteRuns';
import { DeploymentEvents } from './DeploymentEvents';
import { DeploymentStatus, progressOf } from './DeploymentStatus';
import { TaskDefinitionDiff } from './TaskDefinitionDiff';

const IN_FLIGHT = ['PENDING', 'IN_PROGRESS'];

/** Paused at a lifecycle hook: its last step names a hook nobody has continued yet. */
function isPaused(deployment: Deployment): boolean {
  const last = deployment.data.events[deployment.data.events.length - 1];
  return (
    deployment.status === 'IN_PROGRESS' &&
    Boolean(last?.hookId) &&
    deployment.data.acceptedPauseControl?.hookId !== last?.hookId
  );
}
const POLL_MS = 3000;

export const DeploymentsView = ({
  clusterRef,
  serviceRef,
}: {
  clusterRef: string;
  serviceRef: string;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const canAct = useCanExecuteRuns();
  const { value, loading, error, retry } = useAsyncRetry(
    () =>
      client.call('listDeployments', {
        query: { clusterRef, serviceRef, limit: 50 },
      }),
    [client, clusterRef, serviceRef],
  );
  const deployments = value?.data ?? [];
  const inFlight = deployments.some(d => IN_FLIGHT.includes(d.status));

  // Deployments progress on their own; follow them while one is in flight.
  useEffect(() => {
    if (!inFlight) return undefined;
    const timer = setInterval(retry, POLL_MS);
    return () => clearInterval(timer);
  }, [inFlight, retry]);

  if (loading && !value) return <Progress />;
  if (error) return <ErrorPanel error={error} />;

  const current = deployments.find(d => d.status === 'SUCCEEDED');

  const columns: TableColumn<Deployment>[] = [
    {
      title: 'Deployment',
      render: d => (
        <Box>
          <Typography variant="body2">{d.description}</Typography>
          <Typography variant="caption" color="textSecondary">
            {d.data.deployedTaskDefinition
              ? `revision ${d.data.deployedTaskDefinition.revision}`
              : ''}
            {d.data.detectedVia === 'EVENT_BUS'
              ? ' · started outside the portal'
              : ''}
          </Typography>
        </Box>
      ),
    },
    { title: 'Status', render: d => <DeploymentStatus deployment={d} /> },
    { title: 'Strategy', render: d => d.data.strategy ?? 'rolling' },
    { title: 'Progress', render: d => progressOf(d) },
    { title: 'Created', field: 'createdAt' },
    {
      title: '',
      render: d => (
        <Box display="flex" style={{ gap: 8, whiteSpace: 'nowrap' }}>
          {canAct &&
            d.status === 'SUCCEEDED' &&
            current &&
            d.id !== current.id && (
              <ConfirmActionButton
                label="Rollback"
                color="secondary"
                title="Roll back to this deployment?"
                confirmLabel="Roll back"
                onConfirm={() =>
                  client.call('rollbackDeployment', { params: { id: d.id } })
                }
                onDone={retry}
              >
                <Typography paragraph>
                  A new deployment replays the exact release of “{d.description}
                  ”. What changes against the running release:
                </Typography>
                <TaskDefinitionDiff from={current} to={d} />
              </ConfirmActionButton>
            )}
          {canAct && isPaused(d) && (
            <ConfirmActionButton
              label="Continue"
              title="Continue the paused deployment?"
              onConfirm={() =>
                client.call('continueDeployment', { params: { id: d.id } })
              }
              onDone={retry}
            >
              <Typography>The deployment goes on to its next stage.</Typography>
            </ConfirmActionButton>
          )}
        </Box>
      ),
    },
  ];

  return (
    <Table
      title={`Deployments of ${clusterRef}/${serviceRef}`}
      options={{ paging: false, search: false, padding: 'dense' }}
      columns={columns}
      data={deployments}
      detailPanel={({ rowData }) => <DeploymentEvents deployment={rowData} />}
      emptyContent={
        <Box padding={2}>
          <Typography>No deployments of this service yet.</Typography>
        </Box>
      }
    />
  );
};
