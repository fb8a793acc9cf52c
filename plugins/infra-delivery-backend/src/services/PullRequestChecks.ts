import { LoggerService } from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import {
  IacExecutionSummary,
  portalPages,
  portalPageUrl,
  RunStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import { GithubCheckRun } from '../database/GithubCheckRunStore';
import { RunRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { RunEvents, RunStatusChange } from '../engine/RunEvents';
import { GithubAppInstallations } from '../providers/github/GithubAppInstallations';

/** A check run GitHub was not told about in this many rounds is given up on. */
const MAX_FAILURES = 50;

/** The check run state a run's status asks for: `queued`, `in_progress` or `completed:<conclusion>`. */
export function checkRunStateOf(status: RunStatus): string {
  switch (status) {
    case 'QUEUED':
      return 'queued';
    case 'RUNNING':
    case 'WAITING_FOR_APPROVAL':
      return 'in_progress';
    case 'SUCCEEDED':
      return 'completed:success';
    case 'FAILED':
      return 'completed:failure';
    default:
      return 'completed:cancelled';
  }
}

/** Terraform's own `Plan:` line for a summary. */
export function planLine(summary: IacExecutionSummary): string {
  const adds = summary.addCount + summary.replaceCount;
  const destroys = summary.destroyCount + summary.replaceCount;
  const imports = summary.importCount
    ? `${summary.importCount} to import, `
    : '';
  return `Plan: ${imports}${adds} to add, ${summary.changeCount} to change, ${destroys} to destroy.`;
}

/**
 * Reports pull request plans to GitHub: a check run on the head commit that follows the run
 * (queued → in progress → success or failure with the plan's counts and a link to the run in
 * the portal) and, where the stack asks for it, one comment on the pull request, edited in
 * place. Reporting never holds up or fails a run: it happens after the engine's transaction,
 * one report at a time per run, and a failed report is recorded and tried again by the
 * scheduled round.
 */
export class PullRequestChecks implements RunEvents {
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      stores: Stores;
      githubApps: GithubAppInstallations;
      portalUrl: string;
      logger: LoggerService;
    },
  ) {}

  /**
   * Only pull request plans have check runs: other runs are not looked up at all (the lookup
   * was three reads per triggered run, docs/benchmarks.md, optimization 27).
   */
  async runChanged(change: RunStatusChange): Promise<void> {
    if (change.kind === 'PULL_REQUEST_PLAN') {
      this.reportSoon(change.runId);
    }
  }

  /** The scheduled round: reports what earlier attempts could not. */
  async reportPending(): Promise<void> {
    const runIds = await this.deps.stores.githubCheckRuns.unfinishedRunIds(
      100,
      MAX_FAILURES,
    );
    await Promise.all(runIds.map(runId => this.reportSoon(runId)));
  }

  /** Waits for the reports in flight (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) {
      await Promise.all([...this.inFlight.values()]);
    }
  }

  private reportSoon(runId: string): Promise<void> {
    const previous = this.inFlight.get(runId) ?? Promise.resolve();
    const next = previous
      .then(() => this.report(runId))
      .catch(error =>
        this.deps.logger.warn(
          `Could not report run ${runId} to GitHub: ${error}`,
        ),
      )
      .finally(() => {
        if (this.inFlight.get(runId) === next) {
          this.inFlight.delete(runId);
        }
      });
    this.inFlight.set(runId, next);
    return next;
  }

  private async report(runId: string): Promise<void> {
    const { stores } = this.deps;
    const check = await stores.githubCheckRuns.forRun(runId);
    const run = check && (await stores.pipelineRuns.getRunForEngine(runId));
    if (!check || !run) {
      return;
    }
    const state = checkRunStateOf(run.status);
    if (check.reportedState === state) {
      return;
    }
    try {
      const reported = await this.send(check, run, state);
      await stores.githubCheckRuns.recordReported(check.id, {
        state,
        ...reported,
      });
    } catch (error) {
      const message = isError(error) ? error.message : String(error);
      await stores.githubCheckRuns.recordFailure(check.id, message);
      this.deps.logger.warn(
        `GitHub did not take the check run of run ${runId} (${state}): ${message}`,
      );
    }
  }

  private async send(
    check: GithubCheckRun,
    run: RunRecord,
    state: string,
  ): Promise<{ checkRunId?: string; commentId?: string }> {
    const repository = await this.deps.githubApps.open(
      check.repoUrl,
      check.installationId,
    );
    const stack = run.attachedEntityId
      ? await this.deps.stores.stacks.get(
          run.organizationId,
          run.attachedEntityId,
        )
      : undefined;
    const summary = await this.planSummary(run);
    const runUrl = portalPageUrl(this.deps.portalUrl, portalPages.run(run.id));
    const [status, conclusion] = state.split(':');
    const stackName = stack?.name ?? run.attachedEntityId ?? 'stack';
    const { title, text } = describe(run, state, summary);
    const body: Record<string, unknown> = {
      name: `Infrastructure plan: ${stackName}`,
      head_sha: check.headSha,
      external_id: run.id,
      details_url: runUrl,
      status,
      output: {
        title,
        summary: `${text}\n\n[The run in the portal](${runUrl})`,
      },
      ...(conclusion
        ? {
            conclusion,
            completed_at: run.completedAt ?? new Date().toISOString(),
          }
        : {}),
      ...(status === 'in_progress' && run.startedAt
        ? { started_at: run.startedAt }
        : {}),
    };
    let checkRunId = check.checkRunId;
    if (checkRunId) {
      await repository.updateCheckRun(checkRunId, body);
    } else {
      checkRunId = await repository.createCheckRun(body);
    }
    let commentId = check.commentId;
    if (check.commentOnPullRequest) {
      const comment = `**Infrastructure plan of ${stackName}** for ${check.headSha.slice(
        0,
        7,
      )}: ${title}\n\n${text}\n\n[The run in the portal](${runUrl})`;
      if (commentId) {
        await repository.updateIssueComment(commentId, comment);
      } else {
        commentId = await repository.createIssueComment(
          check.pullRequestNumber,
          comment,
        );
      }
    }
    return { checkRunId, commentId };
  }

  private async planSummary(
    run: RunRecord,
  ): Promise<IacExecutionSummary | undefined> {
    const page = await this.deps.stores.iacResults.listSummaries(
      run.organizationId,
      { pipelineRunId: run.id },
      { limit: 10 },
    );
    return page.items.find(item => item.runType === 'PLAN');
  }
}

function describe(
  run: RunRecord,
  state: string,
  summary: IacExecutionSummary | undefined,
): { title: string; text: string } {
  switch (state) {
    case 'queued':
      return {
        title: 'Plan queued',
        text: run.queueReason ?? 'Waiting for the stack',
      };
    case 'in_progress':
      return {
        title: 'Planning',
        text: 'A runner is planning the head commit.',
      };
    case 'completed:success':
      return summary
        ? { title: planLine(summary), text: planLine(summary) }
        : { title: 'Plan finished', text: 'The plan reported no summary.' };
    case 'completed:failure':
      return {
        title: 'Plan failed',
        text: run.error?.message ?? 'The plan failed.',
      };
    default:
      return {
        title: 'Plan cancelled',
        text: run.error?.message ?? 'The plan was cancelled.',
      };
  }
}
