import { z } from 'zod';

/**
 * The parts of GitHub's webhook payloads the service reads
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads). Everything else in a
 * payload is ignored; a payload without these parts is recorded as failed, not guessed at.
 */

const repositorySchema = z.object({
  id: z.number(),
  full_name: z.string(),
  html_url: z.string().optional(),
});

const installationRefSchema = z.object({ id: z.number() });

const personSchema = z.object({
  name: z.string().optional(),
  username: z.string().optional(),
  login: z.string().optional(),
});

const pushCommitSchema = z.object({
  id: z.string(),
  message: z.string().optional(),
  timestamp: z.string().optional(),
  url: z.string().optional(),
  author: personSchema.optional(),
  added: z.array(z.string()).optional().default([]),
  removed: z.array(z.string()).optional().default([]),
  modified: z.array(z.string()).optional().default([]),
});

export const pushEventSchema = z.object({
  ref: z.string(),
  before: z.string(),
  after: z.string(),
  deleted: z.boolean().optional().default(false),
  forced: z.boolean().optional().default(false),
  commits: z.array(pushCommitSchema).optional().default([]),
  head_commit: pushCommitSchema.nullable().optional(),
  repository: repositorySchema,
  installation: installationRefSchema,
  sender: z.object({ login: z.string() }).optional(),
});
export type PushEvent = z.infer<typeof pushEventSchema>;

export const pullRequestEventSchema = z.object({
  action: z.string(),
  number: z.number().int(),
  pull_request: z.object({
    number: z.number().int(),
    html_url: z.string(),
    title: z.string().optional(),
    state: z.string(),
    updated_at: z.string(),
    user: z.object({ login: z.string() }).optional(),
    head: z.object({
      ref: z.string(),
      sha: z.string(),
      // The repository the head branch is in: another one for a fork, null once it is deleted.
      repo: z.object({ full_name: z.string() }).nullable().optional(),
    }),
    base: z.object({ ref: z.string() }),
  }),
  repository: repositorySchema,
  installation: installationRefSchema,
});
export type PullRequestEvent = z.infer<typeof pullRequestEventSchema>;

/**
 * The fork a pull request comes from (`owner/name`, or `a deleted fork`), when its head is not
 * a branch of the repository itself.
 */
export function forkOf(event: PullRequestEvent): string | undefined {
  const head = event.pull_request.head.repo;
  if (head === undefined || head?.full_name === event.repository.full_name) {
    return undefined;
  }
  return head?.full_name ?? 'a deleted fork';
}

export const installationEventSchema = z.object({
  action: z.string(),
  installation: installationRefSchema,
});
export type InstallationEvent = z.infer<typeof installationEventSchema>;

export const installationRepositoriesEventSchema = z.object({
  action: z.string(),
  installation: installationRefSchema,
  repositories_removed: z
    .array(z.object({ id: z.number() }))
    .optional()
    .default([]),
  repositories_added: z
    .array(z.object({ id: z.number() }))
    .optional()
    .default([]),
});
export type InstallationRepositoriesEvent = z.infer<
  typeof installationRepositoriesEventSchema
>;

/** What the delivery record keeps of any payload: the action, installation and repository. */
export function deliveryFactsOf(payload: Record<string, unknown>): {
  action?: string;
  installationId?: string;
  repositoryId?: string;
  repositoryFullName?: string;
} {
  const facts = z
    .object({
      action: z.string().optional(),
      installation: z.object({ id: z.number() }).optional(),
      repository: z
        .object({ id: z.number(), full_name: z.string() })
        .optional(),
    })
    .safeParse(payload);
  if (!facts.success) {
    return {};
  }
  return {
    action: facts.data.action,
    installationId: facts.data.installation
      ? String(facts.data.installation.id)
      : undefined,
    repositoryId: facts.data.repository
      ? String(facts.data.repository.id)
      : undefined,
    repositoryFullName: facts.data.repository?.full_name,
  };
}

/** A branch pushed to, from a ref; tags and other refs are not branches. */
export function branchOfRef(ref: string): string | undefined {
  return ref.startsWith('refs/heads/')
    ? ref.slice('refs/heads/'.length)
    : undefined;
}

/** GitHub's all-zero sha: the branch was created (before) or deleted (after). */
export const NULL_SHA = /^0+$/;
