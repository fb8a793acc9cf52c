import { WarningPanel } from '@backstage/core-components';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { DeploymentEvents } from './DeploymentEvents';
import { ReleaseChanges } from './ReleaseChanges';

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
