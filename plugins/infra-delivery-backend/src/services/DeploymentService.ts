import { AuditorService, LoggerService } from '@backstage/backend-plugin-api';
import {
  ContainerDeploymentData,
  CreateDeploymentRequest,
  Deployment,
  DeploymentEvent,
  ErrorBody,
  errorCode,
  ListDeploymentsQuery,
} from '@internal/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { actorIdOf, Caller } from '../auth/Caller';
import { EXECUTE, READ, ROLLBACK } from '../auth/requirements';
import { CloudAccountAccess } from '../cloud/CloudProvider';
import { isUniqueViolation } from '../database/dbErrors';
import { ecsName, NewDeployment } from '../database/DeploymentStore';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import {
  DeploymentObservation,
  DeploymentProvider,
  EcsServiceTarget,
  Release,
} from '../deployments/DeploymentProvider';
import { InfraDeliveryError, notFound } from '../errors';
import { audit } from './audit';
import { requireCloudAccount } from './CloudAccountService';

/** What the plugin hands the services for deployments and events. */
export interface DeploymentOptions {
  provider: DeploymentProvider;
  /** `infraDelivery.events.ingestToken`; without it event ingestion is refused. */
  ingestToken?: string;
}

/** How long a PENDING deployment is left to the request that created it before a tick retries. */
export const PENDING_GRACE_MILLIS = 30_000;
/** Deployments one tick follows at most. */
const FOLLOW_BATCH = 100;

function serviceBusy(deployment: { serviceName: string }): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 409,
    entity: 'Deployment',
    reason: 'SERVICE_BUSY',
    message: `Another deployment of service ${deployment.serviceName} is pending or in progress; wait for it to finish`,
    metadata: { serviceName: deployment.serviceName },
  });
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
 * Deployments of ECS services. Creating one registers and rolls the release at once; the
 * scheduler's tick (`followDeployments`) then follows every in-flight deployment through the
 * provider until it ends. One deployment per service is in flight at a time, which the
 * database enforces (a partial unique index), so a second request or a second instance gets
 * a 409 rather than a race. Rollback replays the stored task definition of an earlier
 * successful deployment; nothing is re-rendered.
 */
export class DeploymentService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
      deployments: DeploymentOptions;
      logger?: LoggerService;
    },
  ) {}

  async list(
    caller: Caller,
    filter: Omit<ListDeploymentsQuery, 'limit' | 'cursor'>,
    page: KeysetRequest,
  ): Promise<KeysetPage<Deployment>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.deployments.list(
      caller.organizationId,
      filter,
      page,
    );
  }

  async get(caller: Caller, id: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, READ);
    return this.require(caller.organizationId, id);
  }

  async create(
    caller: Caller,
    input: CreateDeploymentRequest,
  ): Promise<Deployment> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const { stores } = this.deps;
    const projectId = await stores.moduleInstances.projectOfEnvironment(
      caller.organizationId,
      input.environmentId,
    );
    if (!projectId) {
      throw notFound('Environment', input.environmentId);
    }
    if (input.moduleInstanceId) {
      const instance = await stores.moduleInstances.get(
        caller.organizationId,
        input.moduleInstanceId,
      );
      if (!instance || instance.environmentId !== input.environmentId) {
        throw notFound('ModuleInstance', input.moduleInstanceId);
      }
    }
    const account = await this.connectedAccount(
      caller.organizationId,
      input.cloudAccountId,
    );
    const family = String(input.taskDefinition.family);
    return audit(
      this.deps.auditor,
      'deployment-create',
      caller,
      {
        cloudAccountId: input.cloudAccountId,
        clusterRef: input.clusterRef,
        serviceRef: input.serviceRef,
      },
      async () => {
        const pending = await this.insert({
          organizationId: caller.organizationId,
          projectId,
          environmentId: input.environmentId,
          moduleInstanceId: input.moduleInstanceId,
          status: 'PENDING',
          triggerSource: 'API',
          description:
            input.description ??
            `Deploy ${family} to ${ecsName(input.serviceRef)}`,
          data: {
            type: 'cloud:container',
            cloudAccountId: input.cloudAccountId,
            region: input.region,
            clusterRef: input.clusterRef,
            serviceRef: input.serviceRef,
            events: [],
            initiationType: 'SERVICE',
            triggerChannel: 'API',
            triggeredBy: actorIdOf(caller),
          },
        });
        return this.start(pending, account, {
          kind: 'register',
          taskDefinition: input.taskDefinition,
        });
      },
    );
  }

  async rollback(caller: Caller, targetId: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, ROLLBACK);
    const { stores } = this.deps;
    const target = await this.require(caller.organizationId, targetId);
    const service = this.serviceKeyOf(target);
    const inFlight = await stores.deployments.inFlightOfService(
      caller.organizationId,
      service,
    );
    if (inFlight) {
      throw serviceBusy(service);
    }
    const release = target.data.deployedTaskDefinition;
    if (target.status !== 'SUCCEEDED' || !release) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'Deployment',
        reason: 'ROLLBACK_TARGET_NOT_SUCCEEDED',
        message: `Deployment ${target.id} is ${target.status}; only a deployment that succeeded can be rolled back to`,
        metadata: { targetId: target.id, status: target.status },
      });
    }
    const latest = await stores.deployments.latestOfService(
      caller.organizationId,
      service,
    );
    if (latest?.id === target.id) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'Deployment',
        reason: 'ROLLBACK_TARGET_IS_CURRENT',
        message: `Deployment ${target.id} is the newest deployment of service ${service.serviceName}; there is nothing to roll back`,
        metadata: { targetId: target.id },
      });
    }
    const account = await this.connectedAccount(
      caller.organizationId,
      target.data.cloudAccountId,
    );
    return audit(
      this.deps.auditor,
      'deployment-rollback',
      caller,
      { targetDeploymentId: target.id },
      async () => {
        const pending = await this.insert({
          organizationId: caller.organizationId,
          projectId: target.projectId,
          environmentId: target.environmentId,
          moduleInstanceId: target.moduleInstanceId,
          status: 'PENDING',
          triggerSource: 'ROLLBACK',
          rollbackToDeploymentId: target.id,
          description: `Rollback of ${service.serviceName} to deployment ${
            target.id
          } (${String(release.definition.family ?? 'task')}:${
            release.revision
          }, deployed ${target.completedAt ?? target.createdAt})`,
          data: {
            type: 'cloud:container',
            cloudAccountId: target.data.cloudAccountId,
            region: target.data.region,
            clusterRef: target.data.clusterRef,
            serviceRef: target.data.serviceRef,
            events: [],
            initiationType: 'SERVICE',
            triggerChannel: 'ROLLBACK',
            triggeredBy: actorIdOf(caller),
          },
        });
        return this.start(pending, account, {
          kind: 'replay',
          snapshot: release,
        });
      },
    );
  }

  /** Records that a person let a deployment paused at a lifecycle hook go on. */
  async continue(caller: Caller, id: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const deployment = await this.require(caller.organizationId, id);
    const last = deployment.data.events[deployment.data.events.length - 1];
    if (
      deployment.status !== 'IN_PROGRESS' ||
      !last?.hookId ||
      deployment.data.acceptedPauseControl?.hookId === last.hookId
    ) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Deployment',
        reason: 'NOT_PAUSED',
        message: `Deployment ${id} is not waiting at a lifecycle hook`,
        metadata: { status: deployment.status },
      });
    }
    const updated = await this.deps.stores.deployments.recordProgress(
      deployment,
      {
        ...this.progressOf(deployment),
        data: {
          ...deployment.data,
          acceptedPauseControl: {
            acceptedAt: new Date().toISOString(),
            action: 'CONTINUE',
            hookId: last.hookId,
            eventStartedAt: last.startedAt,
            labelKind: 'continue',
            lifecycleStage: last.lifecycleStage,
          },
        },
      },
    );
    if (!updated) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Deployment',
        reason: 'CHANGED_CONCURRENTLY',
        message: `Deployment ${id} changed meanwhile; read it and try again`,
      });
    }
    return updated;
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
    const account = await this.connectedAccount(
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
        ...this.progressOf(deployment),
        status: 'FAILED',
        completedAt: new Date().toISOString(),
        error: {
          code: errorCode('Deployment', 'RELEASE_MISSING'),
          message: 'The release of this deployment is no longer stored',
        },
      });
      return;
    }
    await this.start(deployment, account, release);
  }

  private async observe(deployment: Deployment, now: Date): Promise<void> {
    if (!deployment.startedAt) {
      return;
    }
    const observation = await this.deps.deployments.provider.observe(
      this.targetOf(deployment, await this.accessOf(deployment)),
      {
        startedAt: deployment.startedAt,
        externalDeploymentId: deployment.externalDeploymentId,
        data: deployment.data,
      },
      now,
    );
    const step = newStep(deployment.data.events, observation.step, now);
    if (!step && observation.status === deployment.status) {
      return;
    }
    const ended = observation.status !== 'IN_PROGRESS';
    await this.deps.stores.deployments.recordProgress(deployment, {
      ...this.progressOf(deployment),
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

  /**
   * Registers and rolls the release. A throttled or unavailable cloud leaves the deployment
   * PENDING for the tick to retry; any other failure ends it FAILED with the error.
   */
  private async start(
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
      const data: ContainerDeploymentData = {
        ...pending.data,
        deployedTaskDefinition: started.deployedTaskDefinition,
        previousTaskDefinition: started.previousTaskDefinition,
        strategy: started.strategy,
        serviceDeploymentRef: started.externalDeploymentId,
        events: [
          ...pending.data.events,
          {
            stepCode: 'INIT',
            currentStep: 1,
            totalSteps: 4,
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

  private async insert(input: NewDeployment): Promise<Deployment> {
    try {
      return await this.deps.stores.deployments.create(input);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw serviceBusy({ serviceName: ecsName(input.data.serviceRef) });
      }
      throw error;
    }
  }

  private async require(organizationId: string, id: string) {
    const deployment = await this.deps.stores.deployments.get(
      organizationId,
      id,
    );
    if (!deployment) {
      throw notFound('Deployment', id);
    }
    return deployment;
  }

  private async connectedAccount(
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

  private accessOf(deployment: Deployment): Promise<CloudAccountAccess> {
    return this.connectedAccount(
      deployment.organizationId,
      deployment.data.cloudAccountId,
    );
  }

  private serviceKeyOf(deployment: Deployment) {
    return {
      cloudAccountId: deployment.data.cloudAccountId,
      region: deployment.data.region,
      clusterName: ecsName(deployment.data.clusterRef),
      serviceName: ecsName(deployment.data.serviceRef),
    };
  }

  private targetOf(
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
  private progressOf(deployment: Deployment) {
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
