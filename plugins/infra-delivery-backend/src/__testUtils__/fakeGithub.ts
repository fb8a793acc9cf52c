import {
  createHmac,
  generateKeyPairSync,
  KeyObject,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import {
  createServer,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import { AddressInfo } from 'node:net';
import { JsonObject } from '@backstage/types';
import { JWTPayload, jwtVerify } from 'jose';

/** The GitHub host the fake stands for; repository URLs use it, the API is on loopback. */
export const FAKE_GITHUB_HOST = 'ghe.example.test';

export interface FakeRepositorySpec {
  owner: string;
  name: string;
  id: number;
  defaultBranch?: string;
  visibility?: 'public' | 'private' | 'internal';
  /** branch → commit sha */
  branches?: Record<string, string>;
  /** tag → commit sha */
  tags?: Record<string, string>;
  /** commit sha → path → content */
  commits?: Record<string, Record<string, string>>;
  /** commit sha → what `GET /commits/{sha}` tells of it besides its files */
  commitDetails?: Record<string, { message: string; author: string }>;
  /** pull request number → the paths it changes */
  pullRequestFiles?: Record<number, string[]>;
}

/** A check run as the service created and updated it. */
export interface FakeCheckRun {
  id: number;
  repository: string;
  /** Every body the service sent, in order (the create first). */
  updates: Record<string, any>[];
  /** The fields as they are now. */
  current: Record<string, any>;
}

/** A pull request comment as the service wrote it. */
export interface FakeIssueComment {
  id: number;
  repository: string;
  issueNumber: number;
  bodies: string[];
}

interface FakeInstallation {
  /** Full names the installation reaches, or every repository. */
  repositories: Set<string> | 'all';
  state: 'active' | 'suspended' | 'removed';
}

/** An installation token the fake issued, with what the exchange narrowed it to. */
export interface FakeInstallationToken {
  token: string;
  installationId: string;
  /** Repository names (without the owner) the token is limited to, when the exchange asked. */
  repositories?: string[];
  /** The permissions the exchange asked for; absent: all the installation has. */
  permissions?: Record<string, string>;
}

/** What the fake saw, for assertions about how the service talked to it. */
/** One attempt of a webhook delivery, as GitHub keeps it for the App. */
export interface FakeHookAttempt {
  id: number;
  guid: string;
  event: string;
  deliveredAt: string;
  redelivery: boolean;
  /** What the service answered; 0 when it did not answer. */
  statusCode: number;
  delivery: { body: string; headers: Record<string, string> };
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  /** `jwt` for App JWTs, `installation:<id>` for installation tokens, `none` or `invalid`. */
  credential: string;
  accept?: string;
}

/** A token narrowed to some repositories reaches only those. */
function grantReaches(
  grant: FakeInstallationToken | undefined,
  repository: FakeRepositorySpec,
): boolean {
  return (
    !grant?.repositories ||
    grant.repositories.some(
      name => name.toLowerCase() === repository.name.toLowerCase(),
    )
  );
}

export function commitSha(label: string): string {
  return Buffer.from(label).toString('hex').padEnd(40, '0').slice(0, 40);
}

/**
 * A local HTTP server that answers like the GitHub REST API for what the service and
 * Backstage's GitHub URL reader call: the App's installation token exchange (checking the
 * RS256 JWT against the App's public key), repositories, branches, commits and file contents
 * (raw when asked for `application/vnd.github.v3.raw`, as the URL reader asks).
 */
export class FakeGithub {
  readonly appId = 4242;
  /** The App's webhook secret: deliveries are signed with it. */
  readonly webhookSecret = `whsec-${randomBytes(12).toString('hex')}`;
  readonly checkRuns: FakeCheckRun[] = [];
  readonly issueComments: FakeIssueComment[] = [];
  /** Fail the writes (check runs, comments) with this status, when set: GitHub having an outage. */
  writeOutage?: number;
  readonly privateKeyPem: string;
  readonly requests: RecordedRequest[] = [];
  readonly jwtClaims: JWTPayload[] = [];
  /** Answer every request with this status and headers (an outage, a rate limit), when set. */
  outage?: { status: number; headers?: Record<string, string> };

  private readonly publicKey: KeyObject;
  private readonly repositories = new Map<string, FakeRepositorySpec>();
  private readonly moved = new Map<string, number>();
  private readonly installations = new Map<string, FakeInstallation>();
  private readonly tokens = new Map<string, FakeInstallationToken>();
  /** Every installation token issued, in order. */
  readonly issuedTokens: FakeInstallationToken[] = [];
  private server?: Server;
  private port = 0;
  /** The App's webhook delivery attempts, oldest first (GitHub lists them newest first). */
  readonly hookAttempts: FakeHookAttempt[] = [];
  /**
   * Sends a delivery to the service and says what it answered (0: no answer): what a
   * redelivery (`POST /app/hook/deliveries/{id}/attempts`) does. Set by the test.
   */
  deliverTo?: (delivery: {
    body: string;
    headers: Record<string, string>;
  }) => Promise<number>;

  private constructor(privateKeyPem: string, publicKey: KeyObject) {
    this.privateKeyPem = privateKeyPem;
    this.publicKey = publicKey;
  }

  /** `format` is how GitHub hands out App keys (`pkcs1`) or the modern `pkcs8`. */
  static async start(format: 'pkcs1' | 'pkcs8' = 'pkcs1'): Promise<FakeGithub> {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
    });
    const fake = new FakeGithub(
      privateKey.export({ type: format, format: 'pem' }).toString(),
      publicKey,
    );
    const server = createServer((req, res) => {
      fake.handle(req, res).catch(error => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>(resolve =>
      server.listen(0, '127.0.0.1', () => resolve()),
    );
    fake.server = server;
    fake.port = (server.address() as AddressInfo).port;
    return fake;
  }

  get apiBaseUrl(): string {
    return `http://127.0.0.1:${this.port}/api/v3`;
  }

  get rawBaseUrl(): string {
    return `http://127.0.0.1:${this.port}/raw`;
  }

  repoUrl(owner: string, name: string): string {
    return `https://${FAKE_GITHUB_HOST}/${owner}/${name}`;
  }

  /** `integrations.github` with the fake as a GitHub Enterprise Server and its App. */
  config(extraApps: JsonObject[] = []): JsonObject {
    return {
      integrations: {
        github: [
          {
            host: FAKE_GITHUB_HOST,
            apiBaseUrl: this.apiBaseUrl,
            rawBaseUrl: this.rawBaseUrl,
            apps: [
              ...extraApps,
              {
                appId: this.appId,
                clientId: 'Iv1.fake',
                clientSecret: 'fake-client-secret',
                privateKey: this.privateKeyPem,
                webhookSecret: this.webhookSecret,
              },
            ],
          },
        ],
      },
    };
  }

  addRepository(spec: FakeRepositorySpec): void {
    this.repositories.set(`${spec.owner}/${spec.name}`.toLowerCase(), spec);
  }

  removeRepository(owner: string, name: string): void {
    this.repositories.delete(`${owner}/${name}`.toLowerCase());
  }

  /** `owner/name` answers 301 towards the repository with `id`, as after a rename. */
  moveRepository(owner: string, name: string, id: number): void {
    this.moved.set(`${owner}/${name}`.toLowerCase(), id);
  }

  /** Installs the App; `repositories` are full names, or `all`. */
  install(installationId: string, repositories: string[] | 'all'): void {
    this.installations.set(installationId, {
      repositories:
        repositories === 'all'
          ? 'all'
          : new Set(repositories.map(r => r.toLowerCase())),
      state: 'active',
    });
  }

  /** Uninstalls the App: the exchange answers 404 and issued tokens stop working. */
  uninstall(installationId: string): void {
    const installation = this.installations.get(installationId);
    if (installation) {
      installation.state = 'removed';
    }
  }

  suspend(installationId: string): void {
    const installation = this.installations.get(installationId);
    if (installation) {
      installation.state = 'suspended';
    }
  }

  /** Takes a repository out of (or puts it back into) a selected-repositories installation. */
  setRepositoryAccess(
    installationId: string,
    fullName: string,
    granted: boolean,
  ): void {
    const installation = this.installations.get(installationId);
    if (installation && installation.repositories !== 'all') {
      if (granted) {
        installation.repositories.add(fullName.toLowerCase());
      } else {
        installation.repositories.delete(fullName.toLowerCase());
      }
    }
  }

  /**
   * A webhook delivery as GitHub sends it: the JSON body, signed with the App's webhook secret
   * (or `signature` when given), with the event and a delivery id of its own unless given.
   */
  delivery(
    event: string,
    payload: unknown,
    options: {
      deliveryId?: string;
      signature?: string | null;
      /** The App's webhook set to `application/x-www-form-urlencoded` (`payload=<json>`). */
      formEncoded?: boolean;
    } = {},
  ): { body: string; headers: Record<string, string> } {
    const json = JSON.stringify(payload);
    const body = options.formEncoded
      ? new URLSearchParams({ payload: json }).toString()
      : json;
    const signature =
      options.signature === undefined
        ? `sha256=${createHmac('sha256', this.webhookSecret)
            .update(body)
            .digest('hex')}`
        : options.signature;
    return {
      body,
      headers: {
        'content-type': options.formEncoded
          ? 'application/x-www-form-urlencoded'
          : 'application/json',
        'x-github-event': event,
        'x-github-delivery': options.deliveryId ?? randomUUID(),
        'user-agent': 'GitHub-Hookshot/fake',
        ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
      },
    };
  }

  /** Where the service's webhook endpoint for the fake's App is, under the plugin's base. */
  get webhookPath(): string {
    return `/webhooks/github/${FAKE_GITHUB_HOST}/${this.appId}`;
  }

  /**
   * Keeps an attempt of `delivery` in the App's delivery log with the answer it got, as GitHub
   * does for each delivery it makes (`statusCode` 0: the service did not answer).
   */
  logHookAttempt(
    delivery: { body: string; headers: Record<string, string> },
    statusCode: number,
    options: { redelivery?: boolean; deliveredAt?: Date } = {},
  ): FakeHookAttempt {
    const attempt: FakeHookAttempt = {
      id: 9_000_000 + this.hookAttempts.length,
      guid: delivery.headers['x-github-delivery'],
      event: delivery.headers['x-github-event'],
      deliveredAt: (options.deliveredAt ?? new Date()).toISOString(),
      redelivery: options.redelivery ?? false,
      statusCode,
      delivery,
    };
    this.hookAttempts.push(attempt);
    return attempt;
  }

  checkRunsOf(headSha: string): FakeCheckRun[] {
    return this.checkRuns.filter(run => run.current.head_sha === headSha);
  }

  requestsTo(pathPattern: RegExp): RecordedRequest[] {
    return this.requests.filter(r => pathPattern.test(r.path));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.server?.close(error => (error ? reject(error) : resolve())),
    );
  }

  /** The repository of a path match, when the credential's installation reaches it. */
  private reachableRepository(
    credential: {
      kind: string;
      installationId?: string;
      grant?: FakeInstallationToken;
    },
    match: RegExpMatchArray,
  ): FakeRepositorySpec | undefined {
    const installation =
      credential.kind === 'installation'
        ? this.installations.get(credential.installationId!)
        : undefined;
    const fullName = `${decodeURIComponent(match[1])}/${decodeURIComponent(
      match[2],
    )}`.toLowerCase();
    const repository = this.repositories.get(fullName);
    if (
      !repository ||
      !installation ||
      installation.state !== 'active' ||
      (installation.repositories !== 'all' &&
        !installation.repositories.has(fullName)) ||
      !grantReaches(credential.grant, repository)
    ) {
      return undefined;
    }
    return repository;
  }

  private async readJson(req: IncomingMessage): Promise<Record<string, any>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? JSON.parse(text) : {};
  }

  /** Check runs and issue comments: created with POST, edited with PATCH. */
  private async handleWrite(
    req: IncomingMessage,
    res: ServerResponse,
    credential: {
      kind: string;
      installationId?: string;
      grant?: FakeInstallationToken;
    },
    match: RegExpMatchArray,
  ): Promise<void> {
    const body = await this.readJson(req);
    if (this.writeOutage) {
      this.send(res, this.writeOutage, { message: 'Server Error' });
      return;
    }
    const permission = match[3] === 'check-runs' ? 'checks' : 'issues';
    if (
      credential.grant?.permissions &&
      credential.grant.permissions[permission] !== 'write'
    ) {
      this.send(res, 403, {
        message: 'Resource not accessible by integration',
      });
      return;
    }
    const repository = this.reachableRepository(credential, match);
    if (!repository) {
      this.send(res, 404, { message: 'Not Found' });
      return;
    }
    const fullName = `${repository.owner}/${repository.name}`;
    const [, , , kind, rest] = match;
    if (kind === 'check-runs') {
      if (req.method === 'POST' && !rest) {
        const run: FakeCheckRun = {
          id: 9000 + this.checkRuns.length,
          repository: fullName,
          updates: [body],
          current: { ...body },
        };
        this.checkRuns.push(run);
        this.send(res, 201, { id: run.id, ...run.current });
        return;
      }
      const run = this.checkRuns.find(r => String(r.id) === rest);
      if (req.method === 'PATCH' && run) {
        run.updates.push(body);
        Object.assign(run.current, body);
        this.send(res, 200, { id: run.id, ...run.current });
        return;
      }
    } else {
      const create = rest?.match(/^(\d+)\/comments$/);
      if (req.method === 'POST' && create) {
        const comment: FakeIssueComment = {
          id: 7000 + this.issueComments.length,
          repository: fullName,
          issueNumber: Number(create[1]),
          bodies: [String(body.body)],
        };
        this.issueComments.push(comment);
        this.send(res, 201, { id: comment.id, body: body.body });
        return;
      }
      const edit = rest?.match(/^comments\/(\d+)$/);
      const comment =
        edit && this.issueComments.find(c => String(c.id) === edit[1]);
      if (req.method === 'PATCH' && comment) {
        comment.bodies.push(String(body.body));
        this.send(res, 200, { id: comment.id, body: body.body });
        return;
      }
    }
    this.notFound(res);
  }

  /** The App's delivery log (newest first, `cursor` paged) and its redeliveries. */
  private async handleHookDeliveries(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    credential: string,
  ): Promise<void> {
    if (credential !== 'jwt') {
      this.send(res, 401, { message: 'A JSON web token could not be decoded' });
      return;
    }
    const redeliver = url.pathname.match(
      /^\/api\/v3\/app\/hook\/deliveries\/(\d+)\/attempts$/,
    );
    if (redeliver && req.method === 'POST') {
      const attempt = this.hookAttempts.find(
        a => a.id === Number(redeliver[1]),
      );
      if (!attempt || !this.deliverTo) {
        this.notFound(res);
        return;
      }
      const statusCode = await this.deliverTo(attempt.delivery);
      this.logHookAttempt(attempt.delivery, statusCode, { redelivery: true });
      this.send(res, 202, {});
      return;
    }
    if (
      url.pathname !== '/api/v3/app/hook/deliveries' ||
      req.method !== 'GET'
    ) {
      this.notFound(res);
      return;
    }
    const perPage = Math.min(
      100,
      Number(url.searchParams.get('per_page') ?? 30),
    );
    const cursor = url.searchParams.get('cursor');
    const newestFirst = [...this.hookAttempts]
      .reverse()
      .filter(a => !cursor || a.id < Number(cursor));
    const page = newestFirst.slice(0, perPage);
    if (newestFirst.length > perPage) {
      const next = new URL(
        `${this.apiBaseUrl}/app/hook/deliveries${url.search}`,
      );
      next.searchParams.set('cursor', String(page[page.length - 1].id));
      res.setHeader('link', `<${next}>; rel="next"`);
    }
    this.send(
      res,
      200,
      page.map(a => ({
        id: a.id,
        guid: a.guid,
        delivered_at: a.deliveredAt,
        redelivery: a.redelivery,
        duration: 0.1,
        status: a.statusCode >= 200 && a.statusCode < 300 ? 'OK' : 'failed',
        status_code: a.statusCode,
        event: a.event,
        action: null,
        installation_id: null,
        repository_id: null,
      })),
    );
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(body));
  }

  private notFound(res: ServerResponse, message = 'Not Found'): void {
    this.send(res, 404, {
      message,
      documentation_url: 'https://docs.github.com/rest',
      status: '404',
    });
  }

  private async credentialOf(header: string | undefined): Promise<
    | { kind: 'jwt' }
    | {
        kind: 'installation';
        installationId: string;
        grant: FakeInstallationToken;
      }
    | { kind: 'none' | 'invalid' }
  > {
    const match = header?.match(/^(?:Bearer|token) (.+)$/i);
    if (!match) {
      return { kind: 'none' };
    }
    const credential = match[1];
    const grant = this.tokens.get(credential);
    if (grant) {
      return {
        kind: 'installation',
        installationId: grant.installationId,
        grant,
      };
    }
    try {
      const { payload } = await jwtVerify(credential, this.publicKey, {
        algorithms: ['RS256'],
        issuer: String(this.appId),
      });
      const now = Math.floor(Date.now() / 1000);
      if (
        payload.iat === undefined ||
        payload.exp === undefined ||
        payload.iat > now ||
        payload.exp - payload.iat > 600
      ) {
        return { kind: 'invalid' };
      }
      this.jwtClaims.push(payload);
      return { kind: 'jwt' };
    } catch {
      return { kind: 'invalid' };
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const credential = await this.credentialOf(req.headers.authorization);
    this.requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      credential:
        credential.kind === 'installation'
          ? `installation:${credential.installationId}`
          : credential.kind,
      accept: req.headers.accept,
    });
    if (this.outage) {
      for (const [name, value] of Object.entries(this.outage.headers ?? {})) {
        res.setHeader(name, value);
      }
      this.send(res, this.outage.status, { message: 'Unavailable' });
      return;
    }

    if (url.pathname.startsWith('/api/v3/app/hook/deliveries')) {
      await this.handleHookDeliveries(req, res, url, credential.kind);
      return;
    }

    const exchange = url.pathname.match(
      /^\/api\/v3\/app\/installations\/([^/]+)\/access_tokens$/,
    );
    if (exchange && req.method === 'POST') {
      if (credential.kind !== 'jwt') {
        this.send(res, 401, {
          message: 'A JSON web token could not be decoded',
        });
        return;
      }
      const installationId = decodeURIComponent(exchange[1]);
      const installation = this.installations.get(installationId);
      if (!installation || installation.state === 'removed') {
        this.notFound(res);
        return;
      }
      if (installation.state === 'suspended') {
        this.send(res, 403, {
          message: 'This installation has been suspended',
        });
        return;
      }
      const scope = await this.readJson(req);
      const repositories: string[] | undefined = scope.repositories;
      const unreachable = repositories?.filter(
        name =>
          installation.repositories !== 'all' &&
          ![...installation.repositories].some(
            fullName => fullName.split('/')[1] === name.toLowerCase(),
          ),
      );
      if (unreachable && unreachable.length > 0) {
        this.send(res, 422, {
          message:
            'There is at least one repository that does not exist or is not accessible to the parent installation.',
        });
        return;
      }
      const grant: FakeInstallationToken = {
        token: `ghs_${randomBytes(18).toString('base64url')}`,
        installationId,
        ...(repositories ? { repositories } : {}),
        ...(scope.permissions ? { permissions: scope.permissions } : {}),
      };
      this.tokens.set(grant.token, grant);
      this.issuedTokens.push(grant);
      this.send(res, 201, {
        token: grant.token,
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
        permissions: scope.permissions ?? {
          contents: 'read',
          metadata: 'read',
        },
        repository_selection:
          installation.repositories === 'all' && !repositories
            ? 'all'
            : 'selected',
      });
      return;
    }

    const writeMatch = url.pathname.match(
      /^\/api\/v3\/repos\/([^/]+)\/([^/]+)\/(check-runs|issues)(?:\/(.+))?$/,
    );
    if (writeMatch && (req.method === 'POST' || req.method === 'PATCH')) {
      await this.handleWrite(req, res, credential, writeMatch);
      return;
    }
    const pullFiles = url.pathname.match(
      /^\/api\/v3\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)\/files$/,
    );
    if (pullFiles && req.method === 'GET') {
      const repository = this.reachableRepository(credential, pullFiles);
      if (!repository) {
        this.send(res, 404, { message: 'Not Found' });
        return;
      }
      const files = repository.pullRequestFiles?.[Number(pullFiles[3])] ?? [];
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      this.send(
        res,
        200,
        files
          .slice((page - 1) * perPage, page * perPage)
          .map(filename => ({ filename, status: 'modified' })),
      );
      return;
    }

    const repoMatch = url.pathname.match(
      /^\/api\/v3\/repos\/([^/]+)\/([^/]+)(?:\/(branches|commits|contents)\/(.+))?$/,
    );
    if (!repoMatch || req.method !== 'GET') {
      this.notFound(res);
      return;
    }
    const installation =
      credential.kind === 'installation'
        ? this.installations.get(credential.installationId)
        : undefined;
    if (!installation || installation.state !== 'active') {
      this.send(res, 401, { message: 'Bad credentials' });
      return;
    }
    const fullName = `${decodeURIComponent(repoMatch[1])}/${decodeURIComponent(
      repoMatch[2],
    )}`.toLowerCase();
    const movedTo = this.moved.get(fullName);
    if (movedTo !== undefined) {
      res.statusCode = 301;
      res.setHeader('location', `${this.apiBaseUrl}/repositories/${movedTo}`);
      this.send(res, 301, { message: 'Moved Permanently' });
      return;
    }
    const repository = this.repositories.get(fullName);
    const reachable =
      repository &&
      (installation.repositories === 'all' ||
        installation.repositories.has(fullName)) &&
      grantReaches(
        credential.kind === 'installation' ? credential.grant : undefined,
        repository,
      );
    if (!repository || !reachable) {
      this.notFound(res);
      return;
    }
    const [, , , kind, rest] = repoMatch;
    if (!kind) {
      const visibility = repository.visibility ?? 'private';
      this.send(res, 200, {
        id: repository.id,
        node_id: `R_${repository.id}`,
        name: repository.name,
        full_name: `${repository.owner}/${repository.name}`,
        private: visibility !== 'public',
        visibility,
        default_branch: repository.defaultBranch ?? 'main',
        html_url: this.repoUrl(repository.owner, repository.name),
      });
      return;
    }
    const decodedRest = rest.split('/').map(decodeURIComponent).join('/');
    const commitOf = (ref: string) =>
      repository.branches?.[ref] ??
      repository.tags?.[ref] ??
      (repository.commits?.[ref] ? ref : undefined);

    if (kind === 'branches') {
      const sha = repository.branches?.[decodedRest];
      if (!sha) {
        this.notFound(res, 'Branch not found');
        return;
      }
      this.send(res, 200, {
        name: decodedRest,
        commit: { sha },
        protected: false,
      });
      return;
    }
    if (kind === 'commits') {
      const sha = commitOf(decodedRest);
      if (!sha) {
        this.send(res, 422, {
          message: `No commit found for SHA: ${decodedRest}`,
        });
        return;
      }
      const details = repository.commitDetails?.[sha];
      this.send(res, 200, {
        sha,
        html_url: `${this.repoUrl(
          repository.owner,
          repository.name,
        )}/commit/${sha}`,
        commit: {
          message: details?.message ?? 'A commit',
          author: { name: details?.author ?? 'Someone' },
        },
        author: details ? { login: details.author } : null,
      });
      return;
    }
    const ref =
      url.searchParams.get('ref') ?? repository.defaultBranch ?? 'main';
    const sha = commitOf(ref);
    const content = sha ? repository.commits?.[sha]?.[decodedRest] : undefined;
    if (content === undefined) {
      this.notFound(res);
      return;
    }
    if (req.headers.accept === 'application/vnd.github.v3.raw') {
      res.statusCode = 200;
      res.setHeader('content-type', 'application/vnd.github.v3.raw');
      res.setHeader('etag', `"${sha}"`);
      res.end(content);
      return;
    }
    this.send(res, 200, {
      type: 'file',
      path: decodedRest,
      encoding: 'base64',
      content: Buffer.from(content).toString('base64'),
    });
  }
}
