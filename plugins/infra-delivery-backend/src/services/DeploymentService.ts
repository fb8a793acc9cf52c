import { AuditorService } from '@backstage/backend-plugin-api';
import {
  CreateDeploymentRequest,
  Deployment,
  DeploymentEvent,
  IN_FLIGHT_DEPLOYMENT_STATUSES,
  ListDeploymentsQuery,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { actorIdOf, Caller } from '../auth/Caller';
import { EXECUTE, READ, ROLLBACK } from '../auth/requirements';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { InfraDeliveryError } from '../errors';
import { audit } from './audit';
import {
  DeploymentRollout,
  DeploymentRolloutDeps,
  serviceBusy,
} from './DeploymentRollout';

/** How far back a rollback's name is looked for through rollbacks to rollbacks. */
const MAX_ROLLBACK_CHAIN = 20;

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
 * Deployments of ECS services as API callers act on them: started through the API, as a
 * rollback or as a redeploy, continued at a pause and cancelled. Creating one registers and
 * rolls the release at once; the scheduler's DeploymentFollower then follows it until it ends.
 * Rollback replays the stored task definition of an earlier successful deployment; nothing is
 * re-rendered.
 */
export class DeploymentService {
  private readonly rollout: DeploymentRollout;

  constructor(
    private readonly deps: DeploymentRolloutDeps & {
      authorizer: Authorizer;
      auditor: AuditorService;
    },
  ) {
    this.rollout = new DeploymentRollout(deps);
  }

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
    return this.rollout.require(caller.organizationId, id);
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
        ...(input.image && { image: input.image.image }),
      },
      () =>
        this.rollout.deployRelease(caller.organizationId, input, {
          triggerSource: 'API',
          triggerChannel: 'API',
          triggeredBy: actorIdOf(caller),
        }),
    );
  }

  async rollback(caller: Caller, targetId: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, ROLLBACK);
    const { stores } = this.deps;
    const target = await this.rollout.require(caller.organizationId, targetId);
    const service = this.rollout.serviceKeyOf(target);
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
    const account = await this.rollout.connectedAccount(
      caller.organizationId,
      target.data.cloudAccountId,
    );
    return audit(
      this.deps.auditor,
      'deployment-rollback',
      caller,
      { targetDeploymentId: target.id },
      async () => {
        const pending = await this.rollout.insert({
          organizationId: caller.organizationId,
          projectId: target.projectId,
          environmentId: target.environmentId,
          moduleInstanceId: target.moduleInstanceId,
          status: 'PENDING',
          triggerSource: 'ROLLBACK',
          rollbackToDeploymentId: target.id,
          // Read by people: the release by its description; rollbackToDeploymentId has the id.
          description: `Rollback of ${
            service.serviceName
          } to “${await this.releaseNameOf(target)}” (${String(
            release.definition.family ?? 'task',
          )}:${release.revision})`,
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
        return this.rollout.start(pending, account, {
          kind: 'replay',
          snapshot: release,
        });
      },
    );
  }

  /**
   * The name people gave the release a deployment put out: a rollback's is that of the
   * deployment it returned to, so a rollback to a rollback is not named
   * "Rollback of web to “Rollback of web to “Release 1.1.0” …” …".
   */
  private async releaseNameOf(deployment: Deployment): Promise<string> {
    let named = deployment;
    for (let hop = 0; hop < MAX_ROLLBACK_CHAIN; hop++) {
      if (named.triggerSource !== 'ROLLBACK' || !named.rollbackToDeploymentId) {
        break;
      }
      const earlier = await this.deps.stores.deployments.get(
        named.organizationId,
        named.rollbackToDeploymentId,
      );
      if (!earlier) break;
      named = earlier;
    }
    return named.description;
  }

  /**
   * Lets a deployment paused at a lifecycle hook go on: the provider continues the hook (ECS
   * ContinueServiceDeployment), then the acceptance is recorded. The record is retried over
   * the follower's concurrent writes, since the hook has been answered either way.
   */
  async continue(caller: Caller, id: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const deployment = await this.rollout.require(caller.organizationId, id);
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
          this.rollout.targetOf(
            deployment,
            await this.rollout.accessOf(deployment),
          ),
          this.rollout.providerViewOf(deployment),
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
        return this.rollout.updateData(caller.organizationId, id, data => ({
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
    const deployment = await this.rollout.require(caller.organizationId, id);
    return audit(
      this.deps.auditor,
      'deployment-cancel',
      caller,
      { deploymentId: id },
      () => this.rollout.stop(deployment),
    );
  }

  /**
   * Rolls the exact release of a deployment again (for instance one that failed for reasons
   * outside the release, or to restart a service's tasks): a new deployment whose
   * `redeployOfDeploymentId` names the source, replaying its stored task definition.
   */
  async redeploy(caller: Caller, sourceId: string): Promise<Deployment> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const source = await this.rollout.require(caller.organizationId, sourceId);
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
    const service = this.rollout.serviceKeyOf(source);
    if (
      await this.deps.stores.deployments.inFlightOfService(
        caller.organizationId,
        service,
      )
    ) {
      throw serviceBusy(service);
    }
    const account = await this.rollout.connectedAccount(
      caller.organizationId,
      source.data.cloudAccountId,
    );
    return audit(
      this.deps.auditor,
      'deployment-redeploy',
      caller,
      { sourceDeploymentId: source.id },
      async () => {
        const pending = await this.rollout.insert({
          organizationId: caller.organizationId,
          projectId: source.projectId,
          environmentId: source.environmentId,
          moduleInstanceId: source.moduleInstanceId,
          status: 'PENDING',
          triggerSource: 'REDEPLOY',
          redeployOfDeploymentId: source.id,
          description: `Redeploy of ${
            service.serviceName
          } with the release of “${source.description}” (${String(
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
        return this.rollout.start(pending, account, {
          kind: 'replay',
          snapshot: release,
          forceNewDeployment: true,
        });
      },
    );
  }
}
