import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Drawer from '@material-ui/core/Drawer';
import IconButton from '@material-ui/core/IconButton';
import Typography from '@material-ui/core/Typography';
import CloseIcon from '@material-ui/icons/Close';
import { DeploymentDetails } from './DeploymentDetails';

/** A deployment opened from the history, beside it: what it changed and how it went. */
export const DeploymentDrawer = ({
  deployment,
  title,
  previousSuccessful,
  onClose,
}: {
  deployment: Deployment;
  /** What the deployment is called (see deploymentTitle). */
  title: string;
  previousSuccessful?: Deployment;
  onClose: () => void;
}) => (
  <Drawer
    anchor="right"
    open
    onClose={onClose}
    PaperProps={{ 'aria-labelledby': 'deployment-drawer-title' } as object}
  >
    <Box width={720} maxWidth="100vw" padding={3}>
      <Box display="flex" alignItems="center" justifyContent="space-between">
        <Typography variant="h5" component="h2" id="deployment-drawer-title">
          {title}
        </Typography>
        <IconButton aria-label="Close" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <DeploymentDetails
        deployment={deployment}
        previousSuccessful={previousSuccessful}
      />
    </Box>
  </Drawer>
);
