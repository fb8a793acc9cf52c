import { z } from 'zod';
import { idSchema, timestampSchema } from './primitives';
import { pageQuerySchema } from './pagination';

/** The headers GitHub sends with every webhook delivery. */
export const GITHUB_SIGNATURE_HEADER = 'X-Hub-Signature-256';
export const GITHUB_EVENT_HEADER = 'X-GitHub-Event';
export const GITHUB_DELIVERY_HEADER = 'X-GitHub-Delivery';

/**
 * A glob relative to the repository root (`infra/network/**`, `modules/*.tf`): `*` and `?`
 * stay within one path segment, `**` crosses segments.
 */
export const pathFilterSchema = z
  .string()
  .min(1)
  .max(512)
  .refine(value => !value.startsWith('/') && !value.split('/').includes('..'), {
    message: 'a path filter is relative to the repository root, without ..',
  });

/**
 * How a stack follows its code source (`codeSourceId` and `path` of the stack): which branch,
 * which changed files count, and what pushes and pull requests start.
 */
export const stackGitTriggerSchema = z
  .object({
    branch: z
      .string()
      .min(1)
      .max(255)
      .describe(
        'The branch the stack follows: pushes to it start the change pipeline, pull requests into it get a plan',
      ),
    pathFilters: z
      .array(pathFilterSchema)
      .max(20)
      .optional()
      .describe(
        "Globs relative to the repository root; a change that touches a matching file triggers the stack. Absent: any file under the stack's path (the whole repository without a path)",
      ),
    pushRuns: z
      .boolean()
      .describe(
        "A push to the branch that touches the stack starts the stack's change pipeline (plan, approval unless auto-approved, apply)",
      ),
    pullRequestPlans: z
      .boolean()
      .describe(
        'A pull request into the branch that touches the stack gets a plan-only run on its head commit, reported as a GitHub check run',
      ),
    pullRequestComments: z
      .boolean()
      .describe(
        "Besides the check run, one comment on the pull request with the plan's counts, updated in place",
      ),
  })
  .meta({ id: 'StackGitTrigger' });
export type StackGitTrigger = z.infer<typeof stackGitTriggerSchema>;

/** The commit a git-triggered run works on, and what on the forge pointed to it. */
export const runGitSourceSchema = z
  .object({
    codeSourceId: idSchema,
    repository: z.string().describe('`owner/name` on the forge'),
    repoUrl: z.string(),
    branch: z
      .string()
      .describe('The pushed branch, or the head branch of the pull request'),
    commit: z.object({
      sha: z.string(),
      message: z.string().optional(),
      author: z
        .string()
        .optional()
        .describe("The author's forge login, or their name without one"),
      url: z.string().optional(),
    }),
    pullRequest: z
      .object({
        number: z.number().int(),
        url: z.string(),
        title: z.string().optional(),
        baseBranch: z.string(),
      })
      .optional(),
    webhookDeliveryId: z
      .string()
      .describe(
        "GitHub's `X-GitHub-Delivery` of the delivery that started the run",
      ),
  })
  .meta({ id: 'RunGitSource' });
export type RunGitSource = z.infer<typeof runGitSourceSchema>;

/** What the service made of a webhook delivery, for one organization. */
export const WEBHOOK_DELIVERY_OUTCOMES = [
  'PENDING',
  'IGNORED',
  'STARTED_RUNS',
  'CANCELLED_RUNS',
  'UPDATED_CODE_SOURCES',
  'FAILED',
] as const;
export const webhookDeliveryOutcomeSchema = z
  .enum(WEBHOOK_DELIVERY_OUTCOMES)
  .meta({ id: 'WebhookDeliveryOutcome' });
export type WebhookDeliveryOutcome = z.infer<
  typeof webhookDeliveryOutcomeSchema
>;

/** One delivery of a GitHub App webhook, as it concerned the caller's organization. */
export const webhookDeliverySchema = z
  .object({
    id: idSchema,
    deliveryId: z.string().describe("GitHub's `X-GitHub-Delivery`"),
    event: z
      .string()
      .describe("GitHub's `X-GitHub-Event` (push, pull_request, …)"),
    action: z.string().optional(),
    forgeHost: z.string(),
    appId: z.string(),
    installationId: z.string().optional(),
    repository: z.string().optional().describe('`owner/name`'),
    receivedAt: timestampSchema,
    processedAt: timestampSchema.optional(),
    outcome: webhookDeliveryOutcomeSchema,
    reason: z.string().optional().describe('Why, for a person'),
    startedRunIds: z.array(idSchema),
    cancelledRunIds: z.array(idSchema),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const listWebhookDeliveriesQuerySchema = pageQuerySchema;

export const githubWebhookParamsSchema = z.object({
  forgeHost: z
    .string()
    .min(1)
    .max(255)
    .describe(
      'The host of the `integrations.github` entry (github.com, or the GitHub Enterprise Server host)',
    ),
  appId: z
    .string()
    .regex(/^\d{1,20}$/)
    .describe("The App's id in that entry"),
});

/** A webhook body after its signature was checked: GitHub's event payload. */
export const githubWebhookPayloadSchema = z
  .record(z.string(), z.unknown())
  .describe(
    "GitHub's webhook payload, signed with the App's webhook secret (`X-Hub-Signature-256`)",
  );

export const webhookAcknowledgementSchema = z
  .object({
    deliveryId: z.string(),
    duplicate: z
      .boolean()
      .describe(
        'The delivery was received before (a redelivery): nothing is done again',
      ),
  })
  .meta({ id: 'WebhookAcknowledgement' });
