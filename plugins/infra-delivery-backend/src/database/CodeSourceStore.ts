import {
  CodeSource,
  CodeSourceVisibility,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, toOptionalTimestamp, toTimestamp } from './timestamps';

interface CodeSourceRow {
  id: string;
  organization_id: string;
  type: 'HOSTED_FORGE';
  forge_host: string;
  forge_installation_id: string;
  git_repository_id: string;
  repo_name: string;
  repo_url: string;
  default_branch: string;
  visibility: CodeSourceVisibility;
  access_lost: boolean | number;
  access_checked_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

function toCodeSource(row: CodeSourceRow): CodeSource {
  return {
    id: row.id,
    organizationId: row.organization_id,
    type: row.type,
    auth: {
      kind: 'installation',
      forgeInstallationId: row.forge_installation_id,
    },
    gitRepositoryId: row.git_repository_id,
    repoName: row.repo_name,
    repoUrl: row.repo_url,
    defaultBranch: row.default_branch,
    visibility: row.visibility,
    accessLost: Boolean(row.access_lost),
    accessCheckedAt: toOptionalTimestamp(row.access_checked_at),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

/** What the forge says about a repository when the installation reaches it. */
export interface RepositoryFacts {
  /** The host of the `integrations.github` entry that reaches the repository. */
  forgeHost: string;
  gitRepositoryId: string;
  repoName: string;
  repoUrl: string;
  defaultBranch: string;
  visibility: CodeSourceVisibility;
}

export class CodeSourceStore {
  constructor(private readonly db: Knex) {}

  async create(
    input: RepositoryFacts & {
      organizationId: string;
      forgeInstallationId: string;
    },
  ): Promise<CodeSource> {
    const now = nowTimestamp();
    const row: CodeSourceRow = {
      id: newId(),
      organization_id: input.organizationId,
      type: 'HOSTED_FORGE',
      forge_host: input.forgeHost,
      forge_installation_id: input.forgeInstallationId,
      git_repository_id: input.gitRepositoryId,
      repo_name: input.repoName,
      repo_url: input.repoUrl,
      default_branch: input.defaultBranch,
      visibility: input.visibility,
      access_lost: false,
      access_checked_at: now,
      created_at: now,
      updated_at: now,
    };
    await this.db('code_sources').insert(row);
    return toCodeSource(row);
  }

  async get(
    organizationId: string,
    id: string,
  ): Promise<CodeSource | undefined> {
    const row = await this.db<CodeSourceRow>('code_sources')
      .where({ organization_id: organizationId, id })
      .first();
    return row && toCodeSource(row);
  }

  async list(
    organizationId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<CodeSource>> {
    return keysetPage(
      this.db<CodeSourceRow>('code_sources').where({
        organization_id: organizationId,
      }),
      'id',
      page,
      toCodeSource,
    );
  }

  /** The installation still reaches the repository: keep what may have changed since. */
  async recordAccess(
    organizationId: string,
    id: string,
    facts: Pick<RepositoryFacts, 'defaultBranch' | 'visibility'>,
  ): Promise<void> {
    const now = nowTimestamp();
    await this.db('code_sources')
      .where({ organization_id: organizationId, id })
      .update({
        default_branch: facts.defaultBranch,
        visibility: facts.visibility,
        access_lost: false,
        access_checked_at: now,
        updated_at: now,
      });
  }

  async recordAccessLost(organizationId: string, id: string): Promise<void> {
    await this.db('code_sources')
      .where({ organization_id: organizationId, id })
      .update({ access_lost: true, updated_at: nowTimestamp() });
  }

  /**
   * Every organization's code sources of one repository reached through one installation: the
   * ones a webhook delivery about that repository concerns.
   */
  async findByRepository(
    forgeHost: string,
    installationId: string,
    gitRepositoryId: string,
  ): Promise<CodeSource[]> {
    const rows = await this.db<CodeSourceRow>('code_sources')
      .where({
        forge_host: forgeHost,
        git_repository_id: gitRepositoryId,
        forge_installation_id: installationId,
      })
      .orderBy('id', 'asc');
    return rows.map(toCodeSource);
  }

  /** Every organization's code sources reached through one installation. */
  async findByInstallation(
    forgeHost: string,
    installationId: string,
  ): Promise<CodeSource[]> {
    const rows = await this.db<CodeSourceRow>('code_sources')
      .where({ forge_host: forgeHost, forge_installation_id: installationId })
      .orderBy('id', 'asc');
    return rows.map(toCodeSource);
  }

  /** How many module definitions and stacks still use the code source. */
  async countUsers(organizationId: string, id: string): Promise<number> {
    const [[definitions], [stacks]] = await Promise.all([
      this.db('module_definitions')
        .where({ organization_id: organizationId, code_source_id: id })
        .count({ count: '*' }),
      this.db('stacks')
        .where({ organization_id: organizationId, code_source_id: id })
        .count({ count: '*' }),
    ]);
    return Number(definitions.count) + Number(stacks.count);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.db('code_sources')
      .where({ organization_id: organizationId, id })
      .delete();
    return deleted === 1;
  }
}
