import { Knex } from 'knex';
import { newId } from './ids';
import { nowTimestamp } from './timestamps';

interface CheckRunRow {
  id: string;
  organization_id: string;
  pipeline_run_id: string;
  repo_url: string;
  installation_id: string;
  head_sha: string;
  pull_request_number: number;
  comment_on_pull_request: boolean | number;
  check_run_id: string | null;
  comment_id: string | null;
  reported_state: string | null;
  failures: number;
  last_error: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** Where a pull request plan reports on GitHub, and what GitHub last accepted. */
export interface GithubCheckRun {
  id: string;
  organizationId: string;
  pipelineRunId: string;
  repoUrl: string;
  installationId: string;
  headSha: string;
  pullRequestNumber: number;
  commentOnPullRequest: boolean;
  checkRunId?: string;
  commentId?: string;
  /** `queued`, `in_progress` or `completed:<conclusion>`; absent before the first report. */
  reportedState?: string;
  failures: number;
  lastError?: string;
}

function toCheckRun(row: CheckRunRow): GithubCheckRun {
  return {
    id: row.id,
    organizationId: row.organization_id,
    pipelineRunId: row.pipeline_run_id,
    repoUrl: row.repo_url,
    installationId: row.installation_id,
    headSha: row.head_sha,
    pullRequestNumber: row.pull_request_number,
    commentOnPullRequest: Boolean(row.comment_on_pull_request),
    checkRunId: row.check_run_id ?? undefined,
    commentId: row.comment_id ?? undefined,
    reportedState: row.reported_state ?? undefined,
    failures: row.failures,
    lastError: row.last_error ?? undefined,
  };
}

/** Check runs (and comments) of pull request plans on GitHub, one per run. */
export class GithubCheckRunStore {
  constructor(private readonly db: Knex) {}

  async create(input: {
    organizationId: string;
    pipelineRunId: string;
    repoUrl: string;
    installationId: string;
    headSha: string;
    pullRequestNumber: number;
    commentOnPullRequest: boolean;
  }): Promise<void> {
    const now = nowTimestamp();
    const row: CheckRunRow = {
      id: newId(),
      organization_id: input.organizationId,
      pipeline_run_id: input.pipelineRunId,
      repo_url: input.repoUrl,
      installation_id: input.installationId,
      head_sha: input.headSha,
      pull_request_number: input.pullRequestNumber,
      comment_on_pull_request: input.commentOnPullRequest,
      check_run_id: null,
      comment_id: null,
      reported_state: null,
      failures: 0,
      last_error: null,
      created_at: now,
      updated_at: now,
    };
    await this.db('github_check_runs').insert(row);
  }

  async forRun(pipelineRunId: string): Promise<GithubCheckRun | undefined> {
    const row = await this.db<CheckRunRow>('github_check_runs')
      .where({ pipeline_run_id: pipelineRunId })
      .first();
    return row && toCheckRun(row);
  }

  /**
   * Runs whose check run may lag behind them: not completed on GitHub yet and not given up on,
   * oldest first.
   */
  async unfinishedRunIds(
    limit: number,
    maxFailures: number,
  ): Promise<string[]> {
    const rows = await this.db<CheckRunRow>('github_check_runs')
      .where('failures', '<', maxFailures)
      .where(q =>
        q
          .whereNull('reported_state')
          .orWhere('reported_state', 'not like', 'completed:%'),
      )
      .orderBy('id', 'asc')
      .limit(limit)
      .select('pipeline_run_id');
    return rows.map(row => row.pipeline_run_id);
  }

  /** GitHub accepted a report. */
  async recordReported(
    id: string,
    report: { state: string; checkRunId?: string; commentId?: string },
  ): Promise<void> {
    const columns: Partial<CheckRunRow> = {
      reported_state: report.state,
      failures: 0,
      last_error: null,
      updated_at: nowTimestamp(),
    };
    if (report.checkRunId) columns.check_run_id = report.checkRunId;
    if (report.commentId) columns.comment_id = report.commentId;
    await this.db('github_check_runs').where({ id }).update(columns);
  }

  /** A report failed; the next round tries again. */
  async recordFailure(id: string, error: string): Promise<void> {
    await this.db('github_check_runs')
      .where({ id })
      .update({
        last_error: error,
        failures: this.db.raw('failures + 1'),
        updated_at: nowTimestamp(),
      });
  }
}
