import {
  ContainerDeploymentData,
  DeploymentEvent,
  ErrorBody,
  ServiceDeploymentState,
  TaskDefinitionSnapshot,
} from '@internal/plugin-infra-delivery-common';
import { CloudAccountAccess } from '../cloud/CloudProvider';

/** The ECS service a deployment rolls, in a connected account. */
export interface EcsServiceTarget {
  account: CloudAccountAccess;
  region: string;
  clusterRef: string;
  serviceRef: string;
}

/** What to roll the service onto: a new revision to register, or a stored one replayed. */
export type Release =
  | { kind: 'register'; taskDefinition: Record<string, unknown> }
  | { kind: 'replay'; snapshot: TaskDefinitionSnapshot };

export interface StartedDeployment {
  deployedTaskDefinition: TaskDefinitionSnapshot;
  previousTaskDefinition?: TaskDefinitionSnapshot;
  /** The ECS deployment id (`ecs-svc/…`). */
  externalDeploymentId?: string;
  /** ARN of the service. */
  resourceRef?: string;
  strategy: string;
}

/** Where a deployment stands, as the provider sees it now. */
export interface DeploymentObservation {
  status: 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'ROLLED_BACK';
  serviceDeploymentState: ServiceDeploymentState;
  /** The newest progress step; the follower appends it when it is new. */
  step: Omit<DeploymentEvent, 'startedAt'> & { startedAt?: string };
  error?: ErrorBody;
}

/**
 * Rolls ECS services: `aws` calls ECS in the account's role, `local` simulates a rollout for
 * development and tests. `observe` is stateless: everything it needs is in the stored
 * deployment, so whichever backend instance ticks next can follow it.
 */
export interface DeploymentProvider {
  readonly driver: 'aws' | 'local';
  start(target: EcsServiceTarget, release: Release): Promise<StartedDeployment>;
  observe(
    target: EcsServiceTarget,
    deployment: {
      startedAt: string;
      externalDeploymentId?: string;
      data: ContainerDeploymentData;
    },
    now: Date,
  ): Promise<DeploymentObservation>;
}
