import {
  createGitSelfHostedServerRequestSchema,
  dataResponseSchema,
  gitForgeNamespaceParamsSchema,
  gitForgeRepositoryBatchSchema,
  gitForgeRepositoryPageSchema,
  gitSelfHostedLoginParamsSchema,
  gitSelfHostedLoginResultSchema,
  gitSelfHostedLoginStartSchema,
  gitSelfHostedOAuthCallbackQuerySchema,
  gitSelfHostedServerSchema,
  listGitForgeRepositoriesQuerySchema,
  listGitSelfHostedServersQuerySchema,
  listResponseSchema,
  streamGitForgeRepositoriesQuerySchema,
} from '../schemas';
import { defineOperation, EVENT_STREAM_CONTENT_TYPE } from './defineOperation';
import { idParamsSchema } from './params';

const TAG = 'Self-hosted git forges';

export const createGitSelfHostedServer = defineOperation({
  operationId: 'createGitSelfHostedServer',
  method: 'post',
  path: '/gitforge/self-hosted',
  summary:
    'Register a GitHub Enterprise Server and the OAuth app its members log in through',
  description:
    "The client secret is encrypted at rest and never returned. The OAuth app's callback URL must be the portal page `{infraDelivery.portalUrl}/gitforge/callback` (by default `{app.baseUrl}/infra-delivery/gitforge/callback`).",
  tag: TAG,
  access: 'authenticated',
  body: createGitSelfHostedServerRequestSchema,
  success: {
    status: 201,
    schema: dataResponseSchema(gitSelfHostedServerSchema),
  },
  errors: [400, 403, 409],
});

export const listGitSelfHostedServers = defineOperation({
  operationId: 'listGitSelfHostedServers',
  method: 'get',
  path: '/gitforge/self-hosted',
  summary: 'Self-hosted git-forge servers of the organization, newest first',
  tag: TAG,
  access: 'authenticated',
  query: listGitSelfHostedServersQuerySchema,
  success: {
    status: 200,
    schema: listResponseSchema(gitSelfHostedServerSchema),
  },
  errors: [400, 403],
});

export const getGitSelfHostedServer = defineOperation({
  operationId: 'getGitSelfHostedServer',
  method: 'get',
  path: '/gitforge/self-hosted/{id}',
  summary: 'One self-hosted git-forge server',
  tag: TAG,
  access: 'authenticated',
  params: idParamsSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(gitSelfHostedServerSchema),
  },
  errors: [403, 404],
});

export const deleteGitSelfHostedServer = defineOperation({
  operationId: 'deleteGitSelfHostedServer',
  method: 'delete',
  path: '/gitforge/self-hosted/{id}',
  summary: "Remove a self-hosted server with every member's stored login",
  tag: TAG,
  access: 'authenticated',
  params: idParamsSchema,
  success: { status: 204 },
  errors: [403, 404],
});

export const startGitSelfHostedLogin = defineOperation({
  operationId: 'startGitSelfHostedLogin',
  method: 'get',
  path: '/gitforge/self-hosted/{gitSelfHostedServerId}/login',
  summary:
    "Start the caller's OAuth login to a self-hosted server: a redirect to its authorization page",
  description:
    "The `state` of the redirect is signed, single-use, valid for 10 minutes and bound to the caller and the server. The server sends the browser back to the portal page `{infraDelivery.portalUrl}/gitforge/callback`, which completes the login with `GET /gitforge/self-hosted/oauth/callback` and the member's credential. A browser page, which cannot follow this 302 with a bearer token, uses `GET /gitforge/self-hosted/{gitSelfHostedServerId}/login-url`.",
  tag: TAG,
  access: 'authenticated',
  params: gitSelfHostedLoginParamsSchema,
  success: { status: 302 },
  errors: [403, 404],
});

export const getGitSelfHostedLoginUrl = defineOperation({
  operationId: 'getGitSelfHostedLoginUrl',
  method: 'get',
  path: '/gitforge/self-hosted/{gitSelfHostedServerId}/login-url',
  summary:
    "Start the caller's OAuth login to a self-hosted server from a web page: the authorization address",
  description:
    'The same login as `GET /gitforge/self-hosted/{gitSelfHostedServerId}/login`, answered as JSON for a page to navigate to.',
  tag: TAG,
  access: 'authenticated',
  params: gitSelfHostedLoginParamsSchema,
  success: {
    status: 200,
    schema: dataResponseSchema(gitSelfHostedLoginStartSchema),
  },
  errors: [403, 404],
});

export const completeGitSelfHostedLogin = defineOperation({
  operationId: 'completeGitSelfHostedLogin',
  method: 'get',
  path: '/gitforge/self-hosted/oauth/callback',
  summary:
    "Complete the caller's login with what the self-hosted server sent back: exchanges the code and stores the login",
  description:
    "Called by the portal page the server sends the browser back to, with the query it received and the member's credential. The signed `state` names the member and the server; presented by anyone else it is refused (403 `STARTED_BY_SOMEONE_ELSE`), so a login link sent to a colleague cannot store the colleague's forge account as the sender's login. A forged, expired or already used state is refused, and so is a login the person declined (`error=access_denied`).",
  tag: TAG,
  access: 'authenticated',
  query: gitSelfHostedOAuthCallbackQuerySchema,
  success: {
    status: 200,
    schema: dataResponseSchema(gitSelfHostedLoginResultSchema),
  },
  errors: [400, 403, 404, 502, 503],
});

export const listGitForgeNamespaceRepositories = defineOperation({
  operationId: 'listGitForgeNamespaceRepositories',
  method: 'get',
  path: '/gitforge/self-hosted/namespaces/{namespaceId}/repositories',
  summary:
    "One page of a user's or organization's repositories on a self-hosted server",
  description:
    "Read through the server's GraphQL API with the caller's login (#27); without one the answer is a 403 whose `action` points at the login. Continue with `after` = `pageInfo.endCursor`.",
  tag: TAG,
  access: 'authenticated',
  params: gitForgeNamespaceParamsSchema,
  query: listGitForgeRepositoriesQuerySchema,
  success: { status: 200, schema: gitForgeRepositoryPageSchema },
  errors: [400, 403, 404, 502, 503],
});

export const streamGitForgeNamespaceRepositories = defineOperation({
  operationId: 'streamGitForgeNamespaceRepositories',
  method: 'get',
  path: '/gitforge/self-hosted/namespaces/{namespaceId}/repositories/stream',
  summary:
    "A user's or organization's repositories on a self-hosted server as Server-Sent Events, in batches of 20",
  description:
    'Each batch is sent as soon as the server returned it; the last one has `isFinal`. A comment line keeps the connection alive every 15 seconds. A failure after the stream started ends it with `event: error` whose data is an ErrorBody; failures before it started are ordinary error responses.',
  tag: TAG,
  access: 'authenticated',
  params: gitForgeNamespaceParamsSchema,
  query: streamGitForgeRepositoriesQuerySchema,
  success: {
    status: 200,
    schema: gitForgeRepositoryBatchSchema,
    contentType: EVENT_STREAM_CONTENT_TYPE,
  },
  errors: [400, 403, 404],
});
