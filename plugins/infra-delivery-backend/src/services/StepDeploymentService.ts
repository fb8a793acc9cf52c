import {
  ContainerDeployStepConfig,
  Deployment,
} from '@infra-delivery/plugin-infra-delivery-common';
import { ecsName } from '../database/DeploymentStore';
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
    return this.rollout.deployRelease(step.organizationId, config, {
      triggerSource: 'PIPELINE',
      triggerChannel: 'PIPELINE',
      triggeredBy,
      step,
      describe: definition =>
        `${step.name}: deploy ${String(definition.family)} to ${ecsName(
          config.serviceRef,
        )}`,
    });
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
