import { AuditorService, LoggerService } from '@backstage/backend-plugin-api';
import {
  ContainerDeploymentData,
  ContainerDeployStepConfig,
  CreateDeploymentRequest,
  Deployment,
  DeploymentEvent,
  ErrorBody,
  errorCode,
  IN_FLIGHT_DEPLOYMENT_STATUSES,
  ListDeploymentsQuery,
  TaskDefinitionSnapshot,
} from '@infra-delivery/plugin-infra-delivery-common';
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
import { LIFECYCLE_STAGES } from '../deployments/serviceDeploymentProgress';
import { taskDefinitionWithImage } from '../deployments/taskDefinitionWithImage';
import { InfraDeliveryError, notFound } from '../errors';
import { audit } from './audit';
import { requireCloudAccount } from './CloudAccountService';

/** What the plugin hands the services for deployments and events. */
export interface DeploymentOptions {
  provider: DeploymentProvider;
  /** `infraDelivery.events.ingestToken`; without it event ingestion is refused. */
  ingestToken?: string;
}

/** The code of the conflict when a step attempt already started its deployment. */
export const STEP_ATTEMPT_DEPLOYED = errorCode(
  'Deployment',
  'STEP_ATTEMPT_DEPLOYED',
);

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

/** The newest progress step, when it waits at a lifecycle hook nobody answered yet. */
function pendingHookOf(deployment: Deployment): DeploymentEvent | undefined {
  const last = deployment.data.events[deployment.data.events.length - 1];
  return deployment.status === 'IN_PROGRESS' &&
    last?.hookId &&
    deployment.data.acceptedPauseControl?.hookId !== last.hookId
    ? last
    : undefined;
}

/**
 * Deployments of ECS services, started through the API, by a pipeline's container.deploy
 * step, as a rollback or as a redeploy. Creating one registers and rolls the release at once;
 * the scheduler's tick (`followDeployments`) then follows every in-flight deployment through
 * the provider until it ends; pauses are continued and deployments cancelled through the
 * provider too. One deployment per service is in flight at a time, which the
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
    return audit(
      this.deps.auditor,
      'deployment-create',
      caller,
      {
        cloudAccountId: input.cloudAccountId,
        clusterRef: input.clusterRef,
        serviceRef: input.serviceRef,
      },
      () =>
        this.deployRelease(caller.organizationId, input, {
          triggerSource: 'API',
          triggerChannel: 'API',
          triggeredBy: actorIdOf(caller),
        }),
    );
  }

  /**
   * What a pipeline's container.deploy step starts: the deployment of its configured service,
   * tied to the step's attempt, in the step's organization. Authorization happened when the
   * run was triggered. A second start for the same attempt (another instance, a repeated tick)
   * is refused at the insert with STEP_ATTEMPT_DEPLOYED, before anything is rolled.
   */
  async deployForStep(
    step: {
      organizationId: string;
      pipelineRunId: string;
      id: string;
      attemptEpoch: number;
      name: string;
    },
    config: ContainerDeployStepConfig,
    triggeredBy: string | undefined,
  ): Promise<Deployment> {
    const { taskDefinition, image, ...target } = config;
    const definition =
      taskDefinition ??
      (await this.definitionWithImage(step.organizationId, config, image!));
    return this.deployRelease(
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

  /** Registers and rolls a task definition onto a service of an environment. */
  private async deployRelease(
    organizationId: string,
    input: CreateDeploymentRequest,
    trigger: {
      triggerSource: Deployment['triggerSource'];
      triggerChannel: string;
      triggeredBy?: string;
      step?: NewDeployment['step'];
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
    const family = String(input.taskDefinition.family);
    const pending = await this.insert({
      organizationId,
      projectId,
      environmentId: input.environmentId,
      moduleInstanceId: input.moduleInstanceId,
      status: 'PENDING',
      triggerSource: trigger.triggerSource,
      step: trigger.step,
      description:
        input.description ?? `Deploy ${family} to ${ecsName(input.serviceRef)}`,
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
    });
    return this.start(pending, account, {
      kind: 'register',
      taskDefinition: input.taskDefinition,
    });
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
      const account = await this.connectedAccount(
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

  /**
   * Lets a deployment paused at a lifecycle hook go on: the provider continues the hook (ECS
   * ContinueServiceDeployment), then the acceptance is recorded. The record is retried over
   * the follower's concurrent writes, since the hook has been answered either way.
   */
  async continue(caller: Caller, id: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const deployment = await this.require(caller.organizationId, id);
    const hook = pendingHookOf(deployment);
    if (!hook) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Deployment',
        reason: 'NOT_PAUSED',
        message: `Deployment ${id} is not waiting at a lifecycle hook`,
        metadata: { status: deployment.status },
      });
    }
    return audit(
      this.deps.auditor,
      'deployment-continue',
      caller,
      { deploymentId: id, hookId: hook.hookId! },
      async () => {
        await this.deps.deployments.provider.continuePause(
          this.targetOf(deployment, await this.accessOf(deployment)),
          this.providerViewOf(deployment),
          hook.hookId!,
        );
        const acceptedPauseControl = {
          acceptedAt: new Date().toISOString(),
          action: 'CONTINUE' as const,
          hookId: hook.hookId!,
          eventStartedAt: hook.startedAt,
          labelKind: 'continue' as const,
          lifecycleStage: hook.lifecycleStage,
        };
        return this.updateData(caller.organizationId, id, data => ({
          ...data,
          acceptedPauseControl,
        }));
      },
    );
  }

  /**
   * Stops a deployment in flight and restores the service's previous revision (ECS
   * StopServiceDeployment with ROLLBACK); the follower ends it CANCELLED once the provider
   * reports the revert. A PENDING deployment never reached the provider and ends at once.
   */
  async cancel(caller: Caller, id: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const deployment = await this.require(caller.organizationId, id);
    return audit(
      this.deps.auditor,
      'deployment-cancel',
      caller,
      { deploymentId: id },
      () => this.stop(deployment),
    );
  }

  /**
   * Cancels the deployments whose container.deploy step ended without them (its run was
   * cancelled): the service goes back to what it ran before the run.
   */
  async cancelOrphanedStepDeployments(): Promise<void> {
    for (const deployment of await this.deps.stores.deployments.inFlightOfEndedSteps(
      FOLLOW_BATCH,
    )) {
      try {
        if (!deployment.data.revertRequestedAt) {
          await this.stop(deployment);
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

  private async stop(deployment: Deployment): Promise<Deployment> {
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
        message:
          deployment.data.detectedVia === 'EVENT_BUS'
            ? `Deployment ${id} was started outside the platform; stop it where it was started`
            : `Deployment ${id} is ${deployment.status}${
                deployment.data.revertRequestedAt ? ' and being cancelled' : ''
              }; only a deployment in progress can be cancelled`,
        metadata: { status: deployment.status },
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

  /**
   * Rolls the exact release of a deployment again (for instance one that failed for reasons
   * outside the release, or to restart a service's tasks): a new deployment whose
   * `redeployOfDeploymentId` names the source, replaying its stored task definition.
   */
  async redeploy(caller: Caller, sourceId: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const source = await this.require(caller.organizationId, sourceId);
    const release = source.data.deployedTaskDefinition;
    if (
      !release?.ref ||
      IN_FLIGHT_DEPLOYMENT_STATUSES.includes(source.status) ||
      source.data.detectedVia === 'EVENT_BUS'
    ) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'Deployment',
        reason: 'NOT_REDEPLOYABLE',
        message: IN_FLIGHT_DEPLOYMENT_STATUSES.includes(source.status)
          ? `Deployment ${source.id} is still ${source.status}`
          : `Deployment ${source.id} has no registered release of the platform to roll again`,
        metadata: { sourceId: source.id, status: source.status },
      });
    }
    const service = this.serviceKeyOf(source);
    if (
      await this.deps.stores.deployments.inFlightOfService(
        caller.organizationId,
        service,
      )
    ) {
      throw serviceBusy(service);
    }
    const account = await this.connectedAccount(
      caller.organizationId,
      source.data.cloudAccountId,
    );
    return audit(
      this.deps.auditor,
      'deployment-redeploy',
      caller,
      { sourceDeploymentId: source.id },
      async () => {
        const pending = await this.insert({
          organizationId: caller.organizationId,
          projectId: source.projectId,
          environmentId: source.environmentId,
          moduleInstanceId: source.moduleInstanceId,
          status: 'PENDING',
          triggerSource: 'REDEPLOY',
          redeployOfDeploymentId: source.id,
          description: `Redeploy of ${
            service.serviceName
          } with the release of deployment ${source.id} (${String(
            release.definition.family ?? 'task',
          )}:${release.revision})`,
          data: {
            type: 'cloud:container',
            cloudAccountId: source.data.cloudAccountId,
            region: source.data.region,
            clusterRef: source.data.clusterRef,
            serviceRef: source.data.serviceRef,
            events: [],
            initiationType: 'SERVICE',
            triggerChannel: 'REDEPLOY',
            triggeredBy: actorIdOf(caller),
          },
        });
        return this.start(pending, account, {
          kind: 'replay',
          snapshot: release,
          forceNewDeployment: true,
        });
      },
    );
  }

  /** Changes a deployment's data, re-reading it when the follower wrote in between. */
  private async updateData(
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
      this.providerViewOf(deployment),
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
              started.strategy === 'rolling' ? 4 : LIFECYCLE_STAGES.length,
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

  private serviceKeyOf(deployment: Deployment) {
    return {
      cloudAccountId: deployment.data.cloudAccountId,
      region: deployment.data.region,
      clusterName: ecsName(deployment.data.clusterRef),
      serviceName: ecsName(deployment.data.serviceRef),
    };
  }

  private providerViewOf(deployment: Deployment) {
    return {
      startedAt: deployment.startedAt ?? deployment.createdAt,
      externalDeploymentId: deployment.externalDeploymentId,
      data: deployment.data,
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
