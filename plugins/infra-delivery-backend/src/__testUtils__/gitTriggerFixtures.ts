import {
  PipelineRun,
  Stack,
  StackGitTrigger,
  WebhookDelivery,
} from '@infra-delivery/plugin-infra-delivery-common';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { FakeGithub } from './fakeGithub';
import { createEnvironment, expectStatus } from './pipelineFixtures';
import { BASE, InfraDeliveryTestClient, TestOrganization } from './testBackend';

/** A commit id of its own for every label (the fake's `commitSha` keeps only 20 characters). */
export function gitSha(label: string): string {
  return createHash('sha1').update(label).digest('hex');
}

let repositoryCounter = 0;

/** A repository of its own on the fake forge, installed alone in an installation of its own. */
export function followedRepository(github: FakeGithub, prefix: string) {
  repositoryCounter += 1;
  const name = `${prefix}-${repositoryCounter}`;
  const id = 70_000 + repositoryCounter;
  const installationId = String(8_000 + repositoryCounter);
  const main = gitSha(`${name}-main`);
  github.addRepository({
    owner: 'acme',
    name,
    id,
    branches: { main },
    commits: { [main]: { 'infra/network/main.tf': '' } },
  });
  github.install(installationId, [`acme/${name}`]);
  return {
    owner: 'acme',
    name,
    fullName: `acme/${name}`,
    id,
    installationId,
    repoUrl: github.repoUrl('acme', name),
  };
}
export type FollowedRepository = ReturnType<typeof followedRepository>;

export const DEFAULT_TRIGGER: StackGitTrigger = {
  branch: 'main',
  pushRuns: true,
  pullRequestPlans: true,
  pullRequestComments: true,
};

/** Connects the repository and creates a stack at `infra/network` that follows it. */
export async function followingStack(
  api: InfraDeliveryTestClient,
  owner: TestOrganization,
  repository: FollowedRepository,
  trigger: Partial<StackGitTrigger> = {},
): Promise<{ stack: Stack; codeSourceId: string }> {
  const source = await api.post(
    '/code-sources',
    {
      data: {
        forgeInstallationId: repository.installationId,
        repoUrl: repository.repoUrl,
        type: 'HOSTED_FORGE',
      },
    },
    owner.token,
  );
  expectStatus(source, 201);
  const place = await createEnvironment(api, owner);
  const stack = await api.post(
    '/stacks',
    {
      data: {
        ...place,
        name: `Network ${repository.name}`,
        codeSourceId: source.body.data.id,
        path: 'infra/network',
        gitTrigger: { ...DEFAULT_TRIGGER, ...trigger },
      },
    },
    owner.token,
  );
  expectStatus(stack, 201);
  return { stack: stack.body.data, codeSourceId: source.body.data.id };
}

/** GitHub's push payload (the parts GitHub always sends that the service reads, and more). */
export function pushPayload(
  repository: FollowedRepository,
  options: {
    before: string;
    after: string;
    files: string[];
    branch?: string;
    message?: string;
    author?: string;
    timestamp?: string;
  },
) {
  const commit = {
    id: options.after,
    tree_id: gitSha(`tree-${options.after}`),
    distinct: true,
    message: options.message ?? 'Change the network',
    timestamp: options.timestamp ?? new Date().toISOString(),
    url: `${repository.repoUrl}/commit/${options.after}`,
    author: {
      name: 'Alice Example',
      email: 'alice@example.com',
      username: options.author ?? 'alice',
    },
    committer: {
      name: 'GitHub',
      email: 'noreply@github.com',
      username: 'web-flow',
    },
    added: [] as string[],
    removed: [] as string[],
    modified: options.files,
  };
  return {
    ref: `refs/heads/${options.branch ?? 'main'}`,
    before: options.before,
    after: options.after,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `${repository.repoUrl}/compare/${options.before.slice(
      0,
      12,
    )}...${options.after.slice(0, 12)}`,
    commits: [commit],
    head_commit: commit,
    repository: {
      id: repository.id,
      node_id: `R_${repository.id}`,
      name: repository.name,
      full_name: repository.fullName,
      private: true,
      html_url: repository.repoUrl,
      default_branch: 'main',
    },
    pusher: { name: options.author ?? 'alice', email: 'alice@example.com' },
    sender: { login: options.author ?? 'alice', id: 1, type: 'User' },
    installation: { id: Number(repository.installationId), node_id: 'MDIz' },
  };
}

/** GitHub's pull_request payload. */
export function pullRequestPayload(
  repository: FollowedRepository,
  options: {
    action: string;
    number: number;
    headSha: string;
    updatedAt: string;
    baseRef?: string;
    title?: string;
    state?: 'open' | 'closed';
    /** The repository of the head branch: a fork's `owner/name`; the repository's own by default. */
    headRepository?: string;
  },
) {
  return {
    action: options.action,
    number: options.number,
    pull_request: {
      url: `https://api.example.test/repos/${repository.fullName}/pulls/${options.number}`,
      id: 100_000 + options.number,
      html_url: `${repository.repoUrl}/pull/${options.number}`,
      number: options.number,
      state: options.state ?? (options.action === 'closed' ? 'closed' : 'open'),
      title: options.title ?? 'Widen the subnet',
      user: { login: 'bob', id: 2, type: 'User' },
      created_at: '2026-11-20T10:00:00Z',
      updated_at: options.updatedAt,
      merged: false,
      head: {
        label: 'acme:feature/subnet',
        ref: 'feature/subnet',
        sha: options.headSha,
        repo: { full_name: options.headRepository ?? repository.fullName },
      },
      base: {
        label: 'acme:main',
        ref: options.baseRef ?? 'main',
        sha: gitSha('base'),
      },
    },
    repository: {
      id: repository.id,
      name: repository.name,
      full_name: repository.fullName,
      private: true,
      html_url: repository.repoUrl,
    },
    sender: { login: 'bob', id: 2, type: 'User' },
    installation: { id: Number(repository.installationId), node_id: 'MDIz' },
  };
}

/** Sends a delivery the fake forge made to the webhook endpoint. */
export function sendDelivery(
  api: InfraDeliveryTestClient,
  delivery: { body: string; headers: Record<string, string> },
  path: string,
): request.Test {
  let req = request(api.server).post(`${BASE}${path}`);
  for (const [name, value] of Object.entries(delivery.headers)) {
    req = req.set(name, value);
  }
  return req.send(delivery.body);
}

/** Retries `check` until it passes or the time is up. */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) {
        throw error;
      }
      await new Promise(resolve => setTimeout(resolve, 50));
    }
  }
}

/** The organization's record of a delivery once processing has ended. */
export async function processedDelivery(
  api: InfraDeliveryTestClient,
  owner: TestOrganization,
  deliveryId: string,
): Promise<WebhookDelivery> {
  return eventually(async () => {
    const list = await api.get('/webhook-deliveries?limit=500', owner.token);
    expectStatus(list, 200);
    const found = (list.body.data as WebhookDelivery[]).find(
      d => d.deliveryId === deliveryId,
    );
    if (!found || found.outcome === 'PENDING') {
      throw new Error(`Delivery ${deliveryId} is not processed yet`);
    }
    return found;
  });
}

/** The runs of a stack, newest first. */
export async function runsOfStack(
  api: InfraDeliveryTestClient,
  owner: TestOrganization,
  stackId: string,
): Promise<PipelineRun[]> {
  const runs = await api.get(
    `/pipeline-runs?attachedEntityId=${stackId}&limit=100`,
    owner.token,
  );
  expectStatus(runs, 200);
  return runs.body.data;
}

/**
 * Pushes `count` commits to the repository of one of `owner`'s code sources (touching `files`),
 * and waits until the organization lists the deliveries: a deliveries list with pages.
 */
export async function pushToCodeSource(
  api: InfraDeliveryTestClient,
  github: FakeGithub,
  owner: TestOrganization,
  codeSourceId: string,
  count: number,
): Promise<void> {
  const source = (await api.get(`/code-sources/${codeSourceId}`, owner.token))
    .body.data;
  const [repositoryOwner, name] = source.repoName.split('/');
  const repository: FollowedRepository = {
    owner: repositoryOwner,
    name,
    fullName: source.repoName,
    id: Number(source.gitRepositoryId),
    installationId: source.auth.forgeInstallationId,
    repoUrl: source.repoUrl,
  };
  const before = (await api.get('/webhook-deliveries?limit=1', owner.token))
    .body.meta.totalCount;
  for (let i = 0; i < count; i++) {
    const response = await sendDelivery(
      api,
      github.delivery(
        'push',
        pushPayload(repository, {
          before: gitSha(`${name}-${i}`),
          after: gitSha(`${name}-${i + 1}`),
          files: ['README.md'],
        }),
      ),
      github.webhookPath,
    );
    expectStatus(response, 202);
  }
  await eventually(async () => {
    const listed = await api.get('/webhook-deliveries?limit=1', owner.token);
    if (listed.body.meta.totalCount < before + count) {
      throw new Error(
        `${listed.body.meta.totalCount} deliveries listed, ${
          before + count
        } expected`,
      );
    }
  });
}
