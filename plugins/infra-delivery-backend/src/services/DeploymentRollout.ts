import { LoggerService } from '@backstage/backend-plugin-api';
import {
  ContainerDeploymentData,
  ContainerImageRelease,
  CreateDeploymentRequest,
  Deployment,
  ErrorBody,
  errorCode,
  TaskDefinitionSnapshot,
} from '@infra-delivery/plugin-infra-delivery-common';
import { CloudAccountAccess } from '../providers/CloudProvider';
import { isUniqueViolation } from '../database/dbErrors';
import { ecsName, NewDeployment } from '../database/DeploymentStore';
import { Stores } from '../database/stores';
import {
  DeploymentProvider,
  EcsServiceTarget,
  Release,
} from '../providers/DeploymentProvider';
import {
  LIFECYCLE_STAGES,
  ROLLING_STEPS,
} from '../providers/ecs/lifecycleStages';
import { InfraDeliveryError, notFound } from '../errors';
import { taskDefinitionWithImage } from '../deployments/taskDefinitionWithImage';
import { requireCloudAccount } from './CloudAccountService';
import { insertUnderParents } from './insertUnderParents';

/** What the plugin hands the services for deployments and events. */
export interface DeploymentOptions {
  provider: DeploymentProvider;
  /** `infraDelivery.events.ingestToken`; without it event ingestion is refused. */
  ingestToken?: string;
}

/** What each caller of the rollout hands it. */
export interface DeploymentRolloutDeps {
  stores: Stores;
  deployments: DeploymentOptions;
  logger?: LoggerService;
}

export function serviceBusy(deployment: {
  serviceName: string;
}): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 409,
    entity: 'Deployment',
    reason: 'SERVICE_BUSY',
    message: `Another deployment of service ${deployment.serviceName} is pending or in progress; wait for it to finish`,
    metadata: { serviceName: deployment.serviceName },
  });
}

/** An image reference without its registry and path: `payments-api:1.3.0`. */
function imageName(image: string): string {
  return image.slice(image.lastIndexOf('/') + 1);
}

/** The error body a failed start leaves on the deployment. */
function errorBodyOf(error: unknown): ErrorBody {
  if (error instanceof InfraDeliveryError) {
    return error.toBody();
  }
  return {
    code: errorCode('Deployment', 'START_FAILED'),
    message: 'The deployment could not be started',
  };
}

/** Why a deployment cannot be cancelled (again), as the 409 says it. */
function notCancellableMessage(deployment: Deployment): string {
  const { id } = deployment;
  if (deployment.data.detectedVia === 'EVENT_BUS') {
    return `Deployment ${id} was started outside the platform; stop it where it was started`;
  }
  if (
    deployment.status === 'IN_PROGRESS' &&
    deployment.data.revertRequestedAt
  ) {
    // IN_PROGRESS still: ECS rolls the service back, and the follower ends it CANCELLED then.
    return `Deployment ${id} is already being cancelled (since ${deployment.data.revertRequestedAt}); it ends CANCELLED once the service is rolled back`;
  }
  return `Deployment ${id} is ${deployment.status}; only a deployment in progress can be cancelled`;
}

/**
 * What the three callers of deployments share: the API (DeploymentService), the engine's
 * container.deploy steps (StepDeploymentService) and the scheduler's follower
 * (DeploymentFollower). It inserts a deployment, rolls its release through the provider,
 * stops one in flight, and writes progress as compare-and-set; one deployment per service is
 * in flight at a time, which the database enforces (a partial unique index), so a second
 * request or a second instance gets a 409 rather than a race.
 */
export class DeploymentRollout {
  constructor(private readonly deps: DeploymentRolloutDeps) {}

  /**
   * Registers and rolls a release onto a service of an environment: the task definition given,
   * or the service's current one with the image given. Without a description, one is made of
   * the release: `describe` (a step's name before it), else "Deploy <family> to <service>".
   */
  async deployRelease(
    organizationId: string,
    input: CreateDeploymentRequest,
    trigger: {
      triggerSource: Deployment['triggerSource'];
      triggerChannel: string;
      triggeredBy?: string;
      step?: NewDeployment['step'];
      describe?: (definition: Record<string, unknown>) => string;
    },
  ): Promise<Deployment> {
    const { stores } = this.deps;
    const projectId = await stores.moduleInstances.projectOfEnvironment(
      organizationId,
      input.environmentId,
    );
    if (!projectId) {
      throw notFound('Environment', input.environmentId);
    }
    if (input.moduleInstanceId) {
      const instance = await stores.moduleInstances.get(
        organizationId,
        input.moduleInstanceId,
      );
      if (!instance || instance.environmentId !== input.environmentId) {
        throw notFound('ModuleInstance', input.moduleInstanceId);
      }
    }
    const account = await this.connectedAccount(
      organizationId,
      input.cloudAccountId,
    );
    const taskDefinition =
      input.taskDefinition ??
      (await this.definitionWithImage(
        organizationId,
        input,
        input.image!,
        account,
      ));
    const family = String(taskDefinition.family);
    const pending = await insertUnderParents(
      () =>
        this.insert({
          organizationId,
          projectId,
          environmentId: input.environmentId,
          moduleInstanceId: input.moduleInstanceId,
          status: 'PENDING',
          triggerSource: trigger.triggerSource,
          step: trigger.step,
          description:
            input.description ??
            trigger.describe?.(taskDefinition) ??
            `Deploy ${
              input.image ? imageName(input.image.image) : family
            } to ${ecsName(input.serviceRef)}`,
          data: {
            type: 'cloud:container',
            cloudAccountId: input.cloudAccountId,
            region: input.region,
            clusterRef: input.clusterRef,
            serviceRef: input.serviceRef,
            events: [],
            initiationType: 'SERVICE',
            triggerChannel: trigger.triggerChannel,
            triggeredBy: trigger.triggeredBy,
          },
        }),
      // The cloud account was deleted since it was read (its deletion locks it first).
      () => requireCloudAccount(stores, organizationId, input.cloudAccountId),
    );
    return this.start(pending, account, {
      kind: 'register',
      taskDefinition,
    });
  }

  /**
   * The service's current task definition with a new image for one container: the release the
   * platform last rolled successfully onto the service, or else what the service runs now.
   */
  private async definitionWithImage(
    organizationId: string,
    target: Pick<
      CreateDeploymentRequest,
      'cloudAccountId' | 'region' | 'clusterRef' | 'serviceRef'
    >,
    image: ContainerImageRelease,
    account: CloudAccountAccess,
  ): Promise<Record<string, unknown>> {
    const service = {
      cloudAccountId: target.cloudAccountId,
      region: target.region,
      clusterName: ecsName(target.clusterRef),
      serviceName: ecsName(target.serviceRef),
    };
    const lastGood = await this.deps.stores.deployments.latestOfService(
      organizationId,
      service,
      undefined,
      'SUCCEEDED',
    );
    let base = lastGood?.data.deployedTaskDefinition?.definition;
    if (!base) {
      base = (
        await this.deps.deployments.provider.currentTaskDefinition({
          account,
          region: target.region,
          clusterRef: target.clusterRef,
          serviceRef: target.serviceRef,
        })
      )?.definition;
    }
    if (!base) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'Deployment',
        reason: 'NO_CURRENT_TASK_DEFINITION',
        message: `Service ${service.serviceName} has no task definition to put image ${image.image} into; deploy a whole taskDefinition`,
        metadata: { serviceName: service.serviceName },
      });
    }
    return taskDefinitionWithImage(base, image);
  }

  async stop(deployment: Deployment): Promise<Deployment> {
    const { id } = deployment;
    if (deployment.status === 'PENDING') {
      const cancelled = await this.deps.stores.deployments.recordProgress(
        deployment,
        {
          ...this.progressOf(deployment),
          status: 'CANCELLED',
          error: {
            code: errorCode('Deployment', 'CANCELLED'),
            message: 'The deployment was cancelled before it started',
          },
          completedAt: new Date().toISOString(),
        },
      );
      // Started (or changed) meanwhile: cancel what it is now.
      return (
        cancelled ??
        this.stop(await this.require(deployment.organizationId, id))
      );
    }
    if (
      deployment.status !== 'IN_PROGRESS' ||
      deployment.data.revertRequestedAt ||
      deployment.data.detectedVia === 'EVENT_BUS'
    ) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Deployment',
        reason: 'NOT_CANCELLABLE',
        message: notCancellableMessage(deployment),
        metadata: {
          status: deployment.status,
          ...(deployment.status === 'IN_PROGRESS' &&
          deployment.data.revertRequestedAt
            ? { revertRequestedAt: deployment.data.revertRequestedAt }
            : {}),
        },
      });
    }
    await this.deps.deployments.provider.cancel(
      this.targetOf(deployment, await this.accessOf(deployment)),
      this.providerViewOf(deployment),
    );
    const revertRequestedAt = new Date().toISOString();
    return this.updateData(deployment.organizationId, id, data => ({
      ...data,
      revertRequestedAt,
      revertServiceDeploymentRef: data.serviceDeploymentRef,
      revertExternalDeploymentId: deployment.externalDeploymentId,
    }));
  }

  /** Changes a deployment's data, re-reading it when the follower wrote in between. */
  async updateData(
    organizationId: string,
    id: string,
    change: (data: ContainerDeploymentData) => ContainerDeploymentData,
  ): Promise<Deployment> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.require(organizationId, id);
      const updated = await this.deps.stores.deployments.recordProgress(
        current,
        { ...this.progressOf(current), data: change(current.data) },
      );
      if (updated) {
        return updated;
      }
    }
    throw new InfraDeliveryError({
      status: 409,
      entity: 'Deployment',
      reason: 'CHANGED_CONCURRENTLY',
      message: `Deployment ${id} kept changing; read it and try again`,
    });
  }

  /**
   * Registers and rolls the release. A throttled or unavailable cloud leaves the deployment
   * PENDING for the tick to retry; any other failure ends it FAILED with the error.
   */
  async start(
    pending: Deployment,
    account: CloudAccountAccess,
    release: Release,
  ): Promise<Deployment> {
    const { stores } = this.deps;
    const target = this.targetOf(pending, account);
    const startedAt = new Date().toISOString();
    try {
      const started = await this.deps.deployments.provider.start(
        target,
        release,
      );
      const previousTaskDefinition =
        started.previousTaskDefinition ??
        (await this.lastSucceededRelease(pending));
      const data: ContainerDeploymentData = {
        ...pending.data,
        deployedTaskDefinition: started.deployedTaskDefinition,
        ...(previousTaskDefinition ? { previousTaskDefinition } : {}),
        strategy: started.strategy,
        preDeployEnabled: started.preDeployEnabled,
        postDeployEnabled: started.postDeployEnabled,
        serviceDeploymentRef:
          started.serviceDeploymentRef ?? started.externalDeploymentId,
        ...(started.elbListenerState
          ? { elbListenerState: started.elbListenerState }
          : {}),
        events: [
          ...pending.data.events,
          {
            stepCode: 'INIT',
            currentStep: 1,
            totalSteps:
              started.strategy === 'rolling'
                ? ROLLING_STEPS
                : LIFECYCLE_STAGES.length,
            startedAt,
            lifecycleStage: 'RECONCILE_SERVICE',
            trafficPhase: 'standby',
            message: `Service update to ${started.deployedTaskDefinition.ref} accepted`,
          },
        ],
      };
      return (
        (await stores.deployments.recordProgress(pending, {
          status: 'IN_PROGRESS',
          data,
          externalDeploymentId: started.externalDeploymentId,
          resourceRef: started.resourceRef,
          startedAt,
        })) ?? this.require(pending.organizationId, pending.id)
      );
    } catch (error) {
      if (error instanceof InfraDeliveryError && error.status === 503) {
        this.deps.logger?.warn(
          `Deployment ${pending.id} stays PENDING: ${error.message}`,
        );
        // Keeps the release, so that the tick can start it later.
        if (
          release.kind === 'register' &&
          !pending.data.deployedTaskDefinition
        ) {
          return (
            (await stores.deployments.recordProgress(pending, {
              ...this.progressOf(pending),
              data: {
                ...pending.data,
                deployedTaskDefinition: {
                  ref: '',
                  definition: release.taskDefinition,
                  revision: 0,
                },
              },
              error: error.toBody(),
            })) ?? this.require(pending.organizationId, pending.id)
          );
        }
        return pending;
      }
      return (
        (await stores.deployments.recordProgress(pending, {
          ...this.progressOf(pending),
          status: 'FAILED',
          error: errorBodyOf(error),
          completedAt: new Date().toISOString(),
        })) ?? this.require(pending.organizationId, pending.id)
      );
    }
  }

  async insert(input: NewDeployment): Promise<Deployment> {
    try {
      return await this.deps.stores.transaction(async tx => {
        await lockTargets(tx, input);
        return tx.deployments.create(input);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) {
        throw error;
      }
      if (
        input.step &&
        (await this.deps.stores.deployments.ofStepAttempt(
          input.organizationId,
          input.step.id,
          input.step.attemptEpoch,
        ))
      ) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'Deployment',
          reason: 'STEP_ATTEMPT_DEPLOYED',
          message: `Step execution ${input.step.id} already started its deployment`,
        });
      }
      throw serviceBusy({ serviceName: ecsName(input.data.serviceRef) });
    }
  }

  async require(organizationId: string, id: string) {
    const deployment = await this.deps.stores.deployments.get(
      organizationId,
      id,
    );
    if (!deployment) {
      throw notFound('Deployment', id);
    }
    return deployment;
  }

  async connectedAccount(
    organizationId: string,
    cloudAccountId: string,
  ): Promise<CloudAccountAccess> {
    const account = await requireCloudAccount(
      this.deps.stores,
      organizationId,
      cloudAccountId,
    );
    if (account.status !== 'CONNECTED' || !account.cloudRef) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'CloudAccount',
        reason: 'NOT_CONNECTED',
        message: `Cloud account ${account.givenId} is not connected yet; finish its onboarding first`,
      });
    }
    return {
      cloudAccountId: account.id,
      givenId: account.givenId,
      cloudId: account.cloudId,
      roleArn: account.cloudRef,
      externalId: account.externalId,
    };
  }

  accessOf(deployment: Deployment): Promise<CloudAccountAccess> {
    return this.connectedAccount(
      deployment.organizationId,
      deployment.data.cloudAccountId,
    );
  }

  /**
   * What the service ran before, by the platform's own record: the release of its newest
   * SUCCEEDED deployment. Used when the driver cannot read the running revision (the local one).
   */
  private async lastSucceededRelease(
    deployment: Deployment,
  ): Promise<TaskDefinitionSnapshot | undefined> {
    const lastGood = await this.deps.stores.deployments.latestOfService(
      deployment.organizationId,
      this.serviceKeyOf(deployment),
      undefined,
      'SUCCEEDED',
    );
    return lastGood?.data.deployedTaskDefinition;
  }

  serviceKeyOf(deployment: Deployment) {
    return {
      cloudAccountId: deployment.data.cloudAccountId,
      region: deployment.data.region,
      clusterName: ecsName(deployment.data.clusterRef),
      serviceName: ecsName(deployment.data.serviceRef),
    };
  }

  providerViewOf(deployment: Deployment) {
    return {
      startedAt: deployment.startedAt ?? deployment.createdAt,
      externalDeploymentId: deployment.externalDeploymentId,
      data: deployment.data,
    };
  }

  targetOf(
    deployment: Deployment,
    account: CloudAccountAccess,
  ): EcsServiceTarget {
    return {
      account,
      region: deployment.data.region,
      clusterRef: deployment.data.clusterRef,
      serviceRef: deployment.data.serviceRef,
    };
  }

  /** The stored fields a progress write keeps unless it changes them. */
  progressOf(deployment: Deployment) {
    return {
      status: deployment.status,
      data: deployment.data,
      error: deployment.error,
      externalDeploymentId: deployment.externalDeploymentId,
      resourceRef: deployment.resourceRef,
      startedAt: deployment.startedAt,
      completedAt: deployment.completedAt,
    };
  }
}

/**
 * Holds the environment and the module instance a deployment is recorded in and of until it
 * is: their deletion, which counts their deployments under its own lock, comes before it (404
 * here) or after it (409 there), never between (a deployment in an environment that is gone).
 */
async function lockTargets(tx: Stores, input: NewDeployment): Promise<void> {
  const { organizationId, environmentId, moduleInstanceId } = input;
  if (
    environmentId &&
    !(await tx.projects.lockEnvironment(organizationId, environmentId, 'share'))
  ) {
    throw notFound('Environment', environmentId);
  }
  if (
    moduleInstanceId &&
    !(await tx.moduleInstances.lock(organizationId, moduleInstanceId, 'share'))
  ) {
    throw notFound('ModuleInstance', moduleInstanceId);
  }
}
