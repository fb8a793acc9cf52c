import { DeploymentReference } from '../database/DeploymentStore';
import { InfraDeliveryError } from '../errors';

const NAMES: Record<
  DeploymentReference['kind'],
  { entity: string; made: string; advice: string }
> = {
  cloudAccount: {
    entity: 'CloudAccount',
    made: 'made with this cloud account',
    advice:
      'Deployments keep the cloud account they were made with: their rollbacks, redeploys and events need it. Rename the account if its name misleads; to take away the service’s access, delete the role’s CloudFormation stack in AWS.',
  },
  environment: {
    entity: 'Environment',
    made: 'made in this environment',
    advice:
      'Deployments keep the environment they were made in: their rollbacks and redeploys deploy there again. Rename the environment if its name misleads.',
  },
  moduleInstance: {
    entity: 'ModuleInstance',
    made: 'made of this module instance',
    advice:
      'Deployments keep the module instance they were made of: their rollbacks and redeploys name it again. Rename the instance if its name misleads.',
  },
};

/**
 * 409 `IN_USE` for a cloud account, an environment or a module instance that deployments were
 * made with, in or of: their history, rollbacks and redeploys need it.
 */
export function deploymentsInUse(
  what: DeploymentReference,
  used: { total: number; inFlight: number },
): InfraDeliveryError {
  const { entity, made, advice } = NAMES[what.kind];
  const deployments =
    used.total === 1 ? '1 deployment was' : `${used.total} deployments were`;
  let inFlight = '';
  if (used.inFlight > 0) {
    inFlight =
      used.total === 1
        ? ' (still in progress)'
        : ` (${used.inFlight} of them still in progress)`;
  }
  return new InfraDeliveryError({
    status: 409,
    entity,
    reason: 'IN_USE',
    message: `${deployments} ${made}${inFlight}; their history and rollbacks need it, so it cannot be removed`,
    description: advice,
    metadata: {
      [`${what.kind}Id`]: what.id,
      deployments: used.total,
      deploymentsInProgress: used.inFlight,
    },
  });
}
