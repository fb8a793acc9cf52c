import {
  InfrastructureEvent,
  InfrastructureEventKind,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

interface InfrastructureEventRow {
  id: string;
  organization_id: string;
  cloud_account_id: string;
  event_id: string;
  kind: InfrastructureEventKind;
  detail_type: string;
  source: string;
  region: string;
  event_time: string | Date;
  task_ref: string | null;
  task_version: number | null;
  module_deployment_id: string | null;
  deployment_resource_id: string | null;
  data: string;
  created_at: string | Date;
}

function toEvent(row: InfrastructureEventRow): InfrastructureEvent {
  return {
    id: row.id,
    eventId: row.event_id,
    kind: row.kind,
    detailType: row.detail_type,
    source: row.source,
    region: row.region,
    eventTime: toTimestamp(row.event_time),
    cloudAccountId: row.cloud_account_id,
    moduleDeploymentId: optional(row.module_deployment_id),
    deploymentResourceId: optional(row.deployment_resource_id),
    data: JSON.parse(row.data),
  };
}

export interface NewInfrastructureEvent {
  organizationId: string;
  cloudAccountId: string;
  eventId: string;
  kind: InfrastructureEventKind;
  detailType: string;
  source: string;
  region: string;
  eventTime: string;
  taskRef?: string;
  taskVersion?: number;
  moduleDeploymentId?: string;
  deploymentResourceId?: string;
  data: Record<string, unknown>;
}

/** The most events one list answer carries (the specification's answer has no pages). */
export const MAX_LISTED_EVENTS = 1000;

export class InfrastructureEventStore {
  constructor(private readonly db: Knex) {}

  /** Connected cloud accounts of every organization with this AWS account id. */
  async connectedAccountsOf(
    cloudId: string,
  ): Promise<Array<{ id: string; organizationId: string }>> {
    const rows = await this.db('cloud_accounts')
      .select('id', 'organization_id')
      .where({ cloud_id: cloudId, status: 'CONNECTED' })
      .orderBy('id');
    return rows.map((row: { id: string; organization_id: string }) => ({
      id: row.id,
      organizationId: row.organization_id,
    }));
  }

  async hasEvent(organizationId: string, eventId: string): Promise<boolean> {
    const row = await this.db('infrastructure_events')
      .select('id')
      .where({ organization_id: organizationId, event_id: eventId })
      .first();
    return row !== undefined;
  }

  /** The highest `detail.version` stored for a task, if any. */
  async latestTaskVersion(
    organizationId: string,
    taskRef: string,
  ): Promise<number | undefined> {
    const [row] = await this.db('infrastructure_events')
      .where({ organization_id: organizationId, task_ref: taskRef })
      .max({ version: 'task_version' });
    const version = (row as { version: number | string | null } | undefined)
      ?.version;
    return version === null || version === undefined
      ? undefined
      : Number(version);
  }

  /** Fails with a unique violation when the organization has the event already. */
  async insert(input: NewInfrastructureEvent): Promise<InfrastructureEvent> {
    const row: InfrastructureEventRow = {
      id: newId(),
      organization_id: input.organizationId,
      cloud_account_id: input.cloudAccountId,
      event_id: input.eventId,
      kind: input.kind,
      detail_type: input.detailType,
      source: input.source,
      region: input.region,
      event_time: input.eventTime,
      task_ref: input.taskRef ?? null,
      task_version: input.taskVersion ?? null,
      module_deployment_id: input.moduleDeploymentId ?? null,
      deployment_resource_id: input.deploymentResourceId ?? null,
      data: JSON.stringify(input.data),
      created_at: nowTimestamp(),
    };
    await this.db('infrastructure_events').insert(row);
    return toEvent(row);
  }

  /** Events of one deployment or one resource, newest first. */
  async list(
    organizationId: string,
    filter: {
      deploymentId?: string;
      resourceId?: string;
      kind?: InfrastructureEventKind;
    },
  ): Promise<InfrastructureEvent[]> {
    const query = this.db<InfrastructureEventRow>('infrastructure_events')
      .where({ organization_id: organizationId })
      .orderBy('id', 'desc')
      .limit(MAX_LISTED_EVENTS);
    if (filter.deploymentId) {
      query.where({ module_deployment_id: filter.deploymentId });
    } else {
      query.where({ deployment_resource_id: filter.resourceId! });
    }
    if (filter.kind) {
      query.where({ kind: filter.kind });
    }
    return (await query).map(toEvent);
  }
}
