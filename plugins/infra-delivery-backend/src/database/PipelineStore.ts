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
  retried_run_id: string | null;
  retried_at_id: string | null;
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

/** A pipeline row read with its latest run (`withLatestRun`). */
interface PipelineReadRow extends PipelineRow {
  latest_run_id: string | null;
  latest_run_status: RunStatus | null;
}

/** What a pipeline is, without its runs: what a trigger reads. */
export type PipelineDefinition = Omit<
  Pipeline,
  'latestRunId' | 'latestRunStatus'
>;

function toDefinition(row: PipelineRow): PipelineDefinition {
  return {
    id: row.id,
    organizationId: row.organization_id,
    projectId: row.project_id,
    stackId: optional(row.stack_id),
    givenId: row.given_id,
    name: row.name,
    description: optional(row.description),
    latestVersionId: optional(row.latest_version_id),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

function toPipeline(row: PipelineReadRow): Pipeline {
  return {
    ...toDefinition(row),
    latestRunId: optional(row.latest_run_id),
    latestRunStatus: optional(row.latest_run_status),
  };
}

/**
 * The pipeline's latest run, as SQL over a `pipelines` row: the run retried last while no run
 * newer than its retry exists, else the newest run (one probe of the runs'
 * (organization_id, pipeline_id, id) index). Nothing on the pipeline's row changes when it is
 * triggered (migrations/20261210A0000_pipeline_run_counters.js).
 */
const LATEST_RUN_ID = `CASE
  WHEN pipelines.retried_run_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM pipeline_runs AS newer
    WHERE newer.organization_id = pipelines.organization_id
      AND newer.pipeline_id = pipelines.id AND newer.id > pipelines.retried_at_id)
  THEN pipelines.retried_run_id
  ELSE (
    SELECT newest.id FROM pipeline_runs AS newest
    WHERE newest.organization_id = pipelines.organization_id
      AND newest.pipeline_id = pipelines.id
    ORDER BY newest.id DESC LIMIT 1)
  END`;

/** `query` over `pipelines`, each row with its latest run's id and status. */
function withLatestRun(db: Knex, query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.select(
    'pipelines.*',
    db.raw(`${LATEST_RUN_ID} AS latest_run_id`),
    db.raw(
      `(SELECT latest.status FROM pipeline_runs AS latest
        WHERE latest.id = ${LATEST_RUN_ID}) AS latest_run_status`,
    ),
  );
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
      retried_run_id: null,
      retried_at_id: null,
      created_at: now,
      updated_at: now,
    });
    await this.createVersion(input.organizationId, id, input.steps);
    return (await this.get(input.organizationId, id))!;
  }

  async get(organizationId: string, id: string): Promise<Pipeline | undefined> {
    const row = await readFirst<PipelineReadRow>(
      withLatestRun(
        this.db,
        this.db('pipelines').where({ organization_id: organizationId, id }),
      ),
    );
    return row && toPipeline(row);
  }

  /** A pipeline and the steps of its latest version, in one read (a trigger's). */
  async getWithLatestSteps(
    organizationId: string,
    id: string,
  ): Promise<
    { pipeline: PipelineDefinition; latestSteps: PipelineStep[] } | undefined
  > {
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
        pipeline: toDefinition(row),
        latestSteps: fromJsonColumn<PipelineStep[]>(row.latest_steps) ?? [],
      }
    );
  }

  async list(
    organizationId: string,
    filter: { projectId?: string },
    page: KeysetRequest,
  ): Promise<KeysetPage<Pipeline>> {
    const query = this.db('pipelines').where({
      organization_id: organizationId,
    });
    if (filter.projectId) {
      query.where({ project_id: filter.projectId });
    }
    return keysetPage(
      withLatestRun(this.db, query),
      'pipelines.id',
      page,
      toPipeline,
    );
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

  /** Counts one more run of the pipeline (one created in the same transaction). */
  async countRun(organizationId: string, pipelineId: string): Promise<void> {
    await runCountIncrement(this.db, organizationId, pipelineId);
  }

  /**
   * Makes a retried run the pipeline's latest run, however old: it is its latest work, until
   * a run is created after it.
   */
  async recordRetry(pipelineId: string, runId: string): Promise<void> {
    await this.db('pipelines')
      .where({ id: pipelineId })
      .update({ retried_run_id: runId, retried_at_id: newId() });
  }
}

/** Counter rows per pipeline (migrations/20261210A0000_pipeline_run_counters.js). */
const RUN_COUNTER_SHARDS = 8;

/**
 * The statement that counts one more run of the pipeline, not yet run: it adds to one of the
 * pipeline's counter rows, picked at random, so that concurrent triggers of one pipeline
 * rarely wait for each other's row lock until their commits.
 */
export function runCountIncrement(
  db: Knex,
  organizationId: string,
  pipelineId: string,
): Knex.QueryBuilder {
  return db('pipeline_run_counters')
    .insert({
      organization_id: organizationId,
      pipeline_id: pipelineId,
      shard: Math.floor(Math.random() * RUN_COUNTER_SHARDS),
      run_count: 1,
    })
    .onConflict(['pipeline_id', 'shard'])
    .merge({ run_count: db.raw('pipeline_run_counters.run_count + 1') });
}
