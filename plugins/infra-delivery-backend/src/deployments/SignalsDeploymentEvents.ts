import { LoggerService } from '@backstage/backend-plugin-api';
import { SignalsService } from '@backstage/plugin-signals-node';
import {
  Deployment,
  DEPLOYMENT_SIGNAL_CHANNEL,
  DeploymentChangeSignal,
} from '@infra-delivery/plugin-infra-delivery-common';
import { DeploymentChangeListener, ecsName } from '../database/DeploymentStore';

/**
 * Announces deployment changes to portal users through Backstage signals, so that the
 * Deployments tab follows a rollout without polling. The stores tell it of every committed
 * write (`createStores(db, { deploymentChanges })`), in a transaction or not. Only the portal organization's
 * deployments are announced: signals reach every signed-in portal user, and deployments of
 * signed-up organizations are none of theirs.
 */
export class SignalsDeploymentEvents implements DeploymentChangeListener {
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
