import {
  GitForgeNamespaceType,
  GitForgePageInfo,
  GitForgeRepository,
} from '@infra-delivery/plugin-infra-delivery-common';
import { z } from 'zod';
import { InfraDeliveryError } from '../../errors';
import { requestUpstream, UpstreamResponse } from './upstreamHttp';

/** What a member's login may do: read repositories (private ones too) and organizations. */
export const OAUTH_SCOPES = ['repo', 'read:org'];

/** The server refused the member's token (revoked, expired): they need to log in again. */
export class ForgeTokenRejectedError extends Error {
  constructor() {
    super('The server refused the stored login');
    this.name = 'ForgeTokenRejectedError';
  }
}

export interface ForgeLogin {
  accessToken: string;
  scopes: string[];
  /** Set for tokens that expire (GitHub App user tokens); OAuth app tokens do not. */
  expiresAt?: Date;
}

export interface RepositoryPage {
  repositories: GitForgeRepository[];
  pageInfo: GitForgePageInfo;
  totalCount: number;
}

function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(hostname)
  );
}

/**
 * The canonical base URL of a server: https (http only for a loopback address, and only when
 * `allowLoopbackHttp`), no credentials, query or fragment, no trailing slash.
 */
export function normalizeServerBaseUrl(
  raw: string,
  options: { allowLoopbackHttp: boolean },
): string {
  const invalid = (message: string) =>
    new InfraDeliveryError({
      status: 400,
      entity: 'GitSelfHostedServer',
      reason: 'INVALID_BASE_URL',
      message,
      metadata: { baseUrl: raw },
    });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('The base URL is not a URL');
  }
  const loopbackHttp =
    url.protocol === 'http:' &&
    isLoopbackHost(url.hostname) &&
    options.allowLoopbackHttp;
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw invalid('The base URL must use https');
  }
  if (url.username || url.password || url.search || url.hash) {
    throw invalid(
      'The base URL may not carry credentials, a query or a fragment',
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

const repositoryNodeSchema = z.object({
  id: z.string(),
  name: z.string(),
  nameWithOwner: z.string(),
  description: z.string().nullish(),
  url: z.string(),
  isPrivate: z.boolean(),
  pushedAt: z.string().nullish(),
  owner: z.object({ login: z.string() }),
  defaultBranchRef: z.object({ name: z.string() }).nullish(),
  collaborators: z.object({ totalCount: z.number().int() }).nullish(),
});

const graphQlErrorSchema = z.object({
  type: z.string().optional(),
  message: z.string(),
  path: z.array(z.union([z.string(), z.number()])).optional(),
});

const repositoriesResponseSchema = z.object({
  data: z
    .object({
      namespace: z
        .object({
          repositories: z.object({
            totalCount: z.number().int(),
            pageInfo: z.object({
              endCursor: z.string().nullable(),
              hasNextPage: z.boolean(),
            }),
            nodes: z.array(repositoryNodeSchema.nullable()),
          }),
        })
        .nullable(),
    })
    .nullish(),
  errors: z.array(graphQlErrorSchema).optional(),
});

const tokenResponseSchema = z.union([
  z.object({
    access_token: z.string().min(1),
    scope: z.string().optional(),
    expires_in: z.number().optional(),
  }),
  z.object({
    error: z.string(),
    error_description: z.string().optional(),
  }),
]);

const REPOSITORY_FIELDS = `
  id
  name
  nameWithOwner
  description
  url
  isPrivate
  pushedAt
  owner { login }
  defaultBranchRef { name }
  collaborators(first: 0) { totalCount }
`;

/**
 * An organization's repositories, or a user's together with those they collaborate on or see
 * through their organizations (`isInNamespace` tells them apart). Ordered by name, which does
 * not shift while the pages are read.
 */
function repositoriesQuery(namespaceType: GitForgeNamespaceType): string {
  const namespace =
    namespaceType === 'ORGANIZATION'
      ? 'organization(login: $login)'
      : 'user(login: $login)';
  const affiliations =
    namespaceType === 'USER'
      ? ', ownerAffiliations: [OWNER, COLLABORATOR, ORGANIZATION_MEMBER]'
      : '';
  return `query NamespaceRepositories($login: String!, $first: Int!, $after: String) {
  namespace: ${namespace} {
    repositories(first: $first, after: $after, orderBy: { field: NAME, direction: ASC }${affiliations}) {
      totalCount
      pageInfo { endCursor hasNextPage }
      nodes {${REPOSITORY_FIELDS}}
    }
  }
}`;
}

function toRepository(
  node: z.infer<typeof repositoryNodeSchema>,
  namespace: string,
): GitForgeRepository {
  const branch = node.defaultBranchRef
    ? { name: node.defaultBranchRef.name }
    : undefined;
  return {
    ...(node.collaborators
      ? { collaborators: { totalCount: node.collaborators.totalCount } }
      : {}),
    ...(branch ? { defaultBranch: branch, defaultBranchRef: branch } : {}),
    ...(node.description ? { description: node.description } : {}),
    foreignId: node.id,
    isInNamespace: node.owner.login.toLowerCase() === namespace.toLowerCase(),
    isPrivate: node.isPrivate,
    name: node.name,
    nameWithOwner: node.nameWithOwner,
    owner: { login: node.owner.login },
    ...(node.pushedAt ? { pushedAt: node.pushedAt } : {}),
    url: node.url,
  };
}

/** Collaborators need push access; for other repositories the API answers them as an error. */
function isCollaboratorsError(error: z.infer<typeof graphQlErrorSchema>) {
  return error.path?.[error.path.length - 1] === 'collaborators';
}

/**
 * A GitHub Enterprise Server: its OAuth endpoints (`/login/oauth/...`) and its GraphQL API
 * (`/api/graphql`), read with a member's token.
 */
export class GitHubEnterpriseServer {
  constructor(private readonly options: { baseUrl: string; name: string }) {}

  authorizeUrl(request: {
    clientId: string;
    redirectUri: string;
    state: string;
  }): string {
    const url = new URL(`${this.options.baseUrl}/login/oauth/authorize`);
    url.searchParams.set('client_id', request.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    url.searchParams.set('state', request.state);
    url.searchParams.set('scope', OAUTH_SCOPES.join(' '));
    return url.toString();
  }

  async exchangeCode(request: {
    clientId: string;
    clientSecret: string;
    code: string;
    redirectUri: string;
  }): Promise<ForgeLogin> {
    const response = await requestUpstream({
      upstreamName: this.options.name,
      url: `${this.options.baseUrl}/login/oauth/access_token`,
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        client_id: request.clientId,
        client_secret: request.clientSecret,
        code: request.code,
        redirect_uri: request.redirectUri,
      }).toString(),
    });
    const parsed = tokenResponseSchema.safeParse(response.json);
    if (response.status !== 200 || !parsed.success) {
      throw this.unexpectedAnswer(response);
    }
    const answer = parsed.data;
    if ('error' in answer) {
      if (answer.error === 'incorrect_client_credentials') {
        throw new InfraDeliveryError({
          status: 502,
          entity: 'GitSelfHostedServer',
          reason: 'CLIENT_REJECTED',
          message: `${this.options.name} refused the OAuth client id or secret; an ADMIN should register the server again`,
        });
      }
      throw new InfraDeliveryError({
        status: 400,
        entity: 'GitSelfHostedLogin',
        reason: 'CODE_REJECTED',
        message: `${this.options.name} refused the login code; start the login again`,
        metadata: { error: answer.error },
      });
    }
    return {
      accessToken: answer.access_token,
      scopes: (answer.scope ?? '').split(/[\s,]+/).filter(Boolean),
      ...(answer.expires_in
        ? { expiresAt: new Date(Date.now() + answer.expires_in * 1000) }
        : {}),
    };
  }

  /**
   * One page of a namespace's repositories. Repositories whose collaborators the token may not
   * see come back without `collaborators` rather than failing the page.
   */
  async repositoryPage(
    request: {
      token: string;
      namespace: string;
      namespaceType: GitForgeNamespaceType;
      first: number;
      after?: string;
    },
    signal?: AbortSignal,
  ): Promise<RepositoryPage> {
    const response = await requestUpstream({
      upstreamName: this.options.name,
      url: `${this.options.baseUrl}/api/graphql`,
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `bearer ${request.token}`,
      },
      body: JSON.stringify({
        query: repositoriesQuery(request.namespaceType),
        variables: {
          login: request.namespace,
          first: request.first,
          after: request.after ?? null,
        },
      }),
      signal,
    });
    if (response.status === 401) {
      throw new ForgeTokenRejectedError();
    }
    this.throwIfRateLimited(response);
    const parsed = repositoriesResponseSchema.safeParse(response.json);
    if (response.status !== 200 || !parsed.success) {
      throw this.unexpectedAnswer(response);
    }
    const { data, errors = [] } = parsed.data;
    const blocking = errors.filter(error => !isCollaboratorsError(error));
    if (blocking.some(error => error.type === 'RATE_LIMITED')) {
      throw this.rateLimited(undefined);
    }
    if (!data?.namespace) {
      if (blocking.length === 0 || blocking.some(e => e.type === 'NOT_FOUND')) {
        throw new InfraDeliveryError({
          status: 404,
          entity: 'GitForgeNamespace',
          reason: 'NOT_FOUND',
          message: `${
            this.options.name
          } has no ${request.namespaceType.toLowerCase()} ${
            request.namespace
          } that the login can see`,
          metadata: {
            namespaceId: request.namespace,
            namespaceType: request.namespaceType,
          },
        });
      }
      throw this.unexpectedAnswer(response, blocking);
    }
    if (blocking.length > 0) {
      throw this.unexpectedAnswer(response, blocking);
    }
    const { repositories } = data.namespace;
    return {
      repositories: repositories.nodes
        .filter(node => node !== null)
        .map(node => toRepository(node, request.namespace)),
      pageInfo: repositories.pageInfo,
      totalCount: repositories.totalCount,
    };
  }

  /** GitHub answers an exhausted rate limit with 403 or 429. */
  private throwIfRateLimited(response: UpstreamResponse) {
    const exhausted =
      response.status === 429 ||
      (response.status === 403 &&
        response.headers.get('x-ratelimit-remaining') === '0');
    if (!exhausted) {
      return;
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    const resetAt = Number(response.headers.get('x-ratelimit-reset'));
    let seconds: number | undefined;
    if (retryAfter > 0) {
      seconds = retryAfter;
    } else if (resetAt > 0) {
      seconds = Math.max(1, Math.ceil(resetAt - Date.now() / 1000));
    }
    throw this.rateLimited(seconds);
  }

  private rateLimited(retryAfterSeconds: number | undefined) {
    return new InfraDeliveryError({
      status: 503,
      entity: 'GitSelfHostedServer',
      reason: 'RATE_LIMITED',
      message: `${this.options.name} limits the requests of this login for now; retry later`,
      ...(retryAfterSeconds
        ? { headers: { 'Retry-After': String(retryAfterSeconds) } }
        : {}),
    });
  }

  private unexpectedAnswer(
    response: UpstreamResponse,
    errors: z.infer<typeof graphQlErrorSchema>[] = [],
  ) {
    return new InfraDeliveryError({
      status: 502,
      entity: 'GitSelfHostedServer',
      reason: 'UPSTREAM_ERROR',
      message: `${this.options.name} answered with an error (HTTP ${response.status})`,
      metadata: { status: response.status },
      ...(errors.length > 0
        ? {
            details: [
              {
                title: 'Errors of the server',
                render: 'list' as const,
                items: errors.slice(0, 10).map(error => error.message),
              },
            ],
          }
        : {}),
    });
  }
}
