import {
  ContainerDeployStepConfig,
  Deployment,
  errorCode,
} from '@infra-delivery/plugin-infra-delivery-common';

/** The code of the conflict when a step attempt already started its deployment. */
export const STEP_ATTEMPT_DEPLOYED = errorCode(
  'Deployment',
  'STEP_ATTEMPT_DEPLOYED',
);

/** The step execution a deployment is started for. */
export interface DeployingStep {
  organizationId: string;
  pipelineRunId: string;
  id: string;
  attemptEpoch: number;
  name: string;
}

/**
 * What the engine's container.deploy steps need of deployments. The engine owns this
 * interface and the services implement it, so the engine imports no service.
 */
export interface StepDeployments {
  /**
   * Starts the deployment of the step's configured service, tied to the step's attempt, in
   * the step's organization. A second start for the same attempt is refused with an
   * InfraDeliveryError of code STEP_ATTEMPT_DEPLOYED before anything is rolled.
   */
  deployForStep(
    step: DeployingStep,
    config: ContainerDeployStepConfig,
    triggeredBy: string | undefined,
  ): Promise<Deployment>;
  /** Cancels the deployments whose step ended without them (its run was cancelled). */
  cancelOrphanedStepDeployments(): Promise<void>;
}
