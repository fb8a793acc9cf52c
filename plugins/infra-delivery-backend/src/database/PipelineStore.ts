import {
  Pipeline,
  PipelineStep,
  PipelineVersion,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { readFirst } from './directReads';
import { newId } from './ids';
import { namedPatchColumns } from './namedPatch';
import { fromJsonColumn } from './json';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

interface PipelineRow {
  id: string;
  organization_id: string;
  project_id: string;
  stack_id: string | null;
  given_id: string;
  name: string;
  description: string | null;
  latest_version_id: string | null;
  latest_run_id: string | null;
  latest_run_status: RunStatus | null;
  created_at: string | Date;
  updated_at: string | Date;
}

interface PipelineVersionRow {
  id: string;
  organization_id: string;
  pipeline_id: string;
  version: number;
  steps: string;
  created_at: string | Date;
}

function toPipeline(row: PipelineRow): Pipeline {
  return {
    id: row.id,
    organizationId: row.organization_id,
    projectId: row.project_id,
    stackId: optional(row.stack_id),
    givenId: row.given_id,
    name: row.name,
    description: optional(row.description),
    latestVersionId: optional(row.latest_version_id),
    latestRunId: optional(row.latest_run_id),
    latestRunStatus: optional(row.latest_run_status),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

function toVersion(row: PipelineVersionRow): PipelineVersion {
  return {
    id: row.id,
    organizationId: row.organization_id,
    pipelineId: row.pipeline_id,
    version: row.version,
    steps: fromJsonColumn<PipelineStep[]>(row.steps) ?? [],
    createdAt: toTimestamp(row.created_at),
  };
}

/** Pipelines and their immutable versions. */
export class PipelineStore {
  constructor(private readonly db: Knex) {}

  async create(input: {
    organizationId: string;
    projectId: string;
    stackId?: string;
    givenId: string;
    name: string;
    description?: string;
    steps: PipelineStep[];
  }): Promise<Pipeline> {
    const now = nowTimestamp();
    const id = newId();
    await this.db<PipelineRow>('pipelines').insert({
      id,
      organization_id: input.organizationId,
      project_id: input.projectId,
      stack_id: input.stackId ?? null,
      given_id: input.givenId,
      name: input.name,
      description: input.description ?? null,
      latest_version_id: null,
      latest_run_id: null,
      latest_run_status: null,
      created_at: now,
      updated_at: now,
    });
    await this.createVersion(input.organizationId, id, input.steps);
    return (await this.get(input.organizationId, id))!;
  }

  async get(organizationId: string, id: string): Promise<Pipeline | undefined> {
    const row = await readFirst<PipelineRow>(
      this.db('pipelines').where({ organization_id: organizationId, id }),
    );
    return row && toPipeline(row);
  }

  /** A pipeline and the steps of its latest version, in one read (a trigger's). */
  async getWithLatestSteps(
    organizationId: string,
    id: string,
  ): Promise<{ pipeline: Pipeline; latestSteps: PipelineStep[] } | undefined> {
    const row = await readFirst<PipelineRow & { latest_steps: string | null }>(
      this.db('pipelines')
        .leftJoin(
          'pipeline_versions',
          'pipeline_versions.id',
          'pipelines.latest_version_id',
        )
        .where({
          'pipelines.organization_id': organizationId,
          'pipelines.id': id,
        })
        .select('pipelines.*', 'pipeline_versions.steps as latest_steps'),
      // The trigger's run follows at once, and forgets every remembered read.
      { remember: false },
    );
    return (
      row && {
        pipeline: toPipeline(row),
        latestSteps: fromJsonColumn<PipelineStep[]>(row.latest_steps) ?? [],
      }
    );
  }

  async list(
    organizationId: string,
    filter: { projectId?: string },
    page: KeysetRequest,
  ): Promise<KeysetPage<Pipeline>> {
    const query = this.db<PipelineRow>('pipelines').where({
      organization_id: organizationId,
    });
    if (filter.projectId) {
      query.where({ project_id: filter.projectId });
    }
    return keysetPage(query, 'id', page, toPipeline);
  }

  async update(
    organizationId: string,
    id: string,
    patch: { name?: string; description?: string },
  ): Promise<Pipeline | undefined> {
    await this.db('pipelines')
      .where({ organization_id: organizationId, id })
      .update(namedPatchColumns(patch));
    return this.get(organizationId, id);
  }

  /** A new version numbered after the latest; it becomes the pipeline's latest. */
  async createVersion(
    organizationId: string,
    pipelineId: string,
    steps: PipelineStep[],
  ): Promise<PipelineVersion> {
    const [{ max }] = await this.db('pipeline_versions')
      .where({ pipeline_id: pipelineId })
      .max({ max: 'version' });
    const row: PipelineVersionRow = {
      id: newId(),
      organization_id: organizationId,
      pipeline_id: pipelineId,
      version: Number(max ?? 0) + 1,
      steps: JSON.stringify(steps),
      created_at: nowTimestamp(),
    };
    await this.db('pipeline_versions').insert(row);
    await this.db('pipelines')
      .where({ id: pipelineId })
      .update({ latest_version_id: row.id, updated_at: row.created_at });
    return toVersion(row);
  }

  async getVersion(
    organizationId: string,
    id: string,
  ): Promise<PipelineVersion | undefined> {
    const row = await readFirst<PipelineVersionRow>(
      this.db('pipeline_versions').where({
        organization_id: organizationId,
        id,
      }),
    );
    return row && toVersion(row);
  }

  async listVersions(
    organizationId: string,
    pipelineId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<PipelineVersion>> {
    return keysetPage(
      this.db<PipelineVersionRow>('pipeline_versions').where({
        organization_id: organizationId,
        pipeline_id: pipelineId,
      }),
      'id',
      page,
      toVersion,
    );
  }

  /**
   * Points the pipeline at `runId` as its latest run, unless a newer run is already its latest.
   * With `countRun`, the run is also counted (a run created in the same transaction): one
   * statement, and the pipeline's row is locked once, where the engine's lock order puts it.
   */
  async recordLatestRun(
    pipelineId: string,
    runId: string,
    status: RunStatus,
    options: { countRun?: boolean } = {},
  ): Promise<void> {
    await latestRunUpdate(this.db, pipelineId, runId, status, options);
  }

  /** Points the pipeline at a run however old: a retried run is its latest work. */
  async pointLatestRunAt(
    pipelineId: string,
    runId: string,
    status: RunStatus,
  ): Promise<void> {
    await this.db('pipelines')
      .where({ id: pipelineId })
      .update({ latest_run_id: runId, latest_run_status: status });
  }
}

/** The statement of `PipelineStore.recordLatestRun`, not yet run. */
export function latestRunUpdate(
  db: Knex,
  pipelineId: string,
  runId: string,
  status: RunStatus,
  options: { countRun?: boolean } = {},
): Knex.QueryBuilder {
  if (!options.countRun) {
    return db('pipelines')
      .where({ id: pipelineId })
      .where(q =>
        q.whereNull('latest_run_id').orWhere('latest_run_id', '<=', runId),
      )
      .update({ latest_run_id: runId, latest_run_status: status });
  }
  const newer = 'latest_run_id IS NULL OR latest_run_id <= ?';
  return db('pipelines')
    .where({ id: pipelineId })
    .update({
      run_count: db.raw('run_count + 1'),
      latest_run_id: db.raw(
        `CASE WHEN ${newer} THEN ? ELSE latest_run_id END`,
        [runId, runId],
      ),
      latest_run_status: db.raw(
        `CASE WHEN ${newer} THEN ? ELSE latest_run_status END`,
        [runId, status],
      ),
    });
}
