import { createPrivateKey, KeyObject } from 'node:crypto';
import { UrlReaderService } from '@backstage/backend-plugin-api';
import { Config } from '@backstage/config';
import { isError } from '@backstage/errors';
import {
  GithubAppConfig,
  GithubIntegration,
  ScmIntegrations,
} from '@backstage/integration';
import { CodeSourceVisibility } from '@infra-delivery/plugin-infra-delivery-common';
import { SignJWT } from 'jose';
import { InfraDeliveryError } from '../../errors';

/**
 * Repositories reached through GitHub App installations, for GitHub and GitHub Enterprise
 * Server alike: the App comes from Backstage's `integrations.github` entry for the
 * repository's host, the installation from the code source. Each use exchanges a fresh App JWT
 * for an installation token, so a revoked installation is noticed at once; files are read
 * through Backstage's URL reader with that token, so the installation (not whichever
 * credentials the reader would pick) decides what may be read.
 *
 * Redirects are never followed: a renamed or transferred repository answers 301, which is
 * reported rather than chased to wherever it points.
 */

const REQUEST_TIMEOUT_MS = 15_000;
/** module.yaml is a short file; anything larger is refused rather than parsed. */
const MAX_FILE_BYTES = 1024 * 1024;
/** GitHub lists at most 3,000 files of a pull request, 100 a page. */
const PULL_REQUEST_FILE_PAGES = 30;
/** GitHub refuses App JWTs that live longer than 10 minutes or are issued in its future. */
const JWT_BACKDATE_SECONDS = 60;
const JWT_LIFETIME_SECONDS = 9 * 60;

/** A repository on a forge, as a code source names it. */
export interface RepositoryLocation {
  host: string;
  owner: string;
  name: string;
  /** `https://{host}/{owner}/{name}`, the form Backstage's URL reader understands. */
  url: string;
}

export interface GithubRepository {
  id: string;
  fullName: string;
  defaultBranch: string;
  visibility: CodeSourceVisibility;
}

/**
 * The installation does not reach the repository (any more): the installation is gone,
 * suspended or refused, or the repository is missing or out of its reach.
 */
export class ForgeAccessError extends InfraDeliveryError {}

function accessError(
  entity: string,
  reason: string,
  message: string,
  metadata: Record<string, unknown>,
): ForgeAccessError {
  return new ForgeAccessError({
    status: 422,
    entity,
    reason,
    message,
    metadata,
  });
}

function forgeUnavailable(
  message: string,
  headers?: Record<string, string>,
): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 503,
    entity: 'Forge',
    reason: 'UNAVAILABLE',
    message,
    ...(headers ? { headers } : {}),
  });
}

/** `https://{host}/{owner}/{name}` (optionally `.git` or a trailing slash) → its parts. */
export function parseRepositoryUrl(repoUrl: string): RepositoryLocation {
  const invalid = () =>
    new InfraDeliveryError({
      status: 400,
      entity: 'CodeSource',
      reason: 'INVALID_REPO_URL',
      message: `${repoUrl} is not the address of a repository; expected https://{host}/{owner}/{name}`,
      metadata: { repoUrl },
    });
  let url: URL;
  try {
    url = new URL(repoUrl);
  } catch {
    throw invalid();
  }
  const match = url.pathname.match(
    /^\/([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?\/?$/,
  );
  if (
    !match ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    match[2] === '.' ||
    match[2] === '..'
  ) {
    throw invalid();
  }
  const [, owner, name] = match;
  return {
    host: url.host,
    owner,
    name,
    url: `${url.protocol}//${url.host}/${owner}/${name}`,
  };
}

function visibilityOf(repository: {
  visibility?: unknown;
  private?: unknown;
}): CodeSourceVisibility {
  switch (repository.visibility) {
    case 'public':
      return 'PUBLIC';
    case 'internal':
      return 'INTERNAL';
    case 'private':
      return 'PRIVATE';
    default:
      return repository.private === false ? 'PUBLIC' : 'PRIVATE';
  }
}

/** `a/b c` → `a/b%20c`: each segment encoded, the slashes kept. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

interface ForgeResponse {
  status: number;
  headers: Headers;
  json: any;
}

/** One App of an integration, with its parsed private key. */
interface InstallationApp {
  config: GithubAppConfig;
  key: KeyObject;
}

/** An installation token and, when GitHub said, when it stops working (about an hour). */
export interface InstallationToken {
  token: string;
  expiresAt?: string;
}

/** What an installation token may be narrowed to (repository names, without the owner). */
interface TokenScope {
  repositories: string[];
  permissions: Record<string, 'read' | 'write'>;
}

/** What the token exchange answered for one App, worst last. */
type ExchangeFailure = 'not-found' | 'unauthorized' | 'suspended';
const FAILURE_RANK: Record<ExchangeFailure, number> = {
  'not-found': 0,
  unauthorized: 1,
  suspended: 2,
};

/** The JWT a GitHub App authenticates as itself with (RS256, issuer = App id). */
export async function appJwt(app: {
  config: { appId: number };
  key: KeyObject;
}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(String(app.config.appId))
    .setIssuedAt(now - JWT_BACKDATE_SECONDS)
    .setExpirationTime(now + JWT_LIFETIME_SECONDS)
    .sign(app.key);
}

/** Calls of the GitHub REST API with one bearer credential. */
class InstallationApi {
  constructor(
    private readonly apiBaseUrl: string,
    private readonly credential: string,
    private readonly host: string,
  ) {}

  get(path: string): Promise<ForgeResponse> {
    return this.request('GET', path);
  }

  post(path: string, body?: unknown): Promise<ForgeResponse> {
    return this.request('POST', path, body);
  }

  patch(path: string, body: unknown): Promise<ForgeResponse> {
    return this.request('PATCH', path, body);
  }

  private async request(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
  ): Promise<ForgeResponse> {
    let response: Response;
    try {
      response = await fetch(`${this.apiBaseUrl}${path}`, {
        method,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${this.credential}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'backstage-infra-delivery',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw forgeUnavailable(
        `${this.host} could not be reached: ${
          isError(error) ? error.message : 'request failed'
        }`,
      );
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json };
  }

  isRateLimited(response: ForgeResponse): boolean {
    return (
      response.status === 429 ||
      (response.status === 403 &&
        response.headers.get('x-ratelimit-remaining') === '0')
    );
  }

  /** Anything but a 2xx here is the forge failing, not the caller's mistake. */
  expectOk(response: ForgeResponse): void {
    if (response.status >= 200 && response.status < 300) {
      return;
    }
    if (this.isRateLimited(response)) {
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      const retryAfter = Number.isFinite(reset)
        ? Math.max(1, reset - Math.floor(Date.now() / 1000))
        : 60;
      throw forgeUnavailable(`${this.host} rate-limits the GitHub App`, {
        'Retry-After': String(retryAfter),
      });
    }
    throw forgeUnavailable(
      `${this.host} answered ${response.status} unexpectedly`,
    );
  }
}

/** A repository the installation reaches, with the token that reached it. */
export class InstallationRepository {
  constructor(
    readonly location: RepositoryLocation,
    readonly repository: GithubRepository,
    private readonly api: InstallationApi,
    private readonly token: string,
    private readonly urlReader: UrlReaderService,
  ) {}

  private repoPath(): string {
    return `/repos/${encodeURIComponent(
      this.location.owner,
    )}/${encodeURIComponent(this.location.name)}`;
  }

  /** The commit a branch points to, or `undefined` when there is no such branch. */
  async branchCommit(branch: string): Promise<string | undefined> {
    const response = await this.api.get(
      `${this.repoPath()}/branches/${encodePath(branch)}`,
    );
    if (response.status === 404 || response.status === 301) {
      return undefined;
    }
    this.api.expectOk(response);
    return String(response.json.commit.sha);
  }

  /** The commit a branch, tag or commit id resolves to, or `undefined` when none does. */
  async resolveCommit(ref: string): Promise<string | undefined> {
    const response = await this.api.get(
      `${this.repoPath()}/commits/${encodePath(ref)}`,
    );
    // GitHub answers 422 ("No commit found for SHA") for a ref that names nothing.
    if (response.status === 404 || response.status === 422) {
      return undefined;
    }
    this.api.expectOk(response);
    return String(response.json.sha);
  }

  /** A commit's message, author and page; `undefined` when there is no such commit. */
  async commit(
    sha: string,
  ): Promise<
    { sha: string; message?: string; author?: string; url?: string } | undefined
  > {
    const response = await this.api.get(
      `${this.repoPath()}/commits/${encodeURIComponent(sha)}`,
    );
    if (response.status === 404 || response.status === 422) {
      return undefined;
    }
    this.api.expectOk(response);
    const json = response.json ?? {};
    return {
      sha: String(json.sha ?? sha),
      message:
        typeof json.commit?.message === 'string'
          ? json.commit.message
          : undefined,
      author:
        json.author?.login ??
        (typeof json.commit?.author?.name === 'string'
          ? json.commit.author.name
          : undefined),
      url: typeof json.html_url === 'string' ? json.html_url : undefined,
    };
  }

  /**
   * The paths a pull request changes (both names of a renamed file). GitHub lists at most
   * 3,000 files; a larger pull request is reported as `truncated` so a caller can decide.
   */
  async pullRequestFiles(
    number: number,
  ): Promise<{ paths: string[]; truncated: boolean }> {
    const paths: string[] = [];
    for (let page = 1; page <= PULL_REQUEST_FILE_PAGES; page++) {
      const response = await this.api.get(
        `${this.repoPath()}/pulls/${number}/files?per_page=100&page=${page}`,
      );
      this.api.expectOk(response);
      const files = Array.isArray(response.json) ? response.json : [];
      for (const file of files) {
        paths.push(String(file.filename));
        if (file.previous_filename) {
          paths.push(String(file.previous_filename));
        }
      }
      if (files.length < 100) {
        return { paths, truncated: false };
      }
    }
    return { paths, truncated: true };
  }

  /** Creates a check run on a commit; returns GitHub's id of it. */
  async createCheckRun(body: Record<string, unknown>): Promise<string> {
    const response = await this.api.post(`${this.repoPath()}/check-runs`, body);
    this.api.expectOk(response);
    return String(response.json.id);
  }

  async updateCheckRun(
    checkRunId: string,
    body: Record<string, unknown>,
  ): Promise<void> {
    const response = await this.api.patch(
      `${this.repoPath()}/check-runs/${encodeURIComponent(checkRunId)}`,
      body,
    );
    this.api.expectOk(response);
  }

  /** Comments on a pull request (an issue, to the API); returns GitHub's id of the comment. */
  async createIssueComment(number: number, body: string): Promise<string> {
    const response = await this.api.post(
      `${this.repoPath()}/issues/${number}/comments`,
      { body },
    );
    this.api.expectOk(response);
    return String(response.json.id);
  }

  async updateIssueComment(commentId: string, body: string): Promise<void> {
    const response = await this.api.patch(
      `${this.repoPath()}/issues/comments/${encodeURIComponent(commentId)}`,
      { body },
    );
    this.api.expectOk(response);
  }

  /**
   * A file at a commit, read through Backstage's URL reader with the installation's token;
   * `undefined` when there is no such file.
   */
  async readFile(commitSha: string, path: string): Promise<string | undefined> {
    const url = `${this.location.url}/blob/${commitSha}/${encodePath(path)}`;
    let buffer: Buffer;
    try {
      const response = await this.urlReader.readUrl(url, {
        token: this.token,
      });
      buffer = await response.buffer();
    } catch (error) {
      if (isError(error) && error.name === 'NotFoundError') {
        return undefined;
      }
      throw forgeUnavailable(
        `Reading ${path} of ${this.location.url} failed: ${
          isError(error) ? error.message : 'unknown error'
        }`,
      );
    }
    if (buffer.byteLength > MAX_FILE_BYTES) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'CodeSource',
        reason: 'FILE_TOO_LARGE',
        message: `${path} is larger than ${MAX_FILE_BYTES} bytes`,
        metadata: { path },
      });
    }
    return buffer.toString('utf8');
  }
}

/** One attempt of an App's webhook delivery, as GitHub lists it (`GET /app/hook/deliveries`). */
export interface AppHookDelivery {
  /** This attempt's id: what a redelivery is asked for. */
  id: string;
  /** The delivery's id (`X-GitHub-Delivery`), the same for each of its attempts. */
  guid: string;
  event: string;
  deliveredAt: string;
  /** What the endpoint answered; 0 when it did not answer (timeout, no connection). */
  statusCode: number;
  /** Whether this attempt is a redelivery (false for the delivery's first attempt). */
  redelivery: boolean;
}

/** An App whose webhook deliveries come to this service (it has a webhook secret). */
export interface WebhookApp {
  host: string;
  appId: string;
}

/** The `cursor` of the `rel="next"` link of a GitHub list, if there is a next page. */
function nextCursor(link: string | null): string | undefined {
  const next = link
    ?.split(',')
    .find(part => /rel="next"/.test(part))
    ?.match(/<([^>]+)>/)?.[1];
  return next
    ? new URL(next).searchParams.get('cursor') ?? undefined
    : undefined;
}

export class GithubAppInstallations {
  private readonly keys = new Map<string, KeyObject>();

  static fromConfig(
    config: Config,
    urlReader: UrlReaderService,
  ): GithubAppInstallations {
    return new GithubAppInstallations(
      ScmIntegrations.fromConfig(config),
      urlReader,
    );
  }

  constructor(
    private readonly integrations: ScmIntegrations,
    private readonly urlReader: UrlReaderService,
  ) {}

  /**
   * Opens the repository through the installation: finds the integration of its host,
   * exchanges the App's JWT for an installation token and checks the repository is reached.
   */
  async open(
    repoUrl: string,
    installationId: string,
  ): Promise<InstallationRepository> {
    const location = parseRepositoryUrl(repoUrl);
    const integration = this.integrationFor(location);
    const { token } = await this.installationToken(
      integration,
      location,
      installationId,
    );
    const api = new InstallationApi(
      integration.config.apiBaseUrl!,
      token,
      location.host,
    );
    const response = await api.get(
      `/repos/${encodeURIComponent(location.owner)}/${encodeURIComponent(
        location.name,
      )}`,
    );
    const metadata = {
      repoUrl: location.url,
      forgeInstallationId: installationId,
    };
    if (response.status === 301 || response.status === 307) {
      throw accessError(
        'CodeSource',
        'REPOSITORY_MOVED',
        `${location.url} was renamed or transferred; connect it under its new address`,
        metadata,
      );
    }
    if (response.status === 404 || response.status === 403) {
      throw accessError(
        'CodeSource',
        'REPOSITORY_NOT_FOUND',
        `${location.url} does not exist or installation ${installationId} cannot reach it`,
        metadata,
      );
    }
    if (response.status === 401) {
      throw accessError(
        'ForgeInstallation',
        'NOT_FOUND',
        `GitHub refused the token of installation ${installationId}; the App was uninstalled`,
        metadata,
      );
    }
    api.expectOk(response);
    const repository: GithubRepository = {
      id: String(response.json.id),
      fullName: String(response.json.full_name),
      defaultBranch: String(response.json.default_branch),
      visibility: visibilityOf(response.json),
    };
    return new InstallationRepository(
      location,
      repository,
      api,
      token,
      this.urlReader,
    );
  }

  /**
   * A token a runner fetches one commit with: an installation token narrowed by GitHub to this
   * one repository with `contents: read` (GitHub refuses to narrow beyond what the
   * installation has, so a token is never wider than asked). Nothing else is called, so a
   * claim costs one request to GitHub.
   */
  async repositoryReadToken(
    repoUrl: string,
    installationId: string,
  ): Promise<InstallationToken> {
    const location = parseRepositoryUrl(repoUrl);
    return this.installationToken(
      this.integrationFor(location),
      location,
      installationId,
      { repositories: [location.name], permissions: { contents: 'read' } },
    );
  }

  /** Every configured App with a webhook secret, on every GitHub host. */
  webhookApps(): WebhookApp[] {
    return this.integrations.github.list().flatMap(integration =>
      (integration.config.apps ?? [])
        .filter(app => app.webhookSecret && integration.config.apiBaseUrl)
        .map(app => ({
          host: integration.config.host,
          appId: String(app.appId),
        })),
    );
  }

  /**
   * One page (newest first) of the App's webhook deliveries, every attempt its own entry, and
   * the cursor of the next page.
   */
  async hookDeliveries(
    app: WebhookApp,
    cursor?: string,
  ): Promise<{ deliveries: AppHookDelivery[]; next?: string }> {
    const api = await this.appApi(app);
    const query = new URLSearchParams({ per_page: '100' });
    if (cursor) query.set('cursor', cursor);
    const response = await api.get(`/app/hook/deliveries?${query}`);
    api.expectOk(response);
    const rows: unknown[] = Array.isArray(response.json) ? response.json : [];
    const deliveries = rows.flatMap(row => {
      const entry = row as Record<string, unknown>;
      if (typeof entry.guid !== 'string' || entry.id === undefined) {
        return [];
      }
      return [
        {
          id: String(entry.id),
          guid: entry.guid,
          event: String(entry.event ?? ''),
          deliveredAt: String(entry.delivered_at ?? ''),
          statusCode: Number(entry.status_code ?? 0) || 0,
          redelivery: entry.redelivery === true,
        },
      ];
    });
    return { deliveries, next: nextCursor(response.headers.get('link')) };
  }

  /** Asks GitHub to send the delivery attempt `deliveryId` again (it answers 202). */
  async redeliver(app: WebhookApp, deliveryId: string): Promise<void> {
    const api = await this.appApi(app);
    api.expectOk(
      await api.post(
        `/app/hook/deliveries/${encodeURIComponent(deliveryId)}/attempts`,
      ),
    );
  }

  /** The REST API of the App's host, authenticated as the App itself. */
  private async appApi(app: WebhookApp): Promise<InstallationApi> {
    const integration = this.integrations.github.byHost(app.host);
    const config = integration?.config.apps?.find(
      candidate => String(candidate.appId) === app.appId,
    );
    if (!integration?.config.apiBaseUrl || !config) {
      throw forgeUnavailable(
        `GitHub App ${app.appId} on ${app.host} is not configured`,
      );
    }
    const jwt = await appJwt({ config, key: this.keyOf(config) });
    return new InstallationApi(integration.config.apiBaseUrl, jwt, app.host);
  }

  /**
   * The webhook secret of an App configured under `integrations.github` for `host`, or
   * `undefined` when there is no such App or it has no secret (then no delivery can be
   * trusted).
   */
  webhookSecretOf(host: string, appId: string): string | undefined {
    const integration = this.integrations.github.byHost(host);
    if (integration?.config.host !== host) {
      return undefined;
    }
    const app = integration.config.apps?.find(
      candidate => String(candidate.appId) === appId,
    );
    return app?.webhookSecret || undefined;
  }

  private integrationFor(location: RepositoryLocation): GithubIntegration {
    const integration = this.integrations.github.byHost(location.host);
    if (
      !integration?.config.apiBaseUrl ||
      !integration.config.apps ||
      integration.config.apps.length === 0
    ) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'ForgeIntegration',
        reason: 'NOT_CONFIGURED',
        message: `No GitHub App is configured for ${location.host} in integrations.github`,
        description:
          'Add the host with an apiBaseUrl and an App (appId, privateKey) under integrations.github in the app config.',
        metadata: { host: location.host },
      });
    }
    return integration;
  }

  /**
   * An installation token from the first App of the integration that owns the installation.
   * Apps limited to other owners (`allowedInstallationOwners`) are not asked. `scope` narrows
   * the token (GitHub's `repositories` and `permissions`); without it the token has all the
   * installation has.
   */
  private async installationToken(
    integration: GithubIntegration,
    location: RepositoryLocation,
    installationId: string,
    scope?: TokenScope,
  ): Promise<InstallationToken> {
    const apps = (integration.config.apps ?? []).filter(
      app =>
        !app.allowedInstallationOwners ||
        app.allowedInstallationOwners.some(
          owner => owner.toLowerCase() === location.owner.toLowerCase(),
        ),
    );
    if (apps.length === 0) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'ForgeIntegration',
        reason: 'NOT_CONFIGURED',
        message: `No GitHub App configured for ${location.host} may be used for ${location.owner}`,
        metadata: { host: location.host, owner: location.owner },
      });
    }
    let worst: ExchangeFailure = 'not-found';
    for (const app of apps) {
      const result = await this.exchange(
        integration,
        { config: app, key: this.keyOf(app) },
        installationId,
        scope,
      );
      if (typeof result === 'object') {
        return result;
      }
      if (FAILURE_RANK[result] > FAILURE_RANK[worst]) {
        worst = result;
      }
    }
    const metadata = {
      host: location.host,
      forgeInstallationId: installationId,
    };
    switch (worst) {
      case 'suspended':
        throw accessError(
          'ForgeInstallation',
          'SUSPENDED',
          `GitHub App installation ${installationId} on ${location.host} is suspended`,
          metadata,
        );
      case 'unauthorized':
        throw accessError(
          'ForgeInstallation',
          'UNAUTHORIZED',
          `GitHub refused the App's credentials for installation ${installationId} on ${location.host}`,
          {
            ...metadata,
          },
        );
      default:
        throw accessError(
          'ForgeInstallation',
          'NOT_FOUND',
          `GitHub App installation ${installationId} was not found on ${location.host}; it was removed or belongs to another App`,
          metadata,
        );
    }
  }

  private async exchange(
    integration: GithubIntegration,
    app: InstallationApp,
    installationId: string,
    scope?: TokenScope,
  ): Promise<InstallationToken | ExchangeFailure> {
    const jwt = await appJwt(app);
    const api = new InstallationApi(
      integration.config.apiBaseUrl!,
      jwt,
      integration.config.host,
    );
    const response = await api.post(
      `/app/installations/${encodeURIComponent(installationId)}/access_tokens`,
      scope,
    );
    if (response.status === 201 && typeof response.json?.token === 'string') {
      return {
        token: response.json.token,
        ...(typeof response.json.expires_at === 'string'
          ? { expiresAt: new Date(response.json.expires_at).toISOString() }
          : {}),
      };
    }
    if (response.status === 404) {
      return 'not-found';
    }
    // A narrowed token for a repository the installation does not reach (any more).
    if (response.status === 422 && scope) {
      throw accessError(
        'CodeSource',
        'REPOSITORY_NOT_FOUND',
        `Installation ${installationId} cannot reach ${scope.repositories.join(
          ', ',
        )} on ${integration.config.host}`,
        {
          host: integration.config.host,
          forgeInstallationId: installationId,
        },
      );
    }
    if (response.status === 401) {
      return 'unauthorized';
    }
    if (response.status === 403 && !api.isRateLimited(response)) {
      return 'suspended';
    }
    api.expectOk(response);
    throw forgeUnavailable(
      `${integration.config.host} answered the token exchange without a token`,
    );
  }

  private keyOf(app: GithubAppConfig): KeyObject {
    const cacheKey = `${app.appId}\u0000${app.privateKey}`;
    let key = this.keys.get(cacheKey);
    if (!key) {
      // Keys downloaded from GitHub are PKCS#1; node reads PKCS#1 and PKCS#8 alike, where
      // jose's importPKCS8 would refuse the former.
      key = createPrivateKey(app.privateKey.replace(/\\n/g, '\n'));
      this.keys.set(cacheKey, key);
    }
    return key;
  }
}
