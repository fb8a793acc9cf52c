import {
  ContainerDeploymentData,
  DeploymentEvent,
  ElbListenerState,
  ErrorBody,
  ServiceDeploymentState,
  TaskDefinitionSnapshot,
} from '@infra-delivery/plugin-infra-delivery-common';
import { CloudAccountAccess } from './CloudProvider';

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
  | {
      kind: 'replay';
      snapshot: TaskDefinitionSnapshot;
      /** Start new tasks even when the service already runs this revision (a redeploy). */
      forceNewDeployment?: boolean;
    };

export interface StartedDeployment {
  deployedTaskDefinition: TaskDefinitionSnapshot;
  previousTaskDefinition?: TaskDefinitionSnapshot;
  /** The ECS deployment id (`ecs-svc/…`). */
  externalDeploymentId?: string;
  /** ARN of the service. */
  resourceRef?: string;
  /** ARN of the ECS service deployment (`…:service-deployment/…`), where ECS names one. */
  serviceDeploymentRef?: string;
  strategy: string;
  /** The service has lifecycle hooks before the production traffic shift. */
  preDeployEnabled: boolean;
  /** The service has lifecycle hooks at or after the production traffic shift. */
  postDeployEnabled: boolean;
  /** The listener rules a blue/green deployment moves traffic through. */
  elbListenerState?: ElbListenerState[];
}

/** A deployment as the provider needs it to act on it; all of it is stored. */
export interface ProviderDeployment {
  startedAt: string;
  externalDeploymentId?: string;
  data: ContainerDeploymentData;
}

/** Where a deployment stands, as the provider sees it now. */
export interface DeploymentObservation {
  status: 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'ROLLED_BACK' | 'CANCELLED';
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
  /**
   * Where the deployment stands. A deployment whose `data.revertRequestedAt` is set was
   * cancelled by the platform and ends CANCELLED once the provider stopped it.
   */
  observe(
    target: EcsServiceTarget,
    deployment: ProviderDeployment,
    now: Date,
  ): Promise<DeploymentObservation>;
  /** Lets a deployment paused at a lifecycle hook go on to its next stage. */
  continuePause(
    target: EcsServiceTarget,
    deployment: ProviderDeployment,
    hookId: string,
  ): Promise<void>;
  /** Stops a deployment in flight and restores the service's previous revision. */
  cancel(
    target: EcsServiceTarget,
    deployment: ProviderDeployment,
  ): Promise<void>;
  /** The task definition the service runs now, where the provider can tell. */
  currentTaskDefinition(
    target: EcsServiceTarget,
  ): Promise<TaskDefinitionSnapshot | undefined>;
}
