import { createHash, timingSafeEqual } from 'node:crypto';
import {
  Deployment,
  DeploymentStatus,
  errorCode,
  EventBridgeEvent,
  InfrastructureEvent,
  InfrastructureEventKind,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { READ } from '../auth/requirements';
import { isUniqueViolation } from '../database/dbErrors';
import { ServiceKey } from '../database/DeploymentStore';
import { Stores } from '../database/stores';
import { ParsedEcsEvent, parseEcsEvent } from '../deployments/ecsEvents';
import { InfraDeliveryError } from '../errors';
import { DeploymentOptions } from './DeploymentRollout';

export type IngestOutcome =
  | 'STORED'
  | 'DUPLICATE'
  | 'OUT_OF_ORDER'
  | 'UNKNOWN_ACCOUNT';

const CIRCUIT_BREAKER_ROLLBACK = /circuit breaker.*roll(ing|ed)? ?back/i;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * ECS events from EventBridge. The ingestion endpoint's credential is one shared secret,
 * compared in constant time; the organization is found from the event's AWS account (every
 * organization that connected it gets its own copy). Events are idempotent by their id, task
 * events older than one already stored (by `detail.version`) are dropped, and each event is
 * linked to the deployment of its service: the ECS deployment it names where it names one,
 * else the service's newest deployment. A deployment state change that no deployment
 * explains was started outside the platform and is recorded as a deployment of its own.
 */
export class InfrastructureEventService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      deployments: DeploymentOptions;
    },
  ) {}

  /** Throws 401 unless `presented` is the configured ingest token. */
  checkIngestToken(presented: string | undefined): void {
    const configured = this.deps.deployments.ingestToken;
    if (!configured) {
      throw new InfraDeliveryError({
        status: 503,
        entity: 'InfrastructureEvent',
        reason: 'INGESTION_NOT_CONFIGURED',
        message:
          'Event ingestion is off: infraDelivery.events.ingestToken is not configured',
      });
    }
    if (
      presented === undefined ||
      !timingSafeEqual(digest(presented), digest(configured))
    ) {
      throw new InfraDeliveryError({
        status: 401,
        entity: 'InfrastructureEvent',
        reason: 'INVALID_INGEST_TOKEN',
        message: 'The ingest token is missing or wrong',
      });
    }
  }

  async ingest(
    event: EventBridgeEvent,
  ): Promise<{ outcome: IngestOutcome; eventIds: string[] }> {
    const parsed = parseEcsEvent(event);
    const accounts =
      await this.deps.stores.infrastructureEvents.connectedAccountsOf(
        event.account,
      );
    if (accounts.length === 0) {
      return { outcome: 'UNKNOWN_ACCOUNT', eventIds: [] };
    }
    const outcomes: IngestOutcome[] = [];
    const eventIds: string[] = [];
    for (const account of accounts) {
      // No transaction: the unique indexes settle races, and a refused insert must not
      // abort what follows it (PostgreSQL would).
      const result = await this.ingestFor(
        this.deps.stores,
        account,
        event,
        parsed,
      );
      outcomes.push(result.outcome);
      if (result.stored) {
        eventIds.push(result.stored.id);
      }
    }
    return {
      outcome: eventIds.length > 0 ? 'STORED' : outcomes[0],
      eventIds,
    };
  }

  async list(
    caller: Caller,
    filter: {
      resourceId?: string;
      deploymentId?: string;
      kind?: InfrastructureEventKind;
    },
  ): Promise<InfrastructureEvent[]> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.infrastructureEvents.list(
      caller.organizationId,
      filter,
    );
  }

  private async ingestFor(
    stores: Stores,
    account: { id: string; organizationId: string },
    event: EventBridgeEvent,
    parsed: ParsedEcsEvent,
  ): Promise<{ outcome: IngestOutcome; stored?: InfrastructureEvent }> {
    const { organizationId } = account;
    if (await stores.infrastructureEvents.hasEvent(organizationId, event.id)) {
      return { outcome: 'DUPLICATE' };
    }
    if (parsed.taskRef !== undefined && parsed.taskVersion !== undefined) {
      const latest = await stores.infrastructureEvents.latestTaskVersion(
        organizationId,
        parsed.taskRef,
      );
      if (latest !== undefined && latest >= parsed.taskVersion) {
        return { outcome: 'OUT_OF_ORDER' };
      }
    }
    const service: ServiceKey | undefined = parsed.serviceName
      ? {
          cloudAccountId: account.id,
          region: event.region,
          clusterName: parsed.clusterName,
          serviceName: parsed.serviceName,
        }
      : undefined;
    const deployment = service
      ? await this.linkedDeployment(
          stores,
          organizationId,
          service,
          parsed,
          event,
        )
      : undefined;
    try {
      const stored = await stores.infrastructureEvents.insert({
        organizationId,
        cloudAccountId: account.id,
        eventId: event.id,
        kind: parsed.kind,
        detailType: event['detail-type'],
        source: event.source,
        region: event.region,
        eventTime: new Date(event.time).toISOString(),
        taskRef: parsed.taskRef,
        taskVersion: parsed.taskVersion,
        moduleDeploymentId: deployment?.id,
        deploymentResourceId: deployment?.moduleInstanceId,
        data: parsed.data,
      });
      return { outcome: 'STORED', stored };
    } catch (error) {
      if (isUniqueViolation(error)) {
        return { outcome: 'DUPLICATE' };
      }
      throw error;
    }
  }

  /**
   * The deployment an event belongs to. A deployment state change also moves the deployment
   * it names to the outcome it reports, or creates it when the platform did not start it.
   */
  private async linkedDeployment(
    stores: Stores,
    organizationId: string,
    service: ServiceKey,
    parsed: ParsedEcsEvent,
    event: EventBridgeEvent,
  ): Promise<Deployment | undefined> {
    if (!parsed.ecsDeploymentId) {
      return stores.deployments.latestOfService(organizationId, service);
    }
    const named = await stores.deployments.byExternalId(
      organizationId,
      service,
      parsed.ecsDeploymentId,
    );
    if (parsed.kind !== 'CONTAINER_DEPLOYMENT_STATE_CHANGE') {
      return named;
    }
    const status = this.statusOf(parsed);
    if (named) {
      return this.applyOutcome(stores, named, status, event);
    }
    const inFlight = await stores.deployments.inFlightOfService(
      organizationId,
      service,
    );
    if (inFlight && !inFlight.externalDeploymentId) {
      // The platform's own deployment, whose ECS id the start did not learn.
      return inFlight;
    }
    if (inFlight && (status === 'IN_PROGRESS' || status === 'PENDING')) {
      return inFlight;
    }
    return this.recordExternalDeployment(
      stores,
      organizationId,
      service,
      parsed,
      status,
      event,
    );
  }

  private statusOf(parsed: ParsedEcsEvent): DeploymentStatus {
    switch (parsed.deploymentOutcome) {
      case 'SUCCEEDED':
        return 'SUCCEEDED';
      case 'FAILED':
        return CIRCUIT_BREAKER_ROLLBACK.test(String(parsed.data.reason ?? ''))
          ? 'ROLLED_BACK'
          : 'FAILED';
      default:
        return 'IN_PROGRESS';
    }
  }

  private async applyOutcome(
    stores: Stores,
    deployment: Deployment,
    status: DeploymentStatus,
    event: EventBridgeEvent,
  ): Promise<Deployment> {
    if (
      status === 'IN_PROGRESS' ||
      (deployment.status !== 'IN_PROGRESS' && deployment.status !== 'PENDING')
    ) {
      return deployment;
    }
    const updated = await stores.deployments.recordProgress(deployment, {
      status,
      data: {
        ...deployment.data,
        events: [
          ...deployment.data.events,
          {
            stepCode: status,
            currentStep: 4,
            totalSteps: 4,
            startedAt: new Date(event.time).toISOString(),
            message: String(event.detail.reason ?? event.detail.eventName),
          },
        ],
      },
      error:
        status === 'SUCCEEDED'
          ? undefined
          : {
              code: errorCode(
                'Deployment',
                status === 'ROLLED_BACK'
                  ? 'CIRCUIT_BREAKER_ROLLED_BACK'
                  : 'FAILED',
              ),
              message: String(event.detail.reason ?? 'ECS reported a failure'),
            },
      externalDeploymentId: deployment.externalDeploymentId,
      resourceRef: deployment.resourceRef,
      startedAt: deployment.startedAt,
      completedAt: new Date(event.time).toISOString(),
    });
    return updated ?? deployment;
  }

  private async recordExternalDeployment(
    stores: Stores,
    organizationId: string,
    service: ServiceKey,
    parsed: ParsedEcsEvent,
    status: DeploymentStatus,
    event: EventBridgeEvent,
  ): Promise<Deployment | undefined> {
    const previous = await stores.deployments.latestOfService(
      organizationId,
      service,
    );
    const time = new Date(event.time).toISOString();
    const ended = status !== 'IN_PROGRESS';
    try {
      return await stores.deployments.create({
        organizationId,
        projectId: previous?.projectId,
        environmentId: previous?.environmentId,
        moduleInstanceId: previous?.moduleInstanceId,
        status,
        triggerSource: 'EVENT_BUS',
        description: `Deployment of ${service.serviceName} started outside the platform (${parsed.ecsDeploymentId})`,
        externalDeploymentId: parsed.ecsDeploymentId,
        resourceRef: parsed.serviceRef,
        startedAt: time,
        completedAt: ended ? time : undefined,
        data: {
          type: 'cloud:container',
          cloudAccountId: service.cloudAccountId,
          region: service.region,
          clusterRef: service.clusterName,
          serviceRef: parsed.serviceRef ?? service.serviceName,
          detectedVia: 'EVENT_BUS',
          serviceDeploymentRef: parsed.ecsDeploymentId,
          serviceDeploymentState: {
            observedAt: time,
            serviceDeploymentRef: parsed.ecsDeploymentId,
            status: String(event.detail.eventName),
            statusReason:
              typeof event.detail.reason === 'string'
                ? event.detail.reason
                : undefined,
          },
          events: [
            {
              stepCode: ended ? status : 'IN_PROGRESS',
              currentStep: ended ? 4 : 2,
              totalSteps: 4,
              startedAt: time,
              message: String(event.detail.reason ?? event.detail.eventName),
            },
          ],
        },
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        // Another in-flight deployment holds the service: the event belongs to it.
        return stores.deployments.inFlightOfService(organizationId, service);
      }
      throw error;
    }
  }
}
