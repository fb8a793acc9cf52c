import {
  ModuleInstance,
  ModuleValues,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, toTimestamp } from './timestamps';

interface ModuleInstanceRow {
  id: string;
  organization_id: string;
  project_id: string;
  environment_id: string;
  module_definition_id: string;
  module_version_id: string;
  name: string;
  input_values: string;
  created_at: string | Date;
  updated_at: string | Date;
}

function toInstance(row: ModuleInstanceRow): ModuleInstance {
  return {
    id: row.id,
    organizationId: row.organization_id,
    projectId: row.project_id,
    environmentId: row.environment_id,
    moduleDefinitionId: row.module_definition_id,
    moduleVersionId: row.module_version_id,
    name: row.name,
    values: JSON.parse(row.input_values) as ModuleValues,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

export interface ModuleInstanceFilter {
  environmentId?: string;
  moduleDefinitionId?: string;
  moduleVersionId?: string;
}

export class ModuleInstanceStore {
  constructor(private readonly db: Knex) {}

  /** The project of an environment of the organization, if there is one. */
  async projectOfEnvironment(
    organizationId: string,
    environmentId: string,
  ): Promise<string | undefined> {
    const row = await this.db<{
      id: string;
      organization_id: string;
      project_id: string;
    }>('environments')
      .select('project_id')
      .where({ organization_id: organizationId, id: environmentId })
      .first();
    return row?.project_id;
  }

  async create(input: {
    organizationId: string;
    projectId: string;
    environmentId: string;
    moduleDefinitionId: string;
    moduleVersionId: string;
    name: string;
    values: ModuleValues;
  }): Promise<ModuleInstance> {
    const now = nowTimestamp();
    const row: ModuleInstanceRow = {
      id: newId(),
      organization_id: input.organizationId,
      project_id: input.projectId,
      environment_id: input.environmentId,
      module_definition_id: input.moduleDefinitionId,
      module_version_id: input.moduleVersionId,
      name: input.name,
      input_values: JSON.stringify(input.values),
      created_at: now,
      updated_at: now,
    };
    await this.db('module_instances').insert(row);
    return toInstance(row);
  }

  async get(
    organizationId: string,
    id: string,
  ): Promise<ModuleInstance | undefined> {
    const row = await this.db<ModuleInstanceRow>('module_instances')
      .where({ organization_id: organizationId, id })
      .first();
    return row && toInstance(row);
  }

  async list(
    organizationId: string,
    filter: ModuleInstanceFilter,
    page: KeysetRequest,
  ): Promise<KeysetPage<ModuleInstance>> {
    const query = this.db<ModuleInstanceRow>('module_instances').where({
      organization_id: organizationId,
    });
    if (filter.environmentId) {
      query.where({ environment_id: filter.environmentId });
    }
    if (filter.moduleDefinitionId) {
      query.where({ module_definition_id: filter.moduleDefinitionId });
    }
    if (filter.moduleVersionId) {
      query.where({ module_version_id: filter.moduleVersionId });
    }
    return keysetPage(query, 'id', page, toInstance);
  }

  /** How many instances use a module definition (any of its versions). */
  async countByDefinition(
    organizationId: string,
    moduleDefinitionId: string,
  ): Promise<number> {
    const [{ count }] = await this.db('module_instances')
      .where({
        organization_id: organizationId,
        module_definition_id: moduleDefinitionId,
      })
      .count({ count: '*' });
    return Number(count);
  }

  async update(
    organizationId: string,
    id: string,
    patch: { moduleVersionId: string; name: string; values: ModuleValues },
  ): Promise<ModuleInstance | undefined> {
    await this.db('module_instances')
      .where({ organization_id: organizationId, id })
      .update({
        module_version_id: patch.moduleVersionId,
        name: patch.name,
        input_values: JSON.stringify(patch.values),
        updated_at: nowTimestamp(),
      });
    return this.get(organizationId, id);
  }

  /** As `ProjectStore.lockEnvironment`, for a module instance's deployments. */
  async lock(
    organizationId: string,
    id: string,
    mode: 'share' | 'update',
  ): Promise<boolean> {
    const query = this.db('module_instances')
      .where({ organization_id: organizationId, id })
      .select('id')
      .first();
    const row = await (mode === 'share' ? query.forShare() : query.forUpdate());
    return Boolean(row);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.db('module_instances')
      .where({ organization_id: organizationId, id })
      .delete();
    return deleted === 1;
  }
}
