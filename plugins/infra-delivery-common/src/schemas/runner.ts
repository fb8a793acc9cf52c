import { z } from 'zod';
import { errorBodySchema } from './errors';
import { pageQuerySchema } from './pagination';
import {
  pipelineRunSchema,
  stepExecutionSchema,
  serviceReachableSinceSchema,
  stepLeaseSchema,
} from './pipelines';
import {
  idSchema,
  requestBody,
  singleLineTextSchema,
  timestampSchema,
} from './primitives';
import { stackSchema } from './stacks';

const leaseTokenSchema = z.string().min(16).max(128);

const runnerIdSchema = singleLineTextSchema.min(1).max(128);
/**
 * One process of a runner, told apart from others started with the same runner id (the same
 * key and `--runner-id` on two hosts, or twice on one): the reference runner makes one up at
 * start.
 */
const runnerInstanceIdSchema = singleLineTextSchema.min(1).max(64);
const runnerLabelsSchema = z.array(singleLineTextSchema.max(64)).max(32);

/** The poll intervals a runner may say it waits between claims: 10 ms to an hour. */
export const RUNNER_POLL_INTERVAL_MS = { min: 10, max: 3_600_000 } as const;

/** The longest a claim may be held waiting for work: well within common proxies' idle timeouts. */
export const RUNNER_CLAIM_WAIT_SECONDS = { max: 60 } as const;

/** The heartbeat intervals a runner may say it keeps while a step runs: a second to ten minutes. */
const heartbeatIntervalSchema = z.number().int().min(1_000).max(600_000);

export const claimRequestSchema = requestBody(
  z.object({
    runnerId: runnerIdSchema,
    instanceId: runnerInstanceIdSchema
      .optional()
      .describe(
        'This process of the runner, made up when it starts (e.g. a UUID) and sent with each claim and its sign-off: two processes started with the same runner id are then listed as two runners, where they were one. A runner that sends none is listed by its runner id alone',
      ),
    labels: runnerLabelsSchema.optional(),
    /** The runner's own version, shown in the portal's runner list. */
    version: singleLineTextSchema.max(64).optional(),
    /** The host the runner runs on, shown in the portal's runner list. */
    hostname: singleLineTextSchema.max(255).optional(),
    /**
     * How long the runner waits between claims when it finds no work. A free runner that has not
     * claimed a waiting step within a few of these has stopped without signing off; without it
     * the service assumes the reference runner's default, two seconds.
     */
    pollIntervalMs: z
      .number()
      .int()
      .min(RUNNER_POLL_INTERVAL_MS.min)
      .max(RUNNER_POLL_INTERVAL_MS.max)
      .optional(),
    heartbeatIntervalMs: heartbeatIntervalSchema
      .optional()
      .describe(
        'How often the runner will send heartbeats while a step it claims runs, as each heartbeat says (`heartbeatIntervalMs`). Kept on the lease of the step this claim hands it, so that a runner killed before its first heartbeat is called silent after three of these (at least ten seconds) since its claim, rather than after half the lease; its heartbeats then say it again',
      ),
    /**
     * How long the service may hold the claim while nothing is claimable: it answers as soon as
     * a step is queued for a runner, or with 204 when the wait ends. 0 (the default) answers at
     * once. A runner that waits starts a step the moment it is queued and asks far less often.
     */
    waitSeconds: z
      .number()
      .int()
      .min(0)
      .max(RUNNER_CLAIM_WAIT_SECONDS.max)
      .optional(),
  }),
);

/** A claim as a runner sends it: what it says of itself, and how long it may be held. */
export type ClaimRequest = z.infer<typeof claimRequestSchema>['data'];

/** A runner that stops says so, so that it reads OFFLINE at once rather than after the window. */
export const signOffRunnerRequestSchema = requestBody(
  z.object({
    runnerId: runnerIdSchema,
    instanceId: runnerInstanceIdSchema
      .optional()
      .describe(
        'The process that stops, as its claims named it: the other processes of the same runner id stay ONLINE',
      ),
  }),
);

export const RUNNER_STATUSES = ['ONLINE', 'OFFLINE'] as const;
export const runnerStatusSchema = z.enum(RUNNER_STATUSES);
export type RunnerStatus = z.infer<typeof runnerStatusSchema>;

export const RUNNER_OFFLINE_CAUSES = [
  'STOPPED_REPORTING',
  'KEY_REVOKED',
  'ACCOUNT_DELETED',
] as const;
export const runnerOfflineCauseSchema = z.enum(RUNNER_OFFLINE_CAUSES);
export type RunnerOfflineCause = z.infer<typeof runnerOfflineCauseSchema>;

/**
 * A runner as the service last saw it: every claim (also one that found no work), heartbeat,
 * log append and completion records it. ONLINE when seen within the configured window and not
 * signed off since.
 */
export const runnerSchema = z
  .object({
    runnerId: runnerIdSchema,
    instanceId: z
      .string()
      .optional()
      .describe(
        'The process of the runner this entry is, as its claims named it: each process started with the same runner id is an entry of its own. Absent for a runner that names none (older runners)',
      ),
    serviceAccountId: idSchema,
    serviceAccountName: z
      .string()
      .optional()
      .describe(
        'The name of the service account whose key the runner signs in with (e.g. "Build hosts"), what people call the runner; absent once the account is deleted',
      ),
    labels: runnerLabelsSchema,
    version: z.string().optional(),
    hostname: z.string().optional(),
    pollIntervalMs: z
      .number()
      .int()
      .optional()
      .describe(
        'How long the runner waits between claims when it finds no work, as it said when it last claimed',
      ),
    firstSeenAt: timestampSchema,
    lastSeenAt: timestampSchema,
    claimDroppedAt: timestampSchema
      .optional()
      .describe(
        'When the claim the service held for this runner lost its connection before it was answered (the runner killed, or its host or network lost), where the runner has not asked for work since: a runner that lives asks again at once. Known to every instance of the service. A free runner whose claim dropped at least five seconds (two of its poll intervals, if longer) ago has most likely stopped',
      ),
    serviceReachableSince: serviceReachableSinceSchema,
    status: runnerStatusSchema,
    /** The step execution the runner holds a lease on, if any. */
    currentStepExecutionId: idSchema.optional(),
    /** The pipeline run of that step, to link to: absent while idle. */
    currentPipelineRunId: idSchema.optional(),
    /** That step's name in its pipeline (e.g. "plan"): absent while idle. */
    currentStepName: z.string().optional(),
    currentStepLease: stepLeaseSchema
      .optional()
      .describe(
        "The runner's lease on that step while it holds it: its latest heartbeat (`renewedAt`) and when the step is queued again unless it reports (`expiresAt`)",
      ),
    signedOffAt: timestampSchema
      .optional()
      .describe(
        'When the runner said it stopped (it is OFFLINE since); absent once it claims again',
      ),
    offlineCause: runnerOfflineCauseSchema
      .optional()
      .describe(
        'Why the service turned the runner OFFLINE before the online window passed, until it is seen again: STOPPED_REPORTING when the lease of the step it held ran out (`currentStepExecutionId` names that step, queued again); KEY_REVOKED when the API key it signed in with was revoked, ACCOUNT_DELETED when its service account was deleted (it can no longer report: the step it held, still named, is queued again at once)',
      ),
    offlineBy: z
      .string()
      .optional()
      .describe(
        'Who revoked its key or deleted its service account (KEY_REVOKED, ACCOUNT_DELETED)',
      ),
  })
  .meta({ id: 'Runner' });
export type Runner = z.infer<typeof runnerSchema>;

export const listRunnersQuerySchema = pageQuerySchema.extend({
  status: runnerStatusSchema.optional(),
});
export type ListRunnersQuery = z.infer<typeof listRunnersQuerySchema>;

/**
 * The commit a runner checks out for a git-triggered run (one with `gitSource`), and the
 * credential to fetch it with: the stack's `path` is resolved inside that commit, not in the
 * runner's own source directory.
 */
export const runCheckoutSchema = z
  .object({
    repoUrl: z
      .string()
      .describe(
        'The HTTPS clone URL, e.g. `https://github.com/acme/network.git`',
      ),
    sha: z.string().describe('The commit to fetch and check out'),
    token: z
      .string()
      .optional()
      .describe(
        'A GitHub App installation token limited to this repository with `contents: read`, sent by git as `Authorization: Basic base64(x-access-token:<token>)`',
      ),
    tokenExpiresAt: timestampSchema.optional(),
  })
  .meta({ id: 'RunnerCheckout' });
export type RunnerCheckout = z.infer<typeof runCheckoutSchema>;

export const claimSchema = z
  .object({
    leaseToken: z.string(),
    leaseExpiresAt: timestampSchema,
    stepExecution: stepExecutionSchema,
    pipelineRun: pipelineRunSchema,
    stack: stackSchema.nullable(),
    /** Present when the run has `gitSource`: what to plan instead of the runner's source root. */
    checkout: runCheckoutSchema.optional(),
  })
  .meta({ id: 'RunnerClaim' });
export type RunnerClaim = z.infer<typeof claimSchema>;

export const heartbeatRequestSchema = requestBody(
  z.object({
    leaseToken: leaseTokenSchema,
    heartbeatIntervalMs: heartbeatIntervalSchema
      .optional()
      .describe(
        "How often the runner sends these heartbeats while the step runs. Kept on the step's lease (`heartbeatIntervalMs`): the portal calls a runner silent once it has not been heard from for three of these (at least ten seconds), where it would wait half the lease without it. The step is still queued again only when the lease expires",
      ),
  }),
);

export const heartbeatSchema = z
  .object({ leaseExpiresAt: timestampSchema, cancelRequested: z.boolean() })
  .meta({ id: 'RunnerHeartbeat' });

/**
 * The answer to a batch of log lines of a step cancelled under the runner's lease: the lines
 * were kept, and the runner is to stop the step's command now. A step that runs is answered 204.
 */
export const appendLogsAnswerSchema = z
  .object({
    cancelRequested: z
      .literal(true)
      .describe(
        "The step's run was cancelled: stop the command at once, send what it prints while it stops, then report the step (its report ends the wait; the step stays CANCELLED)",
      ),
    acceptLogsUntil: timestampSchema.describe(
      "Until when the service keeps the cancelled step's log lines, unless the runner reports the step before",
    ),
  })
  .meta({ id: 'RunnerLogsAnswer' });
export type AppendLogsAnswer = z.infer<typeof appendLogsAnswerSchema>;

export const appendLogsRequestSchema = requestBody(
  z.object({
    leaseToken: leaseTokenSchema,
    lines: z
      .array(
        z.object({
          timestamp: timestampSchema.optional(),
          text: z.string().max(16_384),
        }),
      )
      .min(1)
      .max(1000),
  }),
);

export const completeStepRequestSchema = requestBody(
  z.object({
    leaseToken: leaseTokenSchema,
    status: z.enum(['SUCCEEDED', 'FAILED']),
    /** `terraform show -json` / `tofu show -json` of the plan (plan) or of the applied plan. */
    planJson: z.record(z.string(), z.unknown()).optional(),
    /** The plan file `planJson` was shown from (`-out=…`), kept on the execution summary. */
    planFilename: z.string().min(1).max(255).optional(),
    outputs: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Root module outputs after an apply: name → value, or the entries of `terraform output -json` (`{ value, type, sensitive }`). Sensitive outputs are kept as "(sensitive value)": those an entry or the applied plan marks sensitive',
      ),
    error: errorBodySchema.optional(),
  }),
);

export const stepExecutionIdParamsSchema = z.object({ id: idSchema });
