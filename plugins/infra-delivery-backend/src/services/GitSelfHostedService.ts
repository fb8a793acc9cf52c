import { AuditorService } from '@backstage/backend-plugin-api';
import {
  GIT_FORGE_REPOSITORY_BATCH_SIZE,
  GitForgeNamespaceType,
  GitForgeRepositoryBatch,
  GitSelfHostedLoginResult,
  GitSelfHostedServer,
  infraDeliveryAdministerPermission,
  infraDeliveryReadPermission,
  portalPages,
  portalPageUrl,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { actorIdOf, Caller } from '../auth/Caller';
import { OAuthStateTokens, oauthStateExpiry } from '../auth/oauthStates';
import { SecretCipher, SecretUnreadableError } from '../auth/SecretCipher';
import { isUniqueViolation } from '../database/dbErrors';
import { StoredOAuthApp } from '../database/GitSelfHostedServerStore';
import { newId } from '../database/ids';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { EventStream } from '../http/eventStream';
import {
  ForgeTokenRejectedError,
  GitHubEnterpriseServer,
  normalizeServerBaseUrl,
  RepositoryPage,
} from '../providers/github/GitHubEnterpriseServer';
import { audit } from './audit';

/** What logging in to and reading from self-hosted servers needs besides the stores. */
export interface GitSelfHostedSetup {
  oauthStates: OAuthStateTokens;
  /**
   * The frontend plugin's Infrastructure page. The login completes on a portal page there,
   * with the member's own credential, so a login cannot be finished in someone else's name.
   */
  portalUrl: string;
  /** Accept `http://` for loopback servers (development and tests only). */
  allowLoopbackHttp: boolean;
}

export async function createGitSelfHostedSetup(options: {
  stores: Stores;
  allowLoopbackHttp: boolean;
  portalUrl: string;
}): Promise<GitSelfHostedSetup> {
  return {
    oauthStates: new OAuthStateTokens(
      await options.stores.serviceSecrets.getOrCreate(
        'gitforge-oauth-state-signing-key',
      ),
    ),
    portalUrl: options.portalUrl,
    allowLoopbackHttp: options.allowLoopbackHttp,
  };
}

/** Where sealed values belong; a value sealed for one place does not open in another. */
function clientSecretContext(serverId: string): string {
  return `git_self_hosted_servers/${serverId}/client_secret`;
}
function accessTokenContext(serverId: string, membershipId: string): string {
  return `git_self_hosted_logins/${serverId}/${membershipId}/access_token`;
}

/** The caller reading from a server with their login. */
interface ForgeSession {
  organizationId: string;
  membershipId: string;
  app: StoredOAuthApp;
  server: GitHubEnterpriseServer;
  token: string;
}

export interface RepositoryListingRequest {
  serverId: string;
  namespaceId: string;
  namespaceType: GitForgeNamespaceType;
  after?: string;
}

/**
 * Self-hosted git-forge servers (GitHub Enterprise Server): ADMINs register them with an OAuth
 * app; each member logs in once (#27) and the service then reads repositories with that
 * member's own token, so nobody sees more through the portal than the server shows them.
 * Client secrets and tokens are sealed at rest and never leave the service.
 */
export class GitSelfHostedService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
      secrets: SecretCipher;
      gitSelfHosted: GitSelfHostedSetup;
    },
  ) {}

  /** The OAuth app's callback: a portal page that completes the login with the member's credential. */
  private get callbackUrl(): string {
    return portalPageUrl(
      this.deps.gitSelfHosted.portalUrl,
      portalPages.gitForgeLoginCallback,
    );
  }

  private async requireRead(caller: Caller) {
    await this.deps.authorizer.require(caller, {
      role: 'VIEWER',
      permission: infraDeliveryReadPermission,
    });
  }

  private async requireAdminister(caller: Caller) {
    await this.deps.authorizer.require(caller, {
      role: 'ADMIN',
      permission: infraDeliveryAdministerPermission,
    });
  }

  /** Logins belong to members; service accounts and other plugins have none. */
  private membershipOf(caller: Caller): string {
    if (caller.principal.type !== 'membership') {
      throw new InfraDeliveryError({
        status: 403,
        entity: 'GitSelfHostedLogin',
        reason: 'MEMBERSHIP_REQUIRED',
        message:
          'Logins to self-hosted servers belong to members; a service account or plugin cannot log in',
      });
    }
    return caller.principal.membershipId;
  }

  private ownMembershipId(caller: Caller): string | undefined {
    return caller.principal.type === 'membership'
      ? caller.principal.membershipId
      : undefined;
  }

  async create(
    caller: Caller,
    input: {
      name: string;
      baseUrl: string;
      clientId: string;
      clientSecret: string;
    },
  ): Promise<GitSelfHostedServer> {
    await this.requireAdminister(caller);
    const baseUrl = normalizeServerBaseUrl(input.baseUrl, {
      allowLoopbackHttp: this.deps.gitSelfHosted.allowLoopbackHttp,
    });
    const id = newId();
    const { stores } = this.deps;
    await audit(
      this.deps.auditor,
      'git-self-hosted-server-create',
      caller,
      { gitSelfHostedServerId: id, baseUrl },
      async () => {
        try {
          await stores.gitSelfHostedServers.create({
            id,
            organizationId: caller.organizationId,
            name: input.name,
            baseUrl,
            clientId: input.clientId,
            clientSecretSealed: this.deps.secrets.seal(
              input.clientSecret,
              clientSecretContext(id),
            ),
            createdById: actorIdOf(caller),
          });
        } catch (error) {
          if (isUniqueViolation(error)) {
            throw new InfraDeliveryError({
              status: 409,
              entity: 'GitSelfHostedServer',
              reason: 'NAME_TAKEN',
              message: `A self-hosted server named ${input.name} exists already`,
              metadata: { name: input.name },
            });
          }
          throw error;
        }
      },
    );
    return (await stores.gitSelfHostedServers.get(caller.organizationId, id))!;
  }

  async list(
    caller: Caller,
    page: KeysetRequest,
  ): Promise<KeysetPage<GitSelfHostedServer>> {
    await this.requireRead(caller);
    return this.deps.stores.gitSelfHostedServers.list(
      caller.organizationId,
      this.ownMembershipId(caller),
      page,
    );
  }

  async get(caller: Caller, id: string): Promise<GitSelfHostedServer> {
    await this.requireRead(caller);
    const server = await this.deps.stores.gitSelfHostedServers.get(
      caller.organizationId,
      id,
      this.ownMembershipId(caller),
    );
    if (!server) {
      throw notFound('GitSelfHostedServer', id);
    }
    return server;
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.requireAdminister(caller);
    await audit(
      this.deps.auditor,
      'git-self-hosted-server-delete',
      caller,
      { gitSelfHostedServerId: id },
      async () => {
        if (
          !(await this.deps.stores.gitSelfHostedServers.delete(
            caller.organizationId,
            id,
          ))
        ) {
          throw notFound('GitSelfHostedServer', id);
        }
      },
    );
  }

  private async oauthApp(
    organizationId: string,
    serverId: string,
  ): Promise<StoredOAuthApp> {
    const app = await this.deps.stores.gitSelfHostedServers.getOAuthApp(
      organizationId,
      serverId,
    );
    if (!app) {
      throw notFound('GitSelfHostedServer', serverId);
    }
    return app;
  }

  /**
   * #27: where the caller's browser goes to log in to the server, and until when that link
   * works.
   */
  async startLogin(
    caller: Caller,
    serverId: string,
  ): Promise<{ authorizeUrl: string; expiresAt: string }> {
    await this.requireRead(caller);
    const membershipId = this.membershipOf(caller);
    const app = await this.oauthApp(caller.organizationId, serverId);
    const issuedAt = new Date();
    const state = await this.deps.gitSelfHosted.oauthStates.issue(
      { organizationId: caller.organizationId, membershipId, serverId },
      issuedAt,
    );
    return {
      authorizeUrl: new GitHubEnterpriseServer(app).authorizeUrl({
        clientId: app.clientId,
        redirectUri: this.callbackUrl,
        state,
      }),
      expiresAt: oauthStateExpiry(issuedAt).toISOString(),
    };
  }

  /**
   * The OAuth callback, called by the portal page the server sends the browser back to, with
   * the signed-in member's credential. The signed state names who started the login; anyone
   * else presenting it is refused (a member cannot have a colleague's forge account stored as
   * their own login). The state is spent before anything else happens, so it works once even
   * when the login then fails.
   */
  async completeLogin(
    caller: Caller,
    query: {
      state: string;
      code?: string;
      error?: string;
      error_description?: string;
    },
  ): Promise<GitSelfHostedLoginResult> {
    const { stores, secrets } = this.deps;
    const membershipId = this.membershipOf(caller);
    const claims = await this.deps.gitSelfHosted.oauthStates.verify(
      query.state,
    );
    if (
      claims.organizationId !== caller.organizationId ||
      claims.membershipId !== membershipId
    ) {
      throw new InfraDeliveryError({
        status: 403,
        entity: 'GitSelfHostedLogin',
        reason: 'STARTED_BY_SOMEONE_ELSE',
        message: 'This login was started by someone else',
        description:
          'A login completes only for the person who started it. Start your own login from the portal.',
      });
    }
    if (
      !(await stores.gitSelfHostedServers.useOAuthState(
        claims.stateId,
        claims.expiresAt,
      ))
    ) {
      throw new InfraDeliveryError({
        status: 400,
        entity: 'GitSelfHostedLogin',
        reason: 'STATE_USED',
        message: 'This login link was used already',
        description: 'Start the login again from the portal.',
      });
    }
    if (query.error) {
      throw new InfraDeliveryError({
        status: query.error === 'access_denied' ? 403 : 400,
        entity: 'GitSelfHostedLogin',
        reason: query.error === 'access_denied' ? 'ACCESS_DENIED' : 'FAILED',
        message:
          query.error === 'access_denied'
            ? 'The login was declined on the server'
            : 'The server did not complete the login',
        metadata: {
          error: query.error,
          ...(query.error_description
            ? { errorDescription: query.error_description }
            : {}),
        },
      });
    }
    if (!query.code) {
      throw new InfraDeliveryError({
        status: 400,
        entity: 'GitSelfHostedLogin',
        reason: 'CODE_MISSING',
        message: 'The server sent back neither a code nor an error',
      });
    }
    const { organizationId, serverId } = claims;
    const app = await this.oauthApp(organizationId, serverId);
    const login = await new GitHubEnterpriseServer(app).exchangeCode({
      clientId: app.clientId,
      clientSecret: this.openClientSecret(app),
      code: query.code,
      redirectUri: this.callbackUrl,
    });
    await audit(
      this.deps.auditor,
      'git-self-hosted-login',
      undefined,
      {
        organizationId,
        actor: { type: 'membership', membershipId },
        gitSelfHostedServerId: serverId,
        scopes: login.scopes,
      },
      () =>
        stores.gitSelfHostedServers.saveLogin({
          organizationId,
          serverId,
          membershipId,
          accessTokenSealed: secrets.seal(
            login.accessToken,
            accessTokenContext(serverId, membershipId),
          ),
          scopes: login.scopes,
          expiresAt: login.expiresAt,
        }),
    );
    return {
      gitSelfHostedServerId: serverId,
      loggedIn: true,
      scopes: login.scopes,
    };
  }

  private openClientSecret(app: StoredOAuthApp): string {
    try {
      return this.deps.secrets.open(
        app.clientSecretSealed,
        clientSecretContext(app.id),
      );
    } catch (error) {
      if (error instanceof SecretUnreadableError) {
        throw new InfraDeliveryError({
          status: 500,
          entity: 'GitSelfHostedServer',
          reason: 'SECRET_UNREADABLE',
          message: `The client secret of ${app.name} cannot be decrypted with the configured secrets key; an ADMIN should register the server again`,
        });
      }
      throw error;
    }
  }

  private loginRequired(app: StoredOAuthApp): InfraDeliveryError {
    return new InfraDeliveryError({
      status: 403,
      entity: 'GitSelfHostedLogin',
      reason: 'REQUIRED',
      message: `Log in to ${app.name} first`,
      description:
        'Repositories are read with your own login to the server. Log in, approve the access, and try again.',
      action: {
        label: `Log in to ${app.name}`,
        url: portalPageUrl(
          this.deps.gitSelfHosted.portalUrl,
          portalPages.gitForgeLogin(app.id),
        ),
      },
      metadata: { gitSelfHostedServerId: app.id },
    });
  }

  /** The caller's login to the server, checked before any upstream request. */
  private async openSession(
    caller: Caller,
    serverId: string,
  ): Promise<ForgeSession> {
    await this.requireRead(caller);
    const membershipId = this.membershipOf(caller);
    const { organizationId } = caller;
    const app = await this.oauthApp(organizationId, serverId);
    const login = await this.deps.stores.gitSelfHostedServers.getLogin(
      organizationId,
      serverId,
      membershipId,
    );
    if (!login) {
      throw this.loginRequired(app);
    }
    let token: string;
    try {
      token = this.deps.secrets.open(
        login.accessTokenSealed,
        accessTokenContext(serverId, membershipId),
      );
    } catch (error) {
      if (error instanceof SecretUnreadableError) {
        // Sealed under an earlier key: the login has to be made again.
        throw this.loginRequired(app);
      }
      throw error;
    }
    return {
      organizationId,
      membershipId,
      app,
      server: new GitHubEnterpriseServer(app),
      token,
    };
  }

  /** A page from the server; a token the server refuses is forgotten. */
  private async fetchPage(
    session: ForgeSession,
    request: RepositoryListingRequest & { first: number },
    signal?: AbortSignal,
  ): Promise<RepositoryPage> {
    try {
      return await session.server.repositoryPage(
        {
          token: session.token,
          namespace: request.namespaceId,
          namespaceType: request.namespaceType,
          first: request.first,
          after: request.after,
        },
        signal,
      );
    } catch (error) {
      if (error instanceof ForgeTokenRejectedError) {
        await this.deps.stores.gitSelfHostedServers.deleteLogin(
          session.organizationId,
          session.app.id,
          session.membershipId,
        );
        throw this.loginRequired(session.app);
      }
      throw error;
    }
  }

  /**
   * Ends a stream whose login was deleted since it opened — the member was removed, logged out,
   * or the server was deleted: the token it holds is used and its repositories sent no more.
   */
  private async requireLoginKept(session: ForgeSession): Promise<void> {
    const login = await this.deps.stores.gitSelfHostedServers.getLogin(
      session.organizationId,
      session.app.id,
      session.membershipId,
    );
    if (!login) {
      throw this.loginRequired(session.app);
    }
  }

  /** #11: one page of a namespace's repositories. */
  async listRepositories(
    caller: Caller,
    request: RepositoryListingRequest & { first: number },
  ): Promise<RepositoryPage> {
    const session = await this.openSession(caller, request.serverId);
    return this.fetchPage(session, request);
  }

  /**
   * #12: the repositories in batches of 20, one server page per batch, each sent before the
   * next is asked for. Every check happens before the stream is returned, so a refusal is
   * still an ordinary error response.
   */
  async streamRepositories(
    caller: Caller,
    request: RepositoryListingRequest,
  ): Promise<EventStream<GitForgeRepositoryBatch>> {
    const session = await this.openSession(caller, request.serverId);
    return signal => this.repositoryBatches(session, request, signal);
  }

  private async *repositoryBatches(
    session: ForgeSession,
    request: RepositoryListingRequest,
    signal: AbortSignal,
  ): AsyncGenerator<GitForgeRepositoryBatch> {
    let after = request.after;
    let totalReceived = 0;
    for (let batch = 0; ; batch++) {
      if (batch > 0) {
        await this.requireLoginKept(session);
      }
      const page = await this.fetchPage(
        session,
        { ...request, after, first: GIT_FORGE_REPOSITORY_BATCH_SIZE },
        signal,
      );
      await this.requireLoginKept(session);
      const { endCursor, hasNextPage } = page.pageInfo;
      const isFinal = !hasNextPage || endCursor === null;
      // A page that ends where it started is the previous one again: said before it is sent,
      // not after the client has received its repositories twice.
      if (!isFinal && after !== undefined && endCursor === after) {
        throw new InfraDeliveryError({
          status: 502,
          entity: 'GitSelfHostedServer',
          reason: 'UPSTREAM_ERROR',
          message: `${session.app.name} answered the same page twice`,
        });
      }
      totalReceived += page.repositories.length;
      yield {
        isFinal,
        pageInfo: page.pageInfo,
        repositories: page.repositories,
        totalReceived,
      };
      if (isFinal) {
        return;
      }
      after = endCursor;
    }
  }
}
