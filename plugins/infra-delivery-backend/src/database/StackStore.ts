import {
  DriftStatus,
  normalizeRunnerLabels,
  Stack,
  StackGitTrigger,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { readFirst, readRows } from './directReads';
import { whereInList } from './idLists';
import { newId } from './ids';
import { fromJsonColumn, toJsonColumn } from './json';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import {
  nowTimestamp,
  optional,
  toOptionalTimestamp,
  toTimestamp,
} from './timestamps';

interface StackRow {
  id: string;
  organization_id: string;
  project_id: string;
  environment_id: string;
  given_id: string;
  name: string;
  description: string | null;
  type: 'IAC_OPEN';
  code_source_id: string | null;
  path: string | null;
  auto_approve: boolean | number;
  change_pipeline_id: string | null;
  destroy_pipeline_id: string | null;
  latest_run_id: string | null;
  first_applied_at: string | Date | null;
  output: string | null;
  applied_input: string | null;
  state_workspace: string | null;
  cloud_account_id: string | null;
  drift_check_interval_hours: number | null;
  next_drift_check_at: string | Date | null;
  drift_status: DriftStatus;
  drifted_resource_count: number | null;
  last_drift_check_at: string | Date | null;
  last_drift_check_run_id: string | null;
  git_trigger: string | null;
  /** JSON array, sorted; null when any runner may claim the stack's steps. */
  runner_labels: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

function toStack(row: StackRow): Stack {
  return {
    id: row.id,
    organizationId: row.organization_id,
    projectId: row.project_id,
    environmentId: row.environment_id,
    givenId: row.given_id,
    name: row.name,
    description: optional(row.description),
    type: row.type,
    codeSourceId: optional(row.code_source_id),
    path: optional(row.path),
    autoApprove: Boolean(row.auto_approve),
    changePipelineId: row.change_pipeline_id ?? '',
    destroyPipelineId: row.destroy_pipeline_id ?? '',
    latestRunId: optional(row.latest_run_id),
    firstAppliedAt: toOptionalTimestamp(row.first_applied_at),
    output: fromJsonColumn(row.output),
    appliedInput: fromJsonColumn(row.applied_input),
    serviceStateBackendWorkspace: optional(row.state_workspace),
    cloudAccountId: optional(row.cloud_account_id),
    driftCheckIntervalHours: optional(row.drift_check_interval_hours),
    nextDriftCheckAt: toOptionalTimestamp(row.next_drift_check_at),
    driftStatus: row.drift_status,
    driftedResourceCount: optional(row.drifted_resource_count),
    lastDriftCheckAt: toOptionalTimestamp(row.last_drift_check_at),
    lastDriftCheckRunId: optional(row.last_drift_check_run_id),
    gitTrigger: fromJsonColumn<StackGitTrigger>(row.git_trigger),
    runnerLabels: fromJsonColumn<string[]>(row.runner_labels) ?? [],
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

/** Required runner labels as stored: sorted, each once; null for none (any runner). */
function runnerLabelsColumn(labels: string[] | undefined): string | null {
  return labels && labels.length > 0
    ? JSON.stringify(normalizeRunnerLabels(labels))
    : null;
}

export class StackStore {
  constructor(private readonly db: Knex) {}

  /** Inserts the stack row; its pipelines are attached with `attachPipelines`. */
  async create(input: {
    /** Only the demo seed chooses ids (so example catalog entities can name them). */
    id?: string;
    organizationId: string;
    projectId: string;
    environmentId: string;
    givenId: string;
    name: string;
    description?: string;
    codeSourceId?: string;
    path?: string;
    autoApprove: boolean;
    cloudAccountId?: string;
    driftCheckIntervalHours?: number;
    gitTrigger?: StackGitTrigger;
    runnerLabels?: string[];
  }): Promise<string> {
    const now = nowTimestamp();
    const id = input.id ?? newId();
    const row: StackRow = {
      id,
      organization_id: input.organizationId,
      project_id: input.projectId,
      environment_id: input.environmentId,
      given_id: input.givenId,
      name: input.name,
      description: input.description ?? null,
      type: 'IAC_OPEN',
      code_source_id: input.codeSourceId ?? null,
      path: input.path ?? null,
      auto_approve: input.autoApprove,
      change_pipeline_id: null,
      destroy_pipeline_id: null,
      latest_run_id: null,
      first_applied_at: null,
      output: null,
      applied_input: null,
      state_workspace: `${input.organizationId}/${id}`,
      cloud_account_id: input.cloudAccountId ?? null,
      drift_check_interval_hours: input.driftCheckIntervalHours ?? null,
      // The first check comes with the scheduler's next round.
      next_drift_check_at: input.driftCheckIntervalHours ? now : null,
      drift_status: 'UNKNOWN',
      drifted_resource_count: null,
      last_drift_check_at: null,
      last_drift_check_run_id: null,
      git_trigger: toJsonColumn(input.gitTrigger),
      runner_labels: runnerLabelsColumn(input.runnerLabels),
      created_at: now,
      updated_at: now,
    };
    await this.db('stacks').insert(row);
    return id;
  }

  async attachPipelines(
    id: string,
    pipelines: { changePipelineId: string; destroyPipelineId: string },
  ): Promise<void> {
    await this.db('stacks').where({ id }).update({
      change_pipeline_id: pipelines.changePipelineId,
      destroy_pipeline_id: pipelines.destroyPipelineId,
      updated_at: nowTimestamp(),
    });
  }

  async get(organizationId: string, id: string): Promise<Stack | undefined> {
    const row = await readFirst<StackRow>(
      this.db('stacks').where({ organization_id: organizationId, id }),
    );
    return row && toStack(row);
  }

  /**
   * The runner labels these stacks require, of those that require any: what a run waiting for
   * a claim reports (its queue state's `requiredRunnerLabels`).
   */
  async requiredRunnerLabels(
    stackIds: string[],
  ): Promise<Map<string, string[]>> {
    if (stackIds.length === 0) {
      return new Map();
    }
    const rows = await readRows<Pick<StackRow, 'id' | 'runner_labels'>>(
      whereInList(this.db('stacks'), 'id', stackIds)
        .whereNotNull('runner_labels')
        .select('id', 'runner_labels'),
    );
    return new Map(
      rows.map(row => [
        row.id,
        fromJsonColumn<string[]>(row.runner_labels) ?? [],
      ]),
    );
  }

  /**
   * A stack with its latest run's input, which a new run of it records as the input before:
   * one read where a trigger made two. `latestRun` is absent when the stack has no run.
   */
  async getWithLatestRunInput(
    organizationId: string,
    id: string,
  ): Promise<
    | { stack: Stack; latestRun?: { input?: Record<string, unknown> } }
    | undefined
  > {
    const row = await readFirst<
      StackRow & {
        latest_run_found: string | null;
        latest_run_input: string | null;
      }
    >(
      this.db('stacks')
        .leftJoin('pipeline_runs as latest_run', join =>
          join
            .on('latest_run.id', 'stacks.latest_run_id')
            .andOn('latest_run.organization_id', 'stacks.organization_id'),
        )
        .where({ 'stacks.organization_id': organizationId, 'stacks.id': id })
        .select(
          'stacks.*',
          'latest_run.id as latest_run_found',
          'latest_run.input as latest_run_input',
        ),
      // The trigger's run follows at once, and forgets every remembered read.
      { remember: false },
    );
    if (!row) {
      return undefined;
    }
    return {
      stack: toStack(row),
      ...(row.latest_run_found !== null
        ? { latestRun: { input: fromJsonColumn(row.latest_run_input) } }
        : {}),
    };
  }

  async list(
    organizationId: string,
    filter: {
      projectId?: string;
      environmentId?: string;
      driftStatuses?: DriftStatus[];
      ids?: string[];
    },
    page: KeysetRequest,
  ): Promise<KeysetPage<Stack>> {
    const query = this.db<StackRow>('stacks').where({
      organization_id: organizationId,
    });
    if (filter.projectId) query.where({ project_id: filter.projectId });
    if (filter.environmentId)
      query.where({ environment_id: filter.environmentId });
    if (filter.driftStatuses?.length)
      query.whereIn('drift_status', filter.driftStatuses);
    if (filter.ids?.length) query.whereIn('id', filter.ids);
    return keysetPage(query, 'id', page, toStack);
  }

  async update(
    organizationId: string,
    id: string,
    patch: {
      name?: string;
      description?: string;
      codeSourceId?: string;
      path?: string;
      autoApprove?: boolean;
      /** `null` detaches the stack from its cloud account. */
      cloudAccountId?: string | null;
      /** `null` turns scheduled drift checks off. */
      driftCheckIntervalHours?: number | null;
      /** `null`: runs start by hand only. */
      gitTrigger?: StackGitTrigger | null;
      /** `[]`: any runner. */
      runnerLabels?: string[];
    },
  ): Promise<void> {
    const columns: Partial<StackRow> = { updated_at: nowTimestamp() };
    if (patch.name !== undefined) columns.name = patch.name;
    if (patch.description !== undefined)
      columns.description = patch.description;
    if (patch.codeSourceId !== undefined)
      columns.code_source_id = patch.codeSourceId;
    if (patch.path !== undefined) columns.path = patch.path;
    if (patch.autoApprove !== undefined)
      columns.auto_approve = patch.autoApprove;
    if (patch.cloudAccountId !== undefined)
      columns.cloud_account_id = patch.cloudAccountId;
    if (patch.gitTrigger !== undefined)
      columns.git_trigger = toJsonColumn(patch.gitTrigger);
    if (patch.runnerLabels !== undefined)
      columns.runner_labels = runnerLabelsColumn(patch.runnerLabels);
    if (patch.driftCheckIntervalHours !== undefined) {
      columns.drift_check_interval_hours = patch.driftCheckIntervalHours;
      // A new interval counts from now; the first check comes with the next round.
      columns.next_drift_check_at = patch.driftCheckIntervalHours
        ? columns.updated_at
        : null;
    }
    await this.db('stacks')
      .where({ organization_id: organizationId, id })
      .update(columns);
  }

  /** Stacks of these code sources that follow them (have a git trigger), across organizations. */
  async followingCodeSources(codeSourceIds: string[]): Promise<Stack[]> {
    if (codeSourceIds.length === 0) {
      return [];
    }
    const rows = await this.db<StackRow>('stacks')
      .whereIn('code_source_id', codeSourceIds)
      .whereNotNull('git_trigger')
      .orderBy('id', 'asc');
    return rows.map(toStack);
  }

  /**
   * After an apply: the root outputs it left, the input it applied (none: the module's
   * defaults), and when the stack was first applied. After a destroy: no outputs, and the
   * input stays for the next apply.
   */
  async recordApply(
    id: string,
    applied:
      | {
          output: Record<string, unknown>;
          input: Record<string, unknown> | undefined;
        }
      | 'DESTROYED',
  ): Promise<void> {
    const now = nowTimestamp();
    await this.db('stacks')
      .where({ id })
      .update(
        applied === 'DESTROYED'
          ? { output: JSON.stringify({}), updated_at: now }
          : {
              output: JSON.stringify(applied.output),
              applied_input: applied.input
                ? JSON.stringify(applied.input)
                : null,
              updated_at: now,
            },
      );
    await this.db('stacks')
      .where({ id })
      .whereNull('first_applied_at')
      .update({ first_applied_at: now });
  }

  /** Deletes the stack and its pipelines; their runs and reports go with them. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    await this.db('pipelines')
      .where({ organization_id: organizationId, stack_id: id })
      .delete();
    const deleted = await this.db('stacks')
      .where({ organization_id: organizationId, id })
      .delete();
    return deleted === 1;
  }

  async recordLatestRun(id: string, runId: string): Promise<void> {
    await stackLatestRunUpdate(this.db, id, runId);
  }

  /**
   * Points the stack at a run however old: a retried run is its latest work. Kept at the newer
   * run cancelled before the retry, the stack read "Cancelled" beside the resources the retry
   * had just applied.
   */
  async pointLatestRunAt(id: string, runId: string): Promise<void> {
    await this.db('stacks')
      .where({ id })
      .update({ latest_run_id: runId, updated_at: nowTimestamp() });
  }
}

/**
 * Points a stack at a run unless it already points at a newer one. A builder, so that a new
 * run's insert can carry it in the same statement (PipelineRunStore.insertCountedRun).
 */
export function stackLatestRunUpdate(
  db: Knex,
  stackId: string,
  runId: string,
): Knex.QueryBuilder {
  return db('stacks')
    .where({ id: stackId })
    .where(q =>
      q.whereNull('latest_run_id').orWhere('latest_run_id', '<=', runId),
    )
    .update({ latest_run_id: runId, updated_at: nowTimestamp() });
}
