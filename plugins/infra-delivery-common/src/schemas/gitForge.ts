import { z } from 'zod';
import {
  idSchema,
  nameSchema,
  requestBody,
  singleLineTextSchema,
  timestampSchema,
} from './primitives';
import { pageQuerySchema } from './pagination';

/**
 * A self-hosted git-forge server (GitHub Enterprise Server) with the OAuth app its members log
 * in through. The client secret is write-only: no response carries it.
 */
export const gitSelfHostedServerSchema = z
  .object({
    id: idSchema,
    organizationId: idSchema,
    name: z.string(),
    baseUrl: z
      .string()
      .describe('Web address of the server, without a trailing slash'),
    clientId: z.string().describe('Client id of the OAuth app on the server'),
    loggedIn: z
      .boolean()
      .describe('Whether the caller has logged in to the server (#27)'),
    createdById: z.string(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'GitSelfHostedServer' });
export type GitSelfHostedServer = z.infer<typeof gitSelfHostedServerSchema>;

export const createGitSelfHostedServerRequestSchema = requestBody(
  z.object({
    name: nameSchema,
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .describe(
        'https address of the server; http only for a loopback address outside production',
      ),
    clientId: singleLineTextSchema.trim().min(1).max(255),
    clientSecret: z.string().min(1).max(1024),
  }),
);

export const listGitSelfHostedServersQuerySchema = pageQuerySchema;

/** `{gitSelfHostedServerId}` of the login operation (#27). */
export const gitSelfHostedLoginParamsSchema = z.object({
  gitSelfHostedServerId: idSchema,
});

/** Where to send the browser to log in to a server, for a page that cannot follow a 302. */
export const gitSelfHostedLoginStartSchema = z
  .object({
    authorizeUrl: z
      .string()
      .describe("The server's authorization page, with the signed `state`"),
    expiresAt: timestampSchema.describe(
      'Until when the login can be completed',
    ),
  })
  .meta({ id: 'GitSelfHostedLoginStart' });
export type GitSelfHostedLoginStart = z.infer<
  typeof gitSelfHostedLoginStartSchema
>;

/**
 * Where the server sends the browser back: `code` and `state` after a login, `error` (for
 * example `access_denied`) when the person declined.
 */
export const gitSelfHostedOAuthCallbackQuerySchema = z.object({
  state: z.string().min(1).max(4096),
  code: z.string().min(1).max(1024).optional(),
  error: z.string().min(1).max(255).optional(),
  error_description: z.string().max(2048).optional(),
});

export const gitSelfHostedLoginResultSchema = z
  .object({
    gitSelfHostedServerId: idSchema,
    loggedIn: z.literal(true),
    scopes: z.array(z.string()),
  })
  .meta({ id: 'GitSelfHostedLoginResult' });
export type GitSelfHostedLoginResult = z.infer<
  typeof gitSelfHostedLoginResultSchema
>;

export const GIT_FORGE_NAMESPACE_TYPES = ['USER', 'ORGANIZATION'] as const;
export const gitForgeNamespaceTypeSchema = z
  .enum(GIT_FORGE_NAMESPACE_TYPES)
  .meta({ id: 'GitForgeNamespaceType' });
export type GitForgeNamespaceType = z.infer<typeof gitForgeNamespaceTypeSchema>;

/** `{namespaceId}`: the login of a user or organization on the server. */
export const gitForgeNamespaceParamsSchema = z.object({
  namespaceId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a user or organization login'),
});

/** The repository stream (#12) sends batches of this many repositories. */
export const GIT_FORGE_REPOSITORY_BATCH_SIZE = 20;
/** The most repositories one page of the listing (#11) may ask for: the GraphQL API's cap. */
export const MAX_GIT_FORGE_REPOSITORY_PAGE = 100;

/** Query of the repository stream (#12): it always sends batches of 20. */
export const streamGitForgeRepositoriesQuerySchema = z.object({
  serverId: idSchema.describe('The self-hosted server'),
  namespaceType: gitForgeNamespaceTypeSchema,
  after: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe('`pageInfo.endCursor` to continue after'),
});

/** Query of the repository listing (#11). */
export const listGitForgeRepositoriesQuerySchema =
  streamGitForgeRepositoriesQuerySchema.extend({
    first: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_GIT_FORGE_REPOSITORY_PAGE)
      .default(GIT_FORGE_REPOSITORY_BATCH_SIZE)
      .describe(`Page size, 1..${MAX_GIT_FORGE_REPOSITORY_PAGE}`),
  });

/** A repository of a namespace on a self-hosted server, as the specification lists it. */
export const gitForgeRepositorySchema = z
  .object({
    collaborators: z
      .object({ totalCount: z.number().int() })
      .optional()
      .describe('Absent when the caller may not see the collaborators'),
    defaultBranch: z.object({ name: z.string() }).optional(),
    defaultBranchRef: z.object({ name: z.string() }).optional(),
    description: z.string().optional(),
    foreignId: z.string().describe('The GraphQL node id on the server'),
    isInNamespace: z
      .boolean()
      .describe('Whether the namespace owns the repository'),
    isPrivate: z.boolean(),
    name: z.string(),
    nameWithOwner: z.string(),
    owner: z.object({ login: z.string() }),
    pushedAt: z.string().optional(),
    url: z.string(),
  })
  .meta({ id: 'GitForgeRepository' });
export type GitForgeRepository = z.infer<typeof gitForgeRepositorySchema>;

export const gitForgePageInfoSchema = z
  .object({
    endCursor: z.string().nullable(),
    hasNextPage: z.boolean(),
  })
  .meta({ id: 'GitForgePageInfo' });
export type GitForgePageInfo = z.infer<typeof gitForgePageInfoSchema>;

export const gitForgeRepositoryPageSchema = z.object({
  data: z
    .object({
      data: z.array(gitForgeRepositorySchema),
      pageInfo: gitForgePageInfoSchema,
      totalCount: z.number().int(),
    })
    .meta({ id: 'GitForgeRepositoryPage' }),
});

/** One event of the repository stream (#12). */
export const gitForgeRepositoryBatchSchema = z
  .object({
    isFinal: z.boolean(),
    pageInfo: gitForgePageInfoSchema,
    repositories: z.array(gitForgeRepositorySchema),
    totalReceived: z
      .number()
      .int()
      .describe('Repositories sent so far, this batch included'),
  })
  .meta({ id: 'GitForgeRepositoryBatch' });
export type GitForgeRepositoryBatch = z.infer<
  typeof gitForgeRepositoryBatchSchema
>;
