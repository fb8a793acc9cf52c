import {
  Deployment,
  DeploymentEvent,
  errorCode,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  DeploymentObservation,
  Release,
} from '../providers/DeploymentProvider';
import { DeploymentRollout, DeploymentRolloutDeps } from './DeploymentRollout';

/** How long a PENDING deployment is left to the request that created it before a tick retries. */
export const PENDING_GRACE_MILLIS = 30_000;
/** Deployments one tick follows at most. */
const FOLLOW_BATCH = 100;

/** A step of progress as stored, or undefined when it repeats the newest stored step. */
function newStep(
  events: DeploymentEvent[],
  step: DeploymentObservation['step'],
  now: Date,
): DeploymentEvent | undefined {
  const last = events[events.length - 1];
  if (
    last &&
    last.stepCode === step.stepCode &&
    last.currentStep === step.currentStep &&
    last.lifecycleStage === step.lifecycleStage &&
    last.hookId === step.hookId
  ) {
    return undefined;
  }
  return { ...step, startedAt: step.startedAt ?? now.toISOString() };
}

/**
 * The scheduler's tick over deployments in flight: PENDING ones whose request gave up are
 * started, IN_PROGRESS ones are observed through the provider until they end. The provider's
 * `observe` is stateless and every write a compare-and-set, so whichever instance ticks next
 * can follow any deployment.
 */
export class DeploymentFollower {
  private readonly rollout: DeploymentRollout;

  constructor(private readonly deps: DeploymentRolloutDeps) {
    this.rollout = new DeploymentRollout(deps);
  }

  /**
   * One pass over in-flight deployments: PENDING ones whose request gave up are started,
   * IN_PROGRESS ones are observed. Called by the scheduler; every write is a compare-and-set,
   * so instances ticking together do each step once.
   */
  async followDeployments(now: Date = new Date()): Promise<void> {
    const { stores, logger } = this.deps;
    const inFlight = await stores.deployments.listInFlight(FOLLOW_BATCH);
    for (const deployment of inFlight) {
      if (deployment.data.detectedVia === 'EVENT_BUS') {
        // Started outside the platform: its progress comes from its events.
        continue;
      }
      try {
        if (deployment.status === 'PENDING') {
          if (
            now.getTime() - new Date(deployment.updatedAt).getTime() >=
            PENDING_GRACE_MILLIS
          ) {
            await this.resumePending(deployment);
          }
        } else {
          await this.observe(deployment, now);
        }
      } catch (error) {
        logger?.warn(
          `Could not follow deployment ${deployment.id}: ${
            (error as Error).message
          }`,
        );
      }
    }
  }

  private async resumePending(deployment: Deployment): Promise<void> {
    const account = await this.rollout.connectedAccount(
      deployment.organizationId,
      deployment.data.cloudAccountId,
    );
    let release: Release | undefined;
    if (deployment.rollbackToDeploymentId) {
      const target = await this.deps.stores.deployments.get(
        deployment.organizationId,
        deployment.rollbackToDeploymentId,
      );
      if (target?.data.deployedTaskDefinition) {
        release = {
          kind: 'replay',
          snapshot: target.data.deployedTaskDefinition,
        };
      }
    } else if (deployment.data.deployedTaskDefinition) {
      release = {
        kind: 'register',
        taskDefinition: deployment.data.deployedTaskDefinition.definition,
      };
    }
    if (!release) {
      await this.deps.stores.deployments.recordProgress(deployment, {
        ...this.rollout.progressOf(deployment),
        status: 'FAILED',
        completedAt: new Date().toISOString(),
        error: {
          code: errorCode('Deployment', 'RELEASE_MISSING'),
          message: 'The release of this deployment is no longer stored',
        },
      });
      return;
    }
    await this.rollout.start(deployment, account, release);
  }

  private async observe(deployment: Deployment, now: Date): Promise<void> {
    if (!deployment.startedAt) {
      return;
    }
    const observation = await this.deps.deployments.provider.observe(
      this.rollout.targetOf(
        deployment,
        await this.rollout.accessOf(deployment),
      ),
      this.rollout.providerViewOf(deployment),
      now,
    );
    const step = newStep(deployment.data.events, observation.step, now);
    if (!step && observation.status === deployment.status) {
      return;
    }
    const ended = observation.status !== 'IN_PROGRESS';
    await this.deps.stores.deployments.recordProgress(deployment, {
      ...this.rollout.progressOf(deployment),
      status: observation.status,
      data: {
        ...deployment.data,
        serviceDeploymentState: observation.serviceDeploymentState,
        events: step
          ? [...deployment.data.events, step]
          : deployment.data.events,
      },
      error: observation.error,
      completedAt: ended ? now.toISOString() : undefined,
    });
  }
}
