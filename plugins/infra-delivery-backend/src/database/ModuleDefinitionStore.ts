import {
  ModuleDefinition,
  ModuleInput,
  ModuleVersion,
  ValueSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { namedPatchColumns } from './namedPatch';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

interface ModuleDefinitionRow {
  id: string;
  organization_id: string;
  given_id: string;
  name: string;
  description: string | null;
  code_source_id: string;
  path: string;
  created_at: string | Date;
  updated_at: string | Date;
}

interface ModuleVersionRow {
  id: string;
  organization_id: string;
  module_definition_id: string;
  version: string;
  ref: string;
  commit_sha: string;
  inputs: string;
  created_at: string | Date;
}

function toDefinition(row: ModuleDefinitionRow): ModuleDefinition {
  return {
    id: row.id,
    organizationId: row.organization_id,
    givenId: row.given_id,
    name: row.name,
    description: optional(row.description),
    codeSourceId: row.code_source_id,
    path: row.path,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

function toVersion(row: ModuleVersionRow): ModuleVersion {
  return {
    id: row.id,
    organizationId: row.organization_id,
    moduleDefinitionId: row.module_definition_id,
    version: row.version,
    ref: row.ref,
    commitSha: row.commit_sha,
    inputs: JSON.parse(row.inputs) as ModuleInput[],
    createdAt: toTimestamp(row.created_at),
  };
}

/** Module definitions and their versions. */
export class ModuleDefinitionStore {
  constructor(private readonly db: Knex) {}

  async create(input: {
    organizationId: string;
    givenId: string;
    name: string;
    description?: string;
    codeSourceId: string;
    path: string;
  }): Promise<ModuleDefinition> {
    const now = nowTimestamp();
    const row: ModuleDefinitionRow = {
      id: newId(),
      organization_id: input.organizationId,
      given_id: input.givenId,
      name: input.name,
      description: input.description ?? null,
      code_source_id: input.codeSourceId,
      path: input.path,
      created_at: now,
      updated_at: now,
    };
    await this.db('module_definitions').insert(row);
    return toDefinition(row);
  }

  async get(
    organizationId: string,
    id: string,
  ): Promise<ModuleDefinition | undefined> {
    const row = await this.db<ModuleDefinitionRow>('module_definitions')
      .where({ organization_id: organizationId, id })
      .first();
    return row && toDefinition(row);
  }

  async list(
    organizationId: string,
    filter: { codeSourceId?: string },
    page: KeysetRequest,
  ): Promise<KeysetPage<ModuleDefinition>> {
    const query = this.db<ModuleDefinitionRow>('module_definitions').where({
      organization_id: organizationId,
    });
    if (filter.codeSourceId) {
      query.where({ code_source_id: filter.codeSourceId });
    }
    return keysetPage(query, 'id', page, toDefinition);
  }

  async update(
    organizationId: string,
    id: string,
    patch: { name?: string; description?: string },
  ): Promise<ModuleDefinition | undefined> {
    await this.db('module_definitions')
      .where({ organization_id: organizationId, id })
      .update(namedPatchColumns(patch));
    return this.get(organizationId, id);
  }

  /** Deletes the definition with its versions; instances must be gone first. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.db('module_definitions')
      .where({ organization_id: organizationId, id })
      .delete();
    return deleted === 1;
  }

  async createVersion(input: {
    organizationId: string;
    moduleDefinitionId: string;
    version: string;
    ref: string;
    commitSha: string;
    inputs: ModuleInput[];
  }): Promise<ModuleVersion> {
    const row: ModuleVersionRow = {
      id: newId(),
      organization_id: input.organizationId,
      module_definition_id: input.moduleDefinitionId,
      version: input.version,
      ref: input.ref,
      commit_sha: input.commitSha,
      inputs: JSON.stringify(input.inputs),
      created_at: nowTimestamp(),
    };
    await this.db('module_versions').insert(row);
    return toVersion(row);
  }

  async getVersion(
    organizationId: string,
    id: string,
  ): Promise<ModuleVersion | undefined> {
    const row = await this.db<ModuleVersionRow>('module_versions')
      .where({ organization_id: organizationId, id })
      .first();
    return row && toVersion(row);
  }

  async listVersions(
    organizationId: string,
    moduleDefinitionId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<ModuleVersion>> {
    return keysetPage(
      this.db<ModuleVersionRow>('module_versions').where({
        organization_id: organizationId,
        module_definition_id: moduleDefinitionId,
      }),
      'id',
      page,
      toVersion,
    );
  }

  /**
   * The schemas of the default-value definitions that module inputs name in `default_from`,
   * by givenId; names without a definition in the organization are absent. With `lock`, their
   * rows are share-locked until the transaction ends: a delete of one waits for it.
   */
  async defaultValueSchemas(
    organizationId: string,
    givenIds: string[],
    lock?: 'share',
  ): Promise<Map<string, ValueSchema>> {
    if (givenIds.length === 0) {
      return new Map();
    }
    const query = this.db<{
      organization_id: string;
      given_id: string;
      schema: string;
    }>('default_value_definitions')
      .select('given_id', 'schema')
      .where({ organization_id: organizationId })
      .whereIn('given_id', [...new Set(givenIds)]);
    const rows = await (lock ? query.forShare() : query);
    return new Map(
      rows.map(row => [row.given_id, JSON.parse(row.schema) as ValueSchema]),
    );
  }

  /**
   * The module versions with an input that names the default-value definition `givenId` in
   * `default_from`, oldest module first, each by its module's name and its version.
   */
  async versionsNamingDefault(
    organizationId: string,
    givenId: string,
  ): Promise<{ moduleName: string; version: string }[]> {
    // Inputs are JSON text written by this store; a givenId has no LIKE wildcards. The match
    // only narrows the rows down: each one's inputs are read to be sure.
    const rows = await this.db('module_versions as v')
      .join('module_definitions as d', 'd.id', 'v.module_definition_id')
      .where('v.organization_id', organizationId)
      .where('v.inputs', 'like', `%${givenId}%`)
      .orderBy([
        { column: 'd.id', order: 'asc' },
        { column: 'v.id', order: 'asc' },
      ])
      .select<{ name: string; version: string; inputs: string }[]>(
        'd.name',
        'v.version',
        'v.inputs',
      );
    return rows
      .filter(row =>
        (JSON.parse(row.inputs) as ModuleInput[]).some(
          input => input.default_from === givenId,
        ),
      )
      .map(row => ({ moduleName: row.name, version: row.version }));
  }
}
