import {
  Deployment,
  TaskDefinitionSnapshot,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useState } from 'react';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { ActionGate } from '../common/useCanExecuteRuns';
import { DeployDialog, DeployTarget } from './DeployDialog';

/**
 * The Deployments tab's Deploy: a new image of the service, through {@link DeployDialog}.
 * Shown disabled, saying why, where the person may not deploy (the portal's policy, their
 * role), while another deployment is under way, or where the tab does not know where the
 * service's deployments go (no deployment with an environment yet); nothing until the
 * permission is known.
 */
export const DeployButton = ({
  gate,
  busyReason,
  target,
  running,
  serviceName,
  clusterName,
  onStarted,
}: {
  gate: ActionGate;
  /** Why the service takes no deployment now: another is under way. */
  busyReason?: string;
  /** Where earlier deployments of the service went, when one is known. */
  target?: DeployTarget;
  running?: TaskDefinitionSnapshot;
  serviceName: string;
  clusterName: string;
  onStarted: (deployment: Deployment) => void;
}) => {
  const [open, setOpen] = useState(false);
  if (!gate.allowed && !gate.reason) return null;
  const disabledReason =
    gate.reason ??
    busyReason ??
    (target
      ? undefined
      : `No deployment of ${serviceName} here says where it runs (cloud account, environment): the first one starts from a pipeline's container.deploy step or POST /deployments.`);
  return (
    <>
      <ButtonWithReason
        variant="contained"
        color="primary"
        aria-label={`Deploy to ${serviceName}`}
        disabled={Boolean(disabledReason)}
        disabledReason={disabledReason}
        onClick={() => setOpen(true)}
      >
        Deploy
      </ButtonWithReason>
      {open && target && (
        <DeployDialog
          serviceName={serviceName}
          clusterName={clusterName}
          target={target}
          running={running}
          onClose={() => setOpen(false)}
          onStarted={deployment => {
            setOpen(false);
            onStarted(deployment);
          }}
        />
      )}
    </>
  );
};
