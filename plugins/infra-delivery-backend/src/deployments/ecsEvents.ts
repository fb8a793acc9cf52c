import {
  EventBridgeEvent,
  InfrastructureEventKind,
} from '@infra-delivery/plugin-infra-delivery-common';
import { z } from 'zod';
import { InfraDeliveryError, validationError } from '../errors';

const arn = z.string().min(1).max(2048);
const isoTime = z.string().max(64).optional();

const taskDetailSchema = z
  .object({
    taskArn: arn,
    clusterArn: arn,
    version: z.number().int().nonnegative(),
    lastStatus: z.string().max(64),
    desiredStatus: z.string().max(64).optional(),
    group: z.string().max(2048).optional(),
    startedBy: z.string().max(2048).optional(),
    taskDefinitionArn: arn.optional(),
    attachments: z.array(z.record(z.string(), z.unknown())).optional(),
    containers: z.array(z.record(z.string(), z.unknown())).optional(),
    availabilityZone: z.string().optional(),
    capacityProviderName: z.string().optional(),
    connectivity: z.string().optional(),
    containerInstanceArn: z.string().optional(),
    healthStatus: z.string().optional(),
    launchType: z.string().optional(),
    platformVersion: z.string().optional(),
    pullStartedAt: isoTime,
    pullStoppedAt: isoTime,
    startedAt: isoTime,
    stopCode: z.string().optional(),
    stoppedAt: isoTime,
    stoppedReason: z.string().optional(),
  })
  .passthrough();

const serviceActionDetailSchema = z
  .object({
    eventType: z.string().max(16),
    eventName: z.string().max(128),
    clusterArn: arn,
    reason: z.string().max(4096).optional(),
    createdAt: isoTime,
  })
  .passthrough();

const deploymentDetailSchema = z
  .object({
    eventType: z.string().max(16),
    eventName: z.string().max(128),
    deploymentId: z.string().min(1).max(255),
    updatedAt: isoTime,
    reason: z.string().max(4096).optional(),
  })
  .passthrough();

/** An ECS event, reduced to what storing and linking it need. */
export interface ParsedEcsEvent {
  kind: InfrastructureEventKind;
  clusterName: string;
  /** Absent for a task that no service started (RunTask). */
  serviceName?: string;
  /** The ECS deployment (`ecs-svc/…`) the event belongs to, where the event names one. */
  ecsDeploymentId?: string;
  taskRef?: string;
  taskVersion?: number;
  /** For deployment state changes: what the event says of the deployment. */
  deploymentOutcome?: 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED';
  serviceRef?: string;
  data: Record<string, unknown>;
}

function lastSegment(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** `arn:aws:ecs:region:account:service/cluster/service` → cluster and service names. */
function serviceOfArn(
  ref: string,
): { clusterName: string; serviceName: string } | undefined {
  const match = /:service\/([^/]+)\/([^/]+)$/.exec(ref);
  return match ? { clusterName: match[1], serviceName: match[2] } : undefined;
}

function parseDetail<T extends z.ZodType>(
  schema: T,
  detail: unknown,
): z.output<T> {
  const result = schema.safeParse(detail);
  if (!result.success) {
    const error = validationError('body', result.error);
    throw error;
  }
  return result.data;
}

function malformed(message: string): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 400,
    entity: 'InfrastructureEvent',
    reason: 'MALFORMED',
    message,
  });
}

/**
 * Reads an ECS EventBridge event. Unknown detail types and details that lack what linking
 * needs are 400s: nothing of them is stored.
 */
export function parseEcsEvent(event: EventBridgeEvent): ParsedEcsEvent {
  if (event.source !== 'aws.ecs') {
    throw malformed(`Events of ${event.source} are not accepted`);
  }
  switch (event['detail-type']) {
    case 'ECS Task State Change': {
      const detail = parseDetail(taskDetailSchema, event.detail);
      const serviceName = detail.group?.startsWith('service:')
        ? detail.group.slice('service:'.length)
        : undefined;
      const taskDefinition = detail.taskDefinitionArn
        ? /task-definition\/([^:]+):(\d+)$/.exec(detail.taskDefinitionArn)
        : null;
      return {
        kind: 'CONTAINER_TASK_STATE_CHANGE',
        clusterName: lastSegment(detail.clusterArn),
        serviceName,
        ecsDeploymentId: detail.startedBy?.startsWith('ecs-svc/')
          ? detail.startedBy
          : undefined,
        taskRef: detail.taskArn,
        taskVersion: detail.version,
        data: {
          type: 'CONTAINER_TASK_STATE_CHANGE',
          rawDetail: event.detail,
          taskRef: detail.taskArn,
          clusterRef: detail.clusterArn,
          attachments: detail.attachments,
          availabilityZone: detail.availabilityZone,
          capacityProviderName: detail.capacityProviderName,
          connectivity: detail.connectivity,
          containerInstanceRef: detail.containerInstanceArn,
          containers: detail.containers,
          desiredStatus: detail.desiredStatus,
          exitCode: essentialExitCode(detail.containers),
          healthStatus: detail.healthStatus,
          lastStatus: detail.lastStatus,
          launchType: detail.launchType,
          platformVersion: detail.platformVersion,
          pullStartedAt: detail.pullStartedAt,
          pullStoppedAt: detail.pullStoppedAt,
          startedAt: detail.startedAt,
          startedBy: detail.startedBy,
          stopCode: detail.stopCode,
          stoppedAt: detail.stoppedAt,
          stoppedReason: detail.stoppedReason,
          taskDefinitionRef: detail.taskDefinitionArn,
          taskDefinitionFamily: taskDefinition?.[1],
          taskDefinitionRevision: taskDefinition
            ? Number(taskDefinition[2])
            : undefined,
          taskGroup: detail.group,
          taskTargetId: lastSegment(detail.taskArn),
        },
      };
    }
    case 'ECS Service Action': {
      const detail = parseDetail(serviceActionDetailSchema, event.detail);
      const service = event.resources
        .map(serviceOfArn)
        .find(named => named !== undefined);
      if (!service) {
        throw malformed('A service action event must name its service');
      }
      return {
        kind: 'CONTAINER_SERVICE_ACTION',
        ...service,
        serviceRef: event.resources.find(r => serviceOfArn(r)),
        data: {
          type: 'CONTAINER_SERVICE_ACTION',
          rawDetail: event.detail,
          eventType: detail.eventType,
          eventName: detail.eventName,
          clusterRef: detail.clusterArn,
          serviceRef: event.resources.find(r => serviceOfArn(r)),
          reason: detail.reason,
          createdAt: detail.createdAt,
        },
      };
    }
    case 'ECS Deployment State Change': {
      const detail = parseDetail(deploymentDetailSchema, event.detail);
      const serviceRef = event.resources.find(r => serviceOfArn(r));
      if (!serviceRef) {
        throw malformed('A deployment state change must name its service');
      }
      const outcome: Record<string, ParsedEcsEvent['deploymentOutcome']> = {
        SERVICE_DEPLOYMENT_IN_PROGRESS: 'IN_PROGRESS',
        SERVICE_DEPLOYMENT_COMPLETED: 'SUCCEEDED',
        SERVICE_DEPLOYMENT_FAILED: 'FAILED',
      };
      return {
        kind: 'CONTAINER_DEPLOYMENT_STATE_CHANGE',
        ...serviceOfArn(serviceRef)!,
        serviceRef,
        ecsDeploymentId: detail.deploymentId,
        deploymentOutcome: outcome[detail.eventName],
        data: {
          type: 'CONTAINER_DEPLOYMENT_STATE_CHANGE',
          rawDetail: event.detail,
          eventType: detail.eventType,
          eventName: detail.eventName,
          serviceRef,
          deploymentId: detail.deploymentId,
          reason: detail.reason,
          updatedAt: detail.updatedAt,
        },
      };
    }
    default:
      throw malformed(
        `ECS events of type ${event['detail-type']} are not accepted`,
      );
  }
}

/** The exit code of the first container that exited non-zero, else of any that exited. */
function essentialExitCode(
  containers: Array<Record<string, unknown>> | undefined,
): number | undefined {
  const codes = (containers ?? [])
    .map(container => container.exitCode)
    .filter((code): code is number => typeof code === 'number');
  return codes.find(code => code !== 0) ?? codes[0];
}
