import {
  Environment,
  Project,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { NamedResourcePatch, namedPatchColumns } from './namedPatch';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

interface NamedRow {
  id: string;
  organization_id: string;
  given_id: string;
  name: string;
  description: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

interface EnvironmentRow extends NamedRow {
  project_id: string;
}

export interface NamedResourceInput {
  givenId: string;
  name: string;
  description?: string;
}

function toProject(row: NamedRow): Project {
  return {
    id: row.id,
    organizationId: row.organization_id,
    givenId: row.given_id,
    name: row.name,
    description: optional(row.description),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

function toEnvironment(row: EnvironmentRow): Environment {
  return { ...toProject(row), projectId: row.project_id };
}

function namedRow(organizationId: string, input: NamedResourceInput): NamedRow {
  const now = nowTimestamp();
  return {
    id: newId(),
    organization_id: organizationId,
    given_id: input.givenId,
    name: input.name,
    description: input.description ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** Projects and the environments inside them. */
export class ProjectStore {
  constructor(private readonly db: Knex) {}

  async createProject(
    organizationId: string,
    input: NamedResourceInput,
  ): Promise<Project> {
    const row = namedRow(organizationId, input);
    await this.db('projects').insert(row);
    return toProject(row);
  }

  async getProject(
    organizationId: string,
    id: string,
  ): Promise<Project | undefined> {
    const row = await this.db<NamedRow>('projects')
      .where({ organization_id: organizationId, id })
      .first();
    return row && toProject(row);
  }

  async listProjects(
    organizationId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<Project>> {
    return keysetPage(
      this.db<NamedRow>('projects').where({ organization_id: organizationId }),
      'id',
      page,
      toProject,
    );
  }

  async updateProject(
    organizationId: string,
    id: string,
    patch: NamedResourcePatch,
  ): Promise<Project | undefined> {
    await this.db('projects')
      .where({ organization_id: organizationId, id })
      .update(namedPatchColumns(patch));
    return this.getProject(organizationId, id);
  }

  async deleteProject(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.db('projects')
      .where({ organization_id: organizationId, id })
      .delete();
    return deleted === 1;
  }

  async countEnvironments(
    organizationId: string,
    projectId: string,
  ): Promise<number> {
    const [{ count }] = await this.db('environments')
      .where({ organization_id: organizationId, project_id: projectId })
      .count({ count: '*' });
    return Number(count);
  }

  async createEnvironment(
    organizationId: string,
    projectId: string,
    input: NamedResourceInput,
  ): Promise<Environment> {
    const row: EnvironmentRow = {
      ...namedRow(organizationId, input),
      project_id: projectId,
    };
    await this.db('environments').insert(row);
    return toEnvironment(row);
  }

  async getEnvironment(
    organizationId: string,
    projectId: string,
    id: string,
  ): Promise<Environment | undefined> {
    const row = await this.db<EnvironmentRow>('environments')
      .where({ organization_id: organizationId, project_id: projectId, id })
      .first();
    return row && toEnvironment(row);
  }

  async listEnvironments(
    organizationId: string,
    projectId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<Environment>> {
    return keysetPage(
      this.db<EnvironmentRow>('environments').where({
        organization_id: organizationId,
        project_id: projectId,
      }),
      'id',
      page,
      toEnvironment,
    );
  }

  async updateEnvironment(
    organizationId: string,
    projectId: string,
    id: string,
    patch: NamedResourcePatch,
  ): Promise<Environment | undefined> {
    await this.db('environments')
      .where({ organization_id: organizationId, project_id: projectId, id })
      .update(namedPatchColumns(patch));
    return this.getEnvironment(organizationId, projectId, id);
  }

  /**
   * Locks the environment's row until the transaction ends (PostgreSQL; SQLite has one
   * writer): `share` while a deployment in it is recorded, `update` while it is deleted, so
   * that no deployment is recorded in an environment its deletion found unused. False when it
   * is not there.
   */
  async lockEnvironment(
    organizationId: string,
    id: string,
    mode: 'share' | 'update',
  ): Promise<boolean> {
    const query = this.db('environments')
      .where({ organization_id: organizationId, id })
      .select('id')
      .first();
    const row = await (mode === 'share' ? query.forShare() : query.forUpdate());
    return Boolean(row);
  }

  async deleteEnvironment(
    organizationId: string,
    projectId: string,
    id: string,
  ): Promise<boolean> {
    const deleted = await this.db('environments')
      .where({ organization_id: organizationId, project_id: projectId, id })
      .delete();
    return deleted === 1;
  }
}
