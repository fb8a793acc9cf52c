import {
  ContainerDeployStepConfig,
  Deployment,
} from '@infra-delivery/plugin-infra-delivery-common';
import { ecsName } from '../database/DeploymentStore';
import { taskDefinitionWithImage } from '../deployments/taskDefinitionWithImage';
import { InfraDeliveryError } from '../errors';
import { DeployingStep, StepDeployments } from '../engine/StepDeployments';
import { DeploymentRollout, DeploymentRolloutDeps } from './DeploymentRollout';

/** Deployments one pass cancels at most. */
const CANCEL_BATCH = 100;

/**
 * The deployments of pipelines' container.deploy steps, as the engine's step executor asks
 * for them: started in the step's organization and tied to its attempt, and cancelled when
 * the step ended without them.
 */
export class StepDeploymentService implements StepDeployments {
  private readonly rollout: DeploymentRollout;

  constructor(private readonly deps: DeploymentRolloutDeps) {
    this.rollout = new DeploymentRollout(deps);
  }

  /**
   * What a pipeline's container.deploy step starts: the deployment of its configured service,
   * tied to the step's attempt, in the step's organization. Authorization happened when the
   * run was triggered. A second start for the same attempt (another instance, a repeated tick)
   * is refused at the insert with STEP_ATTEMPT_DEPLOYED, before anything is rolled.
   */
  async deployForStep(
    step: DeployingStep,
    config: ContainerDeployStepConfig,
    triggeredBy: string | undefined,
  ): Promise<Deployment> {
    const { taskDefinition, image, ...target } = config;
    const definition =
      taskDefinition ??
      (await this.definitionWithImage(step.organizationId, config, image!));
    return this.rollout.deployRelease(
      step.organizationId,
      {
        ...target,
        taskDefinition: definition,
        description:
          config.description ??
          `${step.name}: deploy ${String(definition.family)} to ${ecsName(
            config.serviceRef,
          )}`,
      },
      {
        triggerSource: 'PIPELINE',
        triggerChannel: 'PIPELINE',
        triggeredBy,
        step,
      },
    );
  }

  /**
   * The service's current task definition with a new image for one container: the release the
   * platform last rolled successfully onto the service, or else what the service runs now.
   */
  private async definitionWithImage(
    organizationId: string,
    config: ContainerDeployStepConfig,
    image: NonNullable<ContainerDeployStepConfig['image']>,
  ): Promise<Record<string, unknown>> {
    const service = {
      cloudAccountId: config.cloudAccountId,
      region: config.region,
      clusterName: ecsName(config.clusterRef),
      serviceName: ecsName(config.serviceRef),
    };
    const lastGood = await this.deps.stores.deployments.latestOfService(
      organizationId,
      service,
      undefined,
      'SUCCEEDED',
    );
    let base = lastGood?.data.deployedTaskDefinition?.definition;
    if (!base) {
      const account = await this.rollout.connectedAccount(
        organizationId,
        config.cloudAccountId,
      );
      base = (
        await this.deps.deployments.provider.currentTaskDefinition({
          account,
          region: config.region,
          clusterRef: config.clusterRef,
          serviceRef: config.serviceRef,
        })
      )?.definition;
    }
    if (!base) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'Deployment',
        reason: 'NO_CURRENT_TASK_DEFINITION',
        message: `Service ${service.serviceName} has no task definition to put image ${image.image} into; give the step a whole taskDefinition`,
        metadata: { serviceName: service.serviceName },
      });
    }
    return taskDefinitionWithImage(base, image);
  }

  /**
   * Cancels the deployments whose container.deploy step ended without them (its run was
   * cancelled): the service goes back to what it ran before the run.
   */
  async cancelOrphanedStepDeployments(): Promise<void> {
    for (const deployment of await this.deps.stores.deployments.inFlightOfEndedSteps(
      CANCEL_BATCH,
    )) {
      try {
        if (!deployment.data.revertRequestedAt) {
          await this.rollout.stop(deployment);
        }
      } catch (error) {
        this.deps.logger?.warn(
          `Could not cancel deployment ${deployment.id} of a cancelled step: ${
            (error as Error).message
          }`,
        );
      }
    }
  }
}
