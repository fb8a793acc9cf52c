import {
  Deployment,
  TaskDefinitionSnapshot,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useState } from 'react';
import { ButtonWithReason } from '../common/ButtonWithReason';
import { ActionGate } from '../common/useCanExecuteRuns';
import { DeployDialog, DeployTarget } from './DeployDialog';
import { FirstDeployDialog } from './FirstDeployDialog';
import { FirstDeployPlace } from './firstDeployPlace';

/**
 * The Deployments tab's Deploy: a new image of the service, through {@link DeployDialog}, or,
 * for a service with no deployment here yet, its first release through
 * {@link FirstDeployDialog}, where the entity's annotations say it goes. Shown disabled, saying
 * why, where the person may not deploy (the portal's policy, their role), while another
 * deployment is under way, or where neither an earlier deployment nor the annotations say
 * where the service runs (the reason names the annotations missing); nothing until the
 * permission is known.
 */
export const DeployButton = ({
  gate,
  busyReason,
  target,
  firstDeploy,
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
  /** Without `target`: where the annotations say a first deployment goes, or why they do not. */
  firstDeploy: { place: FirstDeployPlace } | { reason: string };
  running?: TaskDefinitionSnapshot;
  serviceName: string;
  clusterName: string;
  onStarted: (deployment: Deployment) => void;
}) => {
  const [open, setOpen] = useState(false);
  if (!gate.allowed && !gate.reason) return null;
  const first = target ? undefined : firstDeploy;
  const disabledReason =
    gate.reason ?? busyReason ?? (first && 'reason' in first && first.reason);
  const started = (deployment: Deployment) => {
    setOpen(false);
    onStarted(deployment);
  };
  return (
    <>
      <ButtonWithReason
        variant="contained"
        color="primary"
        aria-label={`Deploy to ${serviceName}`}
        disabled={Boolean(disabledReason)}
        disabledReason={disabledReason || undefined}
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
          onStarted={started}
        />
      )}
      {open && first && 'place' in first && (
        <FirstDeployDialog
          place={first.place}
          onClose={() => setOpen(false)}
          onStarted={started}
        />
      )}
    </>
  );
};
