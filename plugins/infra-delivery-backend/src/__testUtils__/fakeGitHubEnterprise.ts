import { randomBytes } from 'node:crypto';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** A repository the fake server holds. */
export interface FakeRepository {
  id: string;
  name: string;
  owner: string;
  isPrivate: boolean;
  description?: string;
  pushedAt?: string;
  defaultBranch?: string;
  collaboratorCount: number;
  /** The GraphQL API refuses the collaborators of this repository to the viewer. */
  collaboratorsForbidden?: boolean;
}

/** What the fake does with the n-th GraphQL request (1-based). */
export type GraphQlBehaviour =
  | { kind: 'answer' }
  | { kind: 'unauthorized' }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  /** Answer only when `release()` is called; a client that goes away first aborts it. */
  | { kind: 'hold' }
  /** Answer with the first page whatever `after` asks for: a server that does not advance. */
  | { kind: 'first-page' };

export interface RecordedGraphQlRequest {
  authorization: string | undefined;
  query: string;
  variables: { login: string; first: number; after: string | null };
  /** The client closed the connection before the fake answered. */
  aborted: boolean;
  answered: boolean;
}

export interface RecordedTokenRequest {
  accept: string | undefined;
  form: Record<string, string>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', chunk => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const cursorOf = (index: number) =>
  Buffer.from(`cursor:${index}`).toString('base64');
const indexOf = (cursor: string | null) =>
  cursor === null
    ? -1
    : Number(Buffer.from(cursor, 'base64').toString().split(':')[1]);

/**
 * A GitHub Enterprise Server on a loopback port, speaking the parts the plugin uses: the OAuth
 * token endpoint (`POST /login/oauth/access_token`) and the GraphQL API (`POST /api/graphql`)
 * for namespace repositories, with knobs for the failures the plugin has to survive.
 */
export class FakeGitHubEnterprise {
  readonly clientId = `Iv1.${randomBytes(8).toString('hex')}`;
  readonly clientSecret = `secret-${randomBytes(16).toString('hex')}`;

  readonly graphQlRequests: RecordedGraphQlRequest[] = [];
  readonly tokenRequests: RecordedTokenRequest[] = [];
  /** Requests to any other path, e.g. where a redirect would have led. */
  readonly otherRequests: string[] = [];

  /** `redirect`: the token endpoint answers 302 to `/elsewhere` on the same server. */
  tokenEndpoint: 'answer' | 'redirect' = 'answer';
  graphQlBehaviour: (requestNumber: number) => GraphQlBehaviour = () => ({
    kind: 'answer',
  });

  private readonly repositories: FakeRepository[] = [];
  /** Logins of the users and organizations the server knows. */
  private readonly namespaces = new Set<string>();
  /** Repositories a user sees besides their own (collaborations, organizations). */
  private readonly userAffiliations = new Map<string, string[]>();
  private readonly codes = new Map<string, string>();
  private readonly validTokens = new Set<string>();
  private readonly held: Array<() => void> = [];
  private readonly heldWaiters: Array<() => void> = [];
  private server?: http.Server;

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch(error =>
        sendJson(res, 500, { error: String(error) }),
      );
    });
    await new Promise<void>(resolve =>
      this.server!.listen(0, '127.0.0.1', resolve),
    );
    return this.baseUrl;
  }

  get baseUrl(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise(resolve => this.server?.close(resolve));
  }

  addRepositories(
    owner: string,
    count: number,
    extra: Partial<FakeRepository> = {},
  ) {
    this.namespaces.add(owner);
    const added: FakeRepository[] = [];
    for (let i = 0; i < count; i++) {
      const repository: FakeRepository = {
        id: `R_${owner}_${String(i).padStart(3, '0')}`,
        name: `repo-${String(i).padStart(3, '0')}`,
        owner,
        isPrivate: i % 2 === 0,
        description: `Repository ${i} of ${owner}`,
        pushedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        defaultBranch: 'main',
        collaboratorCount: i + 1,
        ...extra,
      };
      this.repositories.push(repository);
      added.push(repository);
    }
    return added;
  }

  /** A user or organization without repositories. */
  addNamespace(login: string) {
    this.namespaces.add(login);
  }

  /** Lets `user` see `owner`'s repositories too (as a collaborator or member). */
  affiliate(user: string, owner: string) {
    this.namespaces.add(user);
    this.userAffiliations.set(user, [
      ...(this.userAffiliations.get(user) ?? []),
      owner,
    ]);
  }

  /** A code the token endpoint exchanges for `accessToken`. */
  issueCode(accessToken = `gho_${randomBytes(16).toString('hex')}`) {
    const code = `code-${randomBytes(8).toString('hex')}`;
    this.codes.set(code, accessToken);
    return { code, accessToken };
  }

  revokeToken(accessToken: string) {
    this.validTokens.delete(accessToken);
  }

  /** Answers every held GraphQL request. */
  release() {
    for (const answer of this.held.splice(0)) {
      answer();
    }
  }

  /** Resolves once a GraphQL request is being held. */
  whenHolding(): Promise<void> {
    if (this.held.length > 0) {
      return Promise.resolve();
    }
    return new Promise(resolve => this.heldWaiters.push(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.baseUrl);
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      await this.handleToken(req, res);
    } else if (req.method === 'POST' && url.pathname === '/api/graphql') {
      await this.handleGraphQl(req, res);
    } else if (
      req.method === 'GET' &&
      url.pathname === '/login/oauth/authorize' &&
      url.searchParams.get('client_id') === this.clientId
    ) {
      // A person who approves at once: back to the callback with a code and the state.
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', this.issueCode().code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
    } else {
      this.otherRequests.push(`${req.method} ${url.pathname}`);
      sendJson(res, 200, { access_token: 'gho_from_a_followed_redirect' });
    }
  }

  private async handleToken(req: IncomingMessage, res: ServerResponse) {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    this.tokenRequests.push({ accept: req.headers.accept, form });
    if (this.tokenEndpoint === 'redirect') {
      res.writeHead(302, { location: `${this.baseUrl}/elsewhere` });
      res.end();
      return;
    }
    if (
      form.client_id !== this.clientId ||
      form.client_secret !== this.clientSecret
    ) {
      sendJson(res, 200, {
        error: 'incorrect_client_credentials',
        error_description:
          'The client_id and/or client_secret passed are incorrect.',
      });
      return;
    }
    const accessToken = this.codes.get(form.code);
    if (!accessToken) {
      sendJson(res, 200, {
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
      });
      return;
    }
    this.codes.delete(form.code);
    this.validTokens.add(accessToken);
    sendJson(res, 200, {
      access_token: accessToken,
      token_type: 'bearer',
      scope: 'read:org,repo',
    });
  }

  private async handleGraphQl(req: IncomingMessage, res: ServerResponse) {
    const { query, variables } = JSON.parse(await readBody(req));
    const recorded: RecordedGraphQlRequest = {
      authorization: req.headers.authorization,
      query,
      variables,
      aborted: false,
      answered: false,
    };
    this.graphQlRequests.push(recorded);
    res.on('close', () => {
      if (!res.writableFinished) {
        recorded.aborted = true;
      }
    });
    const behaviour = this.graphQlBehaviour(this.graphQlRequests.length);
    const answer = () => {
      if (recorded.aborted) {
        return;
      }
      recorded.answered = true;
      this.answerGraphQl(recorded, res);
    };
    switch (behaviour.kind) {
      case 'unauthorized':
        sendJson(res, 401, {
          message: 'Bad credentials',
          documentation_url: 'https://docs.github.com/graphql',
        });
        return;
      case 'rate-limited':
        res.writeHead(403, {
          'content-type': 'application/json',
          'retry-after': String(behaviour.retryAfterSeconds),
          'x-ratelimit-remaining': '0',
        });
        res.end(JSON.stringify({ message: 'API rate limit exceeded' }));
        return;
      case 'hold':
        this.held.push(answer);
        for (const waiter of this.heldWaiters.splice(0)) {
          waiter();
        }
        return;
      case 'first-page':
        recorded.answered = true;
        this.answerGraphQl(
          { ...recorded, variables: { ...recorded.variables, after: null } },
          res,
        );
        return;
      default:
        answer();
    }
  }

  private answerGraphQl(request: RecordedGraphQlRequest, res: ServerResponse) {
    const token = request.authorization?.replace(/^bearer /i, '');
    if (!token || !this.validTokens.has(token)) {
      sendJson(res, 401, { message: 'Bad credentials' });
      return;
    }
    const { login, first, after } = request.variables;
    const isOrganization = /namespace: organization\(login: \$login\)/.test(
      request.query,
    );
    const owners = isOrganization
      ? [login]
      : [login, ...(this.userAffiliations.get(login) ?? [])];
    const visible = this.repositories
      .filter(repository => owners.includes(repository.owner))
      .sort((a, b) =>
        `${a.owner}/${a.name}`.localeCompare(`${b.owner}/${b.name}`),
      );
    if (!this.namespaces.has(login)) {
      sendJson(res, 200, {
        data: { namespace: null },
        errors: [
          {
            type: 'NOT_FOUND',
            path: ['namespace'],
            message: `Could not resolve to a ${
              isOrganization ? 'Organization' : 'User'
            } with the login of '${login}'.`,
          },
        ],
      });
      return;
    }
    const start = indexOf(after) + 1;
    const page = visible.slice(start, start + first);
    const errors: unknown[] = [];
    const nodes = page.map((repository, i) => {
      if (repository.collaboratorsForbidden) {
        errors.push({
          type: 'FORBIDDEN',
          path: ['namespace', 'repositories', 'nodes', i, 'collaborators'],
          message: 'Must have push access to view repository collaborators.',
        });
      }
      return {
        id: repository.id,
        name: repository.name,
        nameWithOwner: `${repository.owner}/${repository.name}`,
        description: repository.description ?? null,
        url: `${this.baseUrl}/${repository.owner}/${repository.name}`,
        isPrivate: repository.isPrivate,
        pushedAt: repository.pushedAt ?? null,
        owner: { login: repository.owner },
        defaultBranchRef: repository.defaultBranch
          ? { name: repository.defaultBranch }
          : null,
        collaborators: repository.collaboratorsForbidden
          ? null
          : { totalCount: repository.collaboratorCount },
      };
    });
    const end = start + page.length - 1;
    sendJson(res, 200, {
      data: {
        namespace: {
          repositories: {
            totalCount: visible.length,
            pageInfo: {
              endCursor: page.length ? cursorOf(end) : null,
              hasNextPage: end < visible.length - 1,
            },
            nodes,
          },
        },
      },
      ...(errors.length ? { errors } : {}),
    });
  }
}
