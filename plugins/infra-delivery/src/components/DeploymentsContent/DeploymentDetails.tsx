import { Link, WarningPanel } from '@backstage/core-components';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useRunPagePath } from '../common/useInfrastructurePath';
import { DeploymentEvents } from './DeploymentEvents';
import { ReleaseChanges } from './ReleaseChanges';

/**
 * The run whose deploy step started a deployment, linked: why it was deployed (its commit, who
 * approved it) is on the run's page, and a deployment that fails fails that run too.
 */
const StartedByRun = ({ runId }: { runId: string }) => {
  const runPagePath = useRunPagePath();
  return (
    <Typography variant="body2" paragraph>
      Started by the deploy step of a pipeline run:{' '}
      <Link to={runPagePath(runId)}>open the run</Link>
    </Typography>
  );
};

/** A deployment opened in the history: why it failed, what it changed, how it went. */
export const DeploymentDetails = ({
  deployment,
  previousSuccessful,
}: {
  deployment: Deployment;
  /** The newest successful deployment older than this one, if the history has one. */
  previousSuccessful?: Deployment;
}) => (
  <Box padding={2}>
    {deployment.pipelineRunId && (
      <StartedByRun runId={deployment.pipelineRunId} />
    )}
    {deployment.error && (
      <Box marginBottom={2}>
        {/* The reason is the title: the panel's body is collapsed until opened. */}
        <WarningPanel severity="error" title={deployment.error.message}>
          <Typography variant="caption" component="p">
            {deployment.error.code}
            {deployment.error.requestId
              ? ` · Request id: ${deployment.error.requestId}`
              : ''}
          </Typography>
        </WarningPanel>
      </Box>
    )}
    <ReleaseChanges
      deployment={deployment}
      previousSuccessful={previousSuccessful}
    />
    <DeploymentEvents deployment={deployment} />
  </Box>
);
