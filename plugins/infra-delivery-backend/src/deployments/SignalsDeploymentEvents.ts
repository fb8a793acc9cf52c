import { LoggerService } from '@backstage/backend-plugin-api';
import { SignalsService } from '@backstage/plugin-signals-node';
import {
  Deployment,
  DEPLOYMENT_SIGNAL_CHANNEL,
  DeploymentChangeSignal,
} from '@infra-delivery/plugin-infra-delivery-common';
import { DeploymentStore, ecsName } from '../database/DeploymentStore';

/**
 * Announces deployment changes to portal users through Backstage signals, so that the
 * Deployments tab follows a rollout without polling. Only the portal organization's
 * deployments are announced: signals reach every signed-in portal user, and deployments of
 * signed-up organizations are none of theirs.
 */
export class SignalsDeploymentEvents {
  constructor(
    private readonly signals: SignalsService,
    private readonly portalOrganizationId: string,
    private readonly logger?: LoggerService,
  ) {}

  async deploymentChanged(deployment: Deployment): Promise<void> {
    if (deployment.organizationId !== this.portalOrganizationId) {
      return;
    }
    try {
      await this.signals.publish<DeploymentChangeSignal>({
        recipients: { type: 'broadcast' },
        channel: DEPLOYMENT_SIGNAL_CHANNEL,
        message: {
          deploymentId: deployment.id,
          status: deployment.status,
          clusterName: ecsName(deployment.data.clusterRef),
          serviceName: ecsName(deployment.data.serviceRef),
        },
      });
    } catch (error) {
      // The change is stored already; a lost announcement only delays the views.
      this.logger?.warn(
        `Could not announce deployment ${deployment.id}: ${
          (error as Error).message
        }`,
      );
    }
  }
}

/**
 * The deployment store with every successful write (a new deployment, a recorded status or
 * progress step) announced. Whoever records a change — the deployment service, the follower
 * tick, event ingestion — goes through these two writes.
 */
export function announcingDeploymentChanges(
  store: DeploymentStore,
  events: SignalsDeploymentEvents,
): DeploymentStore {
  // Reads and every other method stay the store's own.
  const announcing: DeploymentStore = Object.create(store);
  announcing.create = async input => {
    const created = await store.create(input);
    await events.deploymentChanged(created);
    return created;
  };
  announcing.recordProgress = async (expected, progress) => {
    const updated = await store.recordProgress(expected, progress);
    if (updated) {
      await events.deploymentChanged(updated);
    }
    return updated;
  };
  return announcing;
}
