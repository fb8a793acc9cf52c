/**
 * Git-driven runs: what pushes and pull requests start on the stacks that follow a
 * repository. Deliveries can come late, twice or out of order, so each stack keeps the newest
 * head it has seen per branch and per pull request (GitTriggerHeadStore) and a delivery older
 * than that starts nothing:
 *
 * - a push whose `after` is the seen head's `before` is the older push arriving late; one whose
 *   `before` is the seen head continues it; otherwise the head commits' timestamps decide;
 * - a pull request delivery older (by the pull request's `updated_at`) than the last one seen,
 *   or about a pull request seen closed since, is stale.
 *
 * A newer head supersedes the older one's runs still queued: a push cancels the stack's queued
 * push runs, a pull request update cancels the queued plans of that pull request. Pull request
 * plans are plan-only runs of the change pipeline (kind PULL_REQUEST_PLAN); they queue behind
 * the stack's other runs like any run and never apply.
 */
import { LoggerService } from '@backstage/backend-plugin-api';
import {
  CodeSource,
  RunGitSource,
  Stack,
  StackGitTrigger,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  GitHead,
  pullRequestHeadKey,
  pushHeadKey,
} from '../database/GitTriggerHeadStore';
import { RunRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { DeliveryOutcome } from '../database/WebhookDeliveryStore';
import { PipelineEngine } from '../engine/PipelineEngine';
import {
  branchOfRef,
  forkOf,
  NULL_SHA,
  PullRequestEvent,
  PushEvent,
} from '../gitTriggers/githubEvents';
import { touchesStack } from '../gitTriggers/pathFilters';
import { GithubAppInstallations } from '../providers/github/GithubAppInstallations';
import { appliedInputRun } from './appliedInputRun';

/** GitHub lists at most this many commits in a push delivery; beyond it the files are unknown. */
const MAX_PUSH_COMMITS = 2048;
/** Pull request actions that (re)plan the head commit. */
const PLANNING_ACTIONS = ['opened', 'synchronize', 'reopened'];
const TRIGGER_GIVEN_ID = 'receiveGithubWebhook';

/** The webhook delivery being processed, as the runs it starts name it. */
export interface DeliveryContext {
  deliveryGuid: string;
  forgeHost: string;
}

/** What one stack made of a delivery. */
interface StackDecision {
  stack: Stack;
  startedRunId?: string;
  cancelledRunIds: string[];
  /** Why nothing started, for a person. */
  reason?: string;
}

function firstLine(message: string | undefined): string | undefined {
  return message?.split('\n')[0].trim() || undefined;
}

function later(a: string, b: string): boolean {
  return new Date(a).getTime() > new Date(b).getTime();
}

/** Per organization: the runs started and cancelled, or why nothing happened. */
export function outcomesByOrganization(
  organizationIds: string[],
  decisions: StackDecision[],
  nothingFollows: string,
): Map<string, DeliveryOutcome> {
  const outcomes = new Map<string, DeliveryOutcome>();
  for (const organizationId of organizationIds) {
    const own = decisions.filter(
      d => d.stack.organizationId === organizationId,
    );
    const startedRunIds = own.flatMap(d =>
      d.startedRunId ? [d.startedRunId] : [],
    );
    const cancelledRunIds = own.flatMap(d => d.cancelledRunIds);
    const reasons = own
      .filter(d => d.reason)
      .map(d => `${d.stack.name}: ${d.reason}`);
    let outcome: DeliveryOutcome['outcome'] = 'IGNORED';
    if (startedRunIds.length > 0) {
      outcome = 'STARTED_RUNS';
    } else if (cancelledRunIds.length > 0) {
      outcome = 'CANCELLED_RUNS';
    }
    let reason: string | undefined;
    if (own.length === 0) {
      reason = nothingFollows;
    } else if (reasons.length > 0) {
      reason = reasons.join('; ');
    }
    outcomes.set(organizationId, {
      outcome,
      reason,
      startedRunIds,
      cancelledRunIds,
    });
  }
  return outcomes;
}

export class GitTriggerService {
  constructor(
    private readonly deps: {
      stores: Stores;
      engine: PipelineEngine;
      githubApps: GithubAppInstallations;
      logger?: LoggerService;
    },
  ) {}

  /** A push: the change pipeline of each stack that follows the branch and is touched. */
  async onPush(
    delivery: DeliveryContext,
    event: PushEvent,
    organizationIds: string[],
  ): Promise<Map<string, DeliveryOutcome>> {
    const branch = branchOfRef(event.ref);
    const followers = await this.followers(delivery, event);
    const decisions: StackDecision[] = [];
    for (const follower of followers) {
      if (follower.trigger.pushRuns && branch === follower.trigger.branch) {
        decisions.push(
          await this.decidePush(
            delivery,
            event,
            follower.stack,
            follower.trigger,
            follower.codeSource,
          ),
        );
      }
    }
    return outcomesByOrganization(
      organizationIds,
      decisions,
      branch
        ? `No stack starts runs on pushes to ${branch}`
        : `${event.ref} is not a branch`,
    );
  }

  private async decidePush(
    delivery: DeliveryContext,
    event: PushEvent,
    stack: Stack,
    trigger: StackGitTrigger,
    codeSource: CodeSource,
  ): Promise<StackDecision> {
    const { stores } = this.deps;
    const decision: StackDecision = { stack, cancelledRunIds: [] };
    if (event.deleted || NULL_SHA.test(event.after)) {
      return { ...decision, reason: 'the branch was deleted' };
    }
    const headKey = pushHeadKey(trigger.branch);
    const seen = await stores.gitTriggerHeads.get(stack.id, headKey);
    const headCommit =
      event.head_commit ?? event.commits.find(c => c.id === event.after);
    const observedAt = headCommit?.timestamp ?? new Date().toISOString();
    if (seen) {
      if (seen.sha === event.after) {
        return {
          ...decision,
          reason: `commit ${event.after.slice(0, 7)} was seen already`,
        };
      }
      const continuesSeen = event.before === seen.sha;
      const precedesSeen = event.after === seen.previousSha;
      if (
        precedesSeen ||
        (!continuesSeen && !later(observedAt, seen.observedAt))
      ) {
        return {
          ...decision,
          reason: `push of ${event.after.slice(
            0,
            7,
          )} is older than ${seen.sha.slice(0, 7)}, seen already`,
        };
      }
    }
    await stores.gitTriggerHeads.put(stack.id, headKey, {
      sha: event.after,
      previousSha: event.before,
      observedAt,
      closed: false,
    });
    const changed = event.commits.flatMap(c => [
      ...c.added,
      ...c.removed,
      ...c.modified,
    ]);
    // Without the commit list (a truncated one, or a forced push to known commits) the
    // changed files are unknown: run rather than miss a change.
    const filesUnknown =
      event.commits.length >= MAX_PUSH_COMMITS ||
      (event.commits.length === 0 && event.forced);
    if (!filesUnknown && !touchesStack(trigger, stack.path, changed)) {
      return {
        ...decision,
        reason: 'the push changes nothing the stack follows',
      };
    }
    const cancelled = await this.cancelQueued(
      stack,
      run => run.triggerSource === 'GIT_PUSH',
      `Superseded by the push of ${event.after.slice(0, 7)}`,
    );
    const gitSource: RunGitSource = {
      codeSourceId: codeSource.id,
      repository: codeSource.repoName,
      repoUrl: codeSource.repoUrl,
      branch: trigger.branch,
      commit: {
        sha: event.after,
        message: headCommit?.message,
        author:
          headCommit?.author?.username ??
          headCommit?.author?.name ??
          event.sender?.login,
        url: headCommit?.url ?? `${codeSource.repoUrl}/commit/${event.after}`,
      },
      webhookDeliveryId: delivery.deliveryGuid,
    };
    const runId = await this.startRun(stack, {
      kind: 'STANDARD',
      description: `Push to ${trigger.branch}: ${
        firstLine(headCommit?.message) ?? event.after.slice(0, 7)
      }`,
      webhookEvent: 'push',
      gitSource,
    });
    return { ...decision, startedRunId: runId, cancelledRunIds: cancelled };
  }

  /**
   * A pull request: opened, synchronized or reopened into a followed branch, a plan of its head
   * commit; closed, its queued plans cancelled.
   */
  async onPullRequest(
    delivery: DeliveryContext,
    event: PullRequestEvent,
    organizationIds: string[],
  ): Promise<Map<string, DeliveryOutcome>> {
    const pr = event.pull_request;
    const followers = (await this.followers(delivery, event)).filter(
      f => f.trigger.pullRequestPlans && f.trigger.branch === pr.base.ref,
    );
    const nothingFollows = `No stack plans pull requests into ${pr.base.ref}`;
    if (event.action === 'closed') {
      const decisions: StackDecision[] = [];
      for (const { stack } of followers) {
        decisions.push(await this.closePullRequest(event, stack));
      }
      return outcomesByOrganization(organizationIds, decisions, nothingFollows);
    }
    if (!PLANNING_ACTIONS.includes(event.action)) {
      return outcomesByOrganization(
        organizationIds,
        [],
        `pull_request.${event.action} starts nothing`,
      );
    }
    const fork = forkOf(event);
    if (fork) {
      // Planning runs the pull request's code on the runners, which hold the stacks' cloud
      // credentials: code from outside the repository is not planned on its own say-so.
      return outcomesByOrganization(
        organizationIds,
        followers.map(({ stack }) => ({
          stack,
          cancelledRunIds: [],
          reason: `pull request #${pr.number} comes from ${fork}, a fork; its code is not planned on the runners`,
        })),
        nothingFollows,
      );
    }
    const decisions: StackDecision[] = [];
    // One listing of the changed files (and one commit lookup) per code source.
    const changes = new Map<string, Promise<PullRequestChange>>();
    for (const { stack, trigger, codeSource } of followers) {
      let change = changes.get(codeSource.id);
      if (!change) {
        change = this.pullRequestChange(codeSource, event);
        changes.set(codeSource.id, change);
      }
      decisions.push(
        await this.decidePullRequest(
          delivery,
          event,
          stack,
          trigger,
          codeSource,
          await change,
        ),
      );
    }
    return outcomesByOrganization(organizationIds, decisions, nothingFollows);
  }

  private async decidePullRequest(
    delivery: DeliveryContext,
    event: PullRequestEvent,
    stack: Stack,
    trigger: StackGitTrigger,
    codeSource: CodeSource,
    change: PullRequestChange,
  ): Promise<StackDecision> {
    const { stores } = this.deps;
    const pr = event.pull_request;
    const decision: StackDecision = { stack, cancelledRunIds: [] };
    const headKey = pullRequestHeadKey(pr.number);
    const seen = await stores.gitTriggerHeads.get(stack.id, headKey);
    if (seen && isStale(seen, pr.updated_at)) {
      return {
        ...decision,
        reason: `delivery about ${pr.head.sha.slice(
          0,
          7,
        )} is older than what was seen of pull request #${pr.number}`,
      };
    }
    if (seen && !seen.closed && seen.sha === pr.head.sha) {
      await stores.gitTriggerHeads.put(stack.id, headKey, {
        ...seen,
        observedAt: pr.updated_at,
      });
      return {
        ...decision,
        reason: `head ${pr.head.sha.slice(0, 7)} of pull request #${
          pr.number
        } was planned already`,
      };
    }
    await stores.gitTriggerHeads.put(stack.id, headKey, {
      sha: pr.head.sha,
      observedAt: pr.updated_at,
      closed: false,
    });
    if (!change.truncated && !touchesStack(trigger, stack.path, change.paths)) {
      return {
        ...decision,
        reason: `pull request #${pr.number} changes nothing the stack follows`,
      };
    }
    const cancelled = await this.cancelQueued(
      stack,
      run =>
        run.kind === 'PULL_REQUEST_PLAN' &&
        run.gitSource?.pullRequest?.number === pr.number,
      `Superseded by head ${pr.head.sha.slice(0, 7)} of pull request #${
        pr.number
      }`,
    );
    const gitSource: RunGitSource = {
      codeSourceId: codeSource.id,
      repository: codeSource.repoName,
      repoUrl: codeSource.repoUrl,
      branch: pr.head.ref,
      commit: {
        sha: pr.head.sha,
        message: change.commit?.message,
        author: change.commit?.author ?? pr.user?.login,
        url:
          change.commit?.url ?? `${codeSource.repoUrl}/commit/${pr.head.sha}`,
      },
      pullRequest: {
        number: pr.number,
        url: pr.html_url,
        title: pr.title,
        baseBranch: pr.base.ref,
      },
      webhookDeliveryId: delivery.deliveryGuid,
    };
    const runId = await this.startRun(stack, {
      kind: 'PULL_REQUEST_PLAN',
      description: `Plan of pull request #${pr.number}${
        pr.title ? `: ${pr.title}` : ''
      }`,
      webhookEvent: `pull_request.${event.action}`,
      gitSource,
      checkRun: {
        installationId: codeSource.auth.forgeInstallationId,
        commentOnPullRequest: trigger.pullRequestComments,
      },
    });
    return { ...decision, startedRunId: runId, cancelledRunIds: cancelled };
  }

  private async closePullRequest(
    event: PullRequestEvent,
    stack: Stack,
  ): Promise<StackDecision> {
    const { stores } = this.deps;
    const pr = event.pull_request;
    const headKey = pullRequestHeadKey(pr.number);
    const seen = await stores.gitTriggerHeads.get(stack.id, headKey);
    if (!seen || !later(seen.observedAt, pr.updated_at)) {
      await stores.gitTriggerHeads.put(stack.id, headKey, {
        sha: pr.head.sha,
        observedAt: pr.updated_at,
        closed: true,
      });
    }
    const cancelled = await this.cancelQueued(
      stack,
      run =>
        run.kind === 'PULL_REQUEST_PLAN' &&
        run.gitSource?.pullRequest?.number === pr.number,
      `Pull request #${pr.number} was closed`,
    );
    return {
      stack,
      cancelledRunIds: cancelled,
      reason:
        cancelled.length === 0
          ? `pull request #${pr.number} was closed with no queued plan`
          : undefined,
    };
  }

  /** The stacks that follow the delivery's repository, with their trigger and code source. */
  private async followers(
    delivery: DeliveryContext,
    event: { repository: { id: number }; installation: { id: number } },
  ): Promise<
    { stack: Stack; trigger: StackGitTrigger; codeSource: CodeSource }[]
  > {
    const { stores } = this.deps;
    const codeSources = await stores.codeSources.findByRepository(
      delivery.forgeHost,
      String(event.installation.id),
      String(event.repository.id),
    );
    const byId = new Map(codeSources.map(source => [source.id, source]));
    const stacks = await stores.stacks.followingCodeSources([...byId.keys()]);
    return stacks.flatMap(stack => {
      const codeSource = stack.codeSourceId && byId.get(stack.codeSourceId);
      return stack.gitTrigger &&
        codeSource &&
        codeSource.organizationId === stack.organizationId
        ? [{ stack, trigger: stack.gitTrigger, codeSource }]
        : [];
    });
  }

  private async pullRequestChange(
    codeSource: CodeSource,
    event: PullRequestEvent,
  ): Promise<PullRequestChange> {
    const repository = await this.deps.githubApps.open(
      codeSource.repoUrl,
      codeSource.auth.forgeInstallationId,
    );
    const [files, commit] = await Promise.all([
      repository.pullRequestFiles(event.pull_request.number),
      repository.commit(event.pull_request.head.sha),
    ]);
    return { ...files, commit };
  }

  /** Cancels the stack's queued runs that `matches`; returns their ids. */
  private async cancelQueued(
    stack: Stack,
    matches: (run: RunRecord) => boolean,
    why: string,
  ): Promise<string[]> {
    const { queued } = await this.deps.stores.pipelineRuns.entityQueue(
      stack.organizationId,
      stack.id,
    );
    const cancelled: string[] = [];
    for (const run of queued.filter(matches)) {
      if (await this.deps.engine.cancelQueued(run.id, why)) {
        cancelled.push(run.id);
      }
    }
    return cancelled;
  }

  private async startRun(
    stack: Stack,
    options: {
      kind: 'STANDARD' | 'PULL_REQUEST_PLAN';
      description: string;
      webhookEvent: string;
      gitSource: RunGitSource;
      checkRun?: { installationId: string; commentOnPullRequest: boolean };
    },
  ): Promise<string> {
    const runId = await this.deps.stores.transaction(async tx => {
      const pipeline = await tx.pipelines.get(
        stack.organizationId,
        stack.changePipelineId,
      );
      const version = await tx.pipelines.getVersion(
        stack.organizationId,
        pipeline!.latestVersionId!,
      );
      const steps =
        options.kind === 'PULL_REQUEST_PLAN'
          ? version!.steps
              .filter(step => step.type === 'iac.plan')
              .slice(0, 1)
              .map(step => ({
                ...step,
                name: `Plan (pull request #${
                  options.gitSource.pullRequest!.number
                })`,
              }))
          : version!.steps;
      const run = await tx.pipelineRuns.createRun({
        organizationId: stack.organizationId,
        pipelineId: pipeline!.id,
        pipelineVersionId: version!.id,
        projectId: stack.projectId,
        attachedEntityId: stack.id,
        attachedEntityType: 'STACK',
        description: options.description.slice(0, 4000),
        // The pushed code planned with the input the stack was applied with.
        ...appliedInputRun(stack),
        steps,
        kind: options.kind,
        triggerSource:
          options.kind === 'PULL_REQUEST_PLAN' ? 'PULL_REQUEST' : 'GIT_PUSH',
        triggerMetadata: {
          trigger_given_id: TRIGGER_GIVEN_ID,
          webhook_event: options.webhookEvent,
        },
        gitSource: options.gitSource,
      });
      if (options.checkRun) {
        await tx.githubCheckRuns.create({
          organizationId: stack.organizationId,
          pipelineRunId: run.id,
          repoUrl: options.gitSource.repoUrl,
          installationId: options.checkRun.installationId,
          headSha: options.gitSource.commit.sha,
          pullRequestNumber: options.gitSource.pullRequest!.number,
          commentOnPullRequest: options.checkRun.commentOnPullRequest,
        });
      }
      return run.id;
    });
    await this.deps.engine.enqueue(runId);
    return runId;
  }
}

/** The files and head commit of a pull request, as GitHub lists them. */
interface PullRequestChange {
  paths: string[];
  truncated: boolean;
  commit?: { message?: string; author?: string; url?: string };
}

/** A pull request delivery older than the newest seen, or before a close seen since. */
function isStale(seen: GitHead, updatedAt: string): boolean {
  return (
    later(seen.observedAt, updatedAt) ||
    (seen.closed && !later(updatedAt, seen.observedAt))
  );
}
