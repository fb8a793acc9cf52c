import {
  ContainerDeploymentData,
  Deployment,
  DeploymentStatus,
  ErrorBody,
  IN_FLIGHT_DEPLOYMENT_STATUSES,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { fromJsonColumn, toJsonColumn } from './json';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import {
  nowTimestamp,
  optional,
  toOptionalTimestamp,
  toTimestamp,
} from './timestamps';

interface DeploymentRow {
  id: string;
  organization_id: string;
  project_id: string | null;
  environment_id: string | null;
  module_instance_id: string | null;
  cloud_account_id: string;
  region: string;
  cluster_name: string;
  service_name: string;
  status: DeploymentStatus;
  trigger_source: Deployment['triggerSource'];
  description: string;
  external_deployment_id: string | null;
  resource_ref: string | null;
  rollback_to_deployment_id: string | null;
  redeploy_of_deployment_id: string | null;
  pipeline_run_id: string | null;
  step_execution_id: string | null;
  step_attempt_epoch: number | null;
  data: string;
  error: string | null;
  created_at: string | Date;
  updated_at: string | Date;
  started_at: string | Date | null;
  completed_at: string | Date | null;
}

/** The ECS service a deployment rolls: what "one in flight per service" is keyed by. */
export interface ServiceKey {
  cloudAccountId: string;
  region: string;
  clusterName: string;
  serviceName: string;
}

/** The last path segment of an ECS ARN, or the name itself. */
export function ecsName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

function toDeployment(row: DeploymentRow): Deployment {
  return {
    id: row.id,
    organizationId: row.organization_id,
    deploymentType: 'cloud:container',
    projectId: optional(row.project_id),
    environmentId: optional(row.environment_id),
    moduleInstanceId: optional(row.module_instance_id),
    status: row.status,
    triggerSource: row.trigger_source,
    description: row.description,
    externalDeploymentId: optional(row.external_deployment_id),
    resourceRef: optional(row.resource_ref),
    resourceName: row.service_name,
    rollbackToDeploymentId: optional(row.rollback_to_deployment_id),
    redeployOfDeploymentId: optional(row.redeploy_of_deployment_id),
    pipelineRunId: optional(row.pipeline_run_id),
    stepExecutionId: optional(row.step_execution_id),
    data: {
      ...(JSON.parse(row.data) as ContainerDeploymentData),
      // The module deployment that infrastructure events name as `moduleDeploymentId`.
      ...(row.module_instance_id
        ? { containerModuleDeploymentId: row.id }
        : {}),
    },
    error: fromJsonColumn<ErrorBody>(row.error),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
    startedAt: toOptionalTimestamp(row.started_at),
    completedAt: toOptionalTimestamp(row.completed_at),
  };
}

export interface DeploymentFilter {
  environmentId?: string;
  moduleInstanceId?: string;
  status?: DeploymentStatus;
  /** Names or ARNs; matched by name. */
  clusterRef?: string;
  serviceRef?: string;
}

export interface NewDeployment {
  organizationId: string;
  projectId?: string;
  environmentId?: string;
  moduleInstanceId?: string;
  status: DeploymentStatus;
  triggerSource: Deployment['triggerSource'];
  description: string;
  externalDeploymentId?: string;
  resourceRef?: string;
  rollbackToDeploymentId?: string;
  redeployOfDeploymentId?: string;
  /** The container.deploy step (and its attempt) that started the deployment. */
  step?: { pipelineRunId: string; id: string; attemptEpoch: number };
  data: ContainerDeploymentData;
  startedAt?: string;
  completedAt?: string;
}

/** What a progress report changes; `status` moves only from the status the reporter read. */
export interface DeploymentProgress {
  status: DeploymentStatus;
  data: ContainerDeploymentData;
  error?: ErrorBody;
  externalDeploymentId?: string;
  resourceRef?: string;
  startedAt?: string;
  completedAt?: string;
}

/** Told of every deployment write that happened: a new deployment, a recorded progress. */
export interface DeploymentChangeListener {
  deploymentChanged(deployment: Deployment): Promise<void>;
}

/** What a deployment is made with, in or of: none of them is deleted while it has deployments. */
export interface DeploymentReference {
  kind: 'cloudAccount' | 'environment' | 'moduleInstance';
  id: string;
}

const REFERENCE_COLUMNS: Record<DeploymentReference['kind'], string> = {
  cloudAccount: 'cloud_account_id',
  environment: 'environment_id',
  moduleInstance: 'module_instance_id',
};

export class DeploymentStore {
  constructor(
    private readonly db: Knex,
    private readonly changes?: DeploymentChangeListener,
  ) {}

  /**
   * Fails with a unique violation while another deployment of the service is in flight, and
   * when the step attempt already started one.
   */
  async create(input: NewDeployment): Promise<Deployment> {
    const now = nowTimestamp();
    const row: DeploymentRow = {
      id: newId(),
      organization_id: input.organizationId,
      project_id: input.projectId ?? null,
      environment_id: input.environmentId ?? null,
      module_instance_id: input.moduleInstanceId ?? null,
      cloud_account_id: input.data.cloudAccountId,
      region: input.data.region,
      cluster_name: ecsName(input.data.clusterRef),
      service_name: ecsName(input.data.serviceRef),
      status: input.status,
      trigger_source: input.triggerSource,
      description: input.description,
      external_deployment_id: input.externalDeploymentId ?? null,
      resource_ref: input.resourceRef ?? null,
      rollback_to_deployment_id: input.rollbackToDeploymentId ?? null,
      redeploy_of_deployment_id: input.redeployOfDeploymentId ?? null,
      pipeline_run_id: input.step?.pipelineRunId ?? null,
      step_execution_id: input.step?.id ?? null,
      step_attempt_epoch: input.step?.attemptEpoch ?? null,
      data: JSON.stringify(input.data),
      error: null,
      created_at: now,
      updated_at: now,
      started_at: input.startedAt ?? null,
      completed_at: input.completedAt ?? null,
    };
    await this.db('deployments').insert(row);
    const created = toDeployment(row);
    await this.changes?.deploymentChanged(created);
    return created;
  }

  async get(
    organizationId: string,
    id: string,
  ): Promise<Deployment | undefined> {
    const row = await this.db<DeploymentRow>('deployments')
      .where({ organization_id: organizationId, id })
      .first();
    return row && toDeployment(row);
  }

  async list(
    organizationId: string,
    filter: DeploymentFilter,
    page: KeysetRequest,
  ): Promise<KeysetPage<Deployment>> {
    const query = this.db<DeploymentRow>('deployments').where({
      organization_id: organizationId,
    });
    if (filter.environmentId) {
      query.where({ environment_id: filter.environmentId });
    }
    if (filter.moduleInstanceId) {
      query.where({ module_instance_id: filter.moduleInstanceId });
    }
    if (filter.status) {
      query.where({ status: filter.status });
    }
    if (filter.clusterRef) {
      query.where({ cluster_name: ecsName(filter.clusterRef) });
    }
    if (filter.serviceRef) {
      query.where({ service_name: ecsName(filter.serviceRef) });
    }
    return keysetPage(query, 'id', page, toDeployment);
  }

  /**
   * The deployments made with a cloud account, and how many of them are still in flight
   * (PENDING or IN_PROGRESS): they need the account for their history, rollbacks and follow-up.
   */
  /**
   * How many deployments were made with a cloud account, in an environment or of a module
   * instance, and how many of them are in flight: what their deletion is refused for.
   */
  async countUsing(
    organizationId: string,
    what: DeploymentReference,
  ): Promise<{ total: number; inFlight: number }> {
    const using = () =>
      this.db('deployments').where({
        organization_id: organizationId,
        [REFERENCE_COLUMNS[what.kind]]: what.id,
      });
    const [[total], [inFlight]] = await Promise.all([
      using().count({ count: '*' }),
      using()
        .whereIn('status', IN_FLIGHT_DEPLOYMENT_STATUSES)
        .count({ count: '*' }),
    ]);
    return { total: Number(total.count), inFlight: Number(inFlight.count) };
  }

  /** The deployment of the service that is PENDING or IN_PROGRESS, if any. */
  async inFlightOfService(
    organizationId: string,
    service: ServiceKey,
  ): Promise<Deployment | undefined> {
    const row = await this.serviceQuery(organizationId, service)
      .whereIn('status', IN_FLIGHT_DEPLOYMENT_STATUSES)
      .first();
    return row && toDeployment(row);
  }

  /** The service's newest deployment created at or before `at`, optionally in one status. */
  async latestOfService(
    organizationId: string,
    service: ServiceKey,
    at?: string,
    status?: DeploymentStatus,
  ): Promise<Deployment | undefined> {
    const query = this.serviceQuery(organizationId, service).orderBy(
      'id',
      'desc',
    );
    if (at) {
      query.where('created_at', '<=', at);
    }
    if (status) {
      query.where({ status });
    }
    const row = await query.first();
    return row && toDeployment(row);
  }

  async byExternalId(
    organizationId: string,
    service: ServiceKey,
    externalDeploymentId: string,
  ): Promise<Deployment | undefined> {
    const row = await this.serviceQuery(organizationId, service)
      .where({ external_deployment_id: externalDeploymentId })
      .orderBy('id', 'desc')
      .first();
    return row && toDeployment(row);
  }

  /** The deployment an attempt of a container.deploy step started, if any. */
  async ofStepAttempt(
    organizationId: string,
    stepExecutionId: string,
    attemptEpoch: number,
  ): Promise<Deployment | undefined> {
    const row = await this.db<DeploymentRow>('deployments')
      .where({
        organization_id: organizationId,
        step_execution_id: stepExecutionId,
        step_attempt_epoch: attemptEpoch,
      })
      .first();
    return row && toDeployment(row);
  }

  /**
   * Deployments in flight whose container.deploy step attempt has ended without them (its run
   * was cancelled), across organizations.
   */
  async inFlightOfEndedSteps(limit: number): Promise<Deployment[]> {
    const rows = await this.db<DeploymentRow>('deployments as d')
      .join('step_executions as s', function joinStep() {
        this.on('s.id', '=', 'd.step_execution_id').andOn(
          's.attempt_epoch',
          '=',
          'd.step_attempt_epoch',
        );
      })
      .whereIn('d.status', IN_FLIGHT_DEPLOYMENT_STATUSES)
      .whereIn('s.status', ['CANCELLED', 'SKIPPED', 'FAILED'])
      .orderBy('d.id', 'asc')
      .limit(limit)
      .select('d.*');
    return rows.map(toDeployment);
  }

  /** Deployments still in flight, oldest first, across organizations: the follower's work. */
  async listInFlight(limit: number): Promise<Deployment[]> {
    const rows = await this.db<DeploymentRow>('deployments')
      .whereIn('status', IN_FLIGHT_DEPLOYMENT_STATUSES)
      .orderBy('id', 'asc')
      .limit(limit);
    return rows.map(toDeployment);
  }

  /**
   * Records progress if the deployment is still in the status and at the update time the
   * caller read: a late or concurrent reporter changes nothing and gets `undefined`.
   */
  async recordProgress(
    expected: Pick<
      Deployment,
      'organizationId' | 'id' | 'status' | 'updatedAt'
    >,
    progress: DeploymentProgress,
  ): Promise<Deployment | undefined> {
    const updated = await this.db('deployments')
      .where({
        organization_id: expected.organizationId,
        id: expected.id,
        status: expected.status,
        updated_at: expected.updatedAt,
      })
      .update({
        status: progress.status,
        data: JSON.stringify(progress.data),
        error: toJsonColumn(progress.error),
        external_deployment_id: progress.externalDeploymentId ?? null,
        resource_ref: progress.resourceRef ?? null,
        started_at: progress.startedAt ?? null,
        completed_at: progress.completedAt ?? null,
        updated_at: laterThan(expected.updatedAt),
      });
    if (updated !== 1) {
      return undefined;
    }
    const recorded = await this.get(expected.organizationId, expected.id);
    if (recorded) {
      await this.changes?.deploymentChanged(recorded);
    }
    return recorded;
  }

  private serviceQuery(organizationId: string, service: ServiceKey) {
    return this.db<DeploymentRow>('deployments').where({
      organization_id: organizationId,
      cloud_account_id: service.cloudAccountId,
      region: service.region,
      cluster_name: service.clusterName,
      service_name: service.serviceName,
    });
  }
}

/**
 * Now, or a millisecond after `previous` when the clock has not moved on: the update time is
 * the compare-and-set token, so it must change with every write.
 */
function laterThan(previous: string): string {
  const now = Date.now();
  const before = new Date(previous).getTime();
  return new Date(Math.max(now, before + 1)).toISOString();
}
