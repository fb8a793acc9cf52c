import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * What a deployment is called where people read it. A rollback is named after the release it
 * went back to ("Rollback to “Release 1.0.0”") when that deployment is among `deployments`;
 * otherwise, and for every other deployment, its description.
 */
export function deploymentTitle(
  deployment: Deployment,
  deployments: Deployment[],
): string {
  const target =
    deployment.rollbackToDeploymentId &&
    deployments.find(d => d.id === deployment.rollbackToDeploymentId);
  return target
    ? `Rollback to “${deploymentTitle(target, deployments)}”`
    : deployment.description;
}
