import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import { SideDrawer } from '../common/SideDrawer';
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
  <SideDrawer title={title} onClose={onClose}>
    <DeploymentDetails
      deployment={deployment}
      previousSuccessful={previousSuccessful}
    />
  </SideDrawer>
);
