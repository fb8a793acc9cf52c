import { randomBytes } from 'node:crypto';
import net, { AddressInfo } from 'node:net';
import { createBackend } from '@backstage/backend-defaults';
import { mockServices } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  errorBodySchema,
  gitForgeRepositoryBatchSchema,
  gitForgeRepositoryPageSchema,
  gitSelfHostedServerSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { decodeJwt } from 'jose';
import { Knex } from 'knex';
import request from 'supertest';
import { OAuthStateTokens } from '../auth/oauthStates';
import { SecretCipher } from '../auth/SecretCipher';
import { EventStreamClient } from '../__testUtils__/eventStreamClient';
import { FakeGitHubEnterprise } from '../__testUtils__/fakeGitHubEnterprise';
import {
  BASE,
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';
import { infraDeliveryPlugin } from '../plugin';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const SECRETS_KEY = randomBytes(32);
/** Where the portal's pages are: the OAuth callback and the login page live there. */
const PORTAL_URL = 'https://portal.example.com/infra-delivery';

const CONFIG = {
  infraDelivery: {
    portalUrl: `${PORTAL_URL}/`,
    secretsKey: SECRETS_KEY.toString('base64'),
    rateLimits: {
      signup: { limit: 100000 },
      tokenPerAddress: { limit: 100000 },
    },
  },
};

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

async function eventually(condition: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('The condition did not come true in time');
    }
    await sleep(10);
  }
}

function batchOf(event: { event: string; data: string } | undefined) {
  expect(event?.event).toBe('message');
  return gitForgeRepositoryBatchSchema.parse(JSON.parse(event!.data));
}

function expectError(response: request.Response, status: number, code: string) {
  expect({ status: response.status, code: response.body.code }).toEqual({
    status,
    code,
  });
  return errorBodySchema.parse(response.body);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}

/**
 * The plugin in the backend `createBackend()` makes for production, with its real HTTP stack
 * (helmet, cors, compression, request logging; startTestBackend's bare server has none of it),
 * and mocks only for identity, permissions, storage and logging.
 */
async function startOnProductionHttpStack(knex: Knex) {
  const port = await freePort();
  const backend = createBackend();
  backend.add(infraDeliveryPlugin);
  backend.add(
    mockServices.rootConfig.factory({
      data: {
        ...CONFIG,
        backend: {
          baseUrl: `http://localhost:${port}`,
          listen: { host: '127.0.0.1', port },
        },
      },
    }),
  );
  backend.add(mockServices.database.factory({ knex }));
  backend.add(mockServices.rootLogger.factory());
  backend.add(mockServices.auth.factory());
  backend.add(mockServices.httpAuth.factory());
  backend.add(mockServices.userInfo.factory());
  backend.add(
    mockServices.permissions.factory({ result: AuthorizeResult.ALLOW }),
  );
  backend.add(mockServices.permissionsRegistry.factory());
  backend.add(mockServices.scheduler.factory());
  backend.add(mockServices.cache.factory());
  backend.add(mockServices.events.factory());
  backend.add(mockServices.auditor.factory());
  await backend.start();
  return { url: `http://127.0.0.1:${port}`, stop: () => backend.stop() };
}

describe.each(databases.eachSupportedId())(
  'self-hosted git forge routes on %s',
  databaseId => {
    let knex: Knex;
    let api: InfraDeliveryTestClient;
    let backendUrl: string;
    let fake: FakeGitHubEnterprise;
    let serverNumber = 0;

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex, { config: CONFIG });
      const { port } = api.server.address() as AddressInfo;
      backendUrl = `http://localhost:${port}`;
    });

    beforeEach(async () => {
      fake = new FakeGitHubEnterprise();
      await fake.start();
    });

    afterEach(async () => {
      await fake.stop();
    });

    async function createServer(token: string, name?: string) {
      serverNumber += 1;
      const response = await api.post(
        '/gitforge/self-hosted',
        {
          data: {
            name: name ?? `GitHub Enterprise ${serverNumber}`,
            baseUrl: `${fake.baseUrl}/`,
            clientId: fake.clientId,
            clientSecret: fake.clientSecret,
          },
        },
        token,
      );
      expect(response.status).toBe(201);
      return gitSelfHostedServerSchema.parse(response.body.data);
    }

    async function startLogin(token: string, serverId: string) {
      const response = await api.get(
        `/gitforge/self-hosted/${serverId}/login`,
        token,
      );
      expect(response.status).toBe(302);
      return new URL(response.headers.location);
    }

    /** What the portal's callback page does: completes the login with the member's token. */
    function callback(query: Record<string, string>, token: string) {
      return api.get(
        `/gitforge/self-hosted/oauth/callback?${new URLSearchParams(query)}`,
        token,
      );
    }

    /** The whole OAuth login of a member; the access token the fake issued. */
    async function logIn(token: string, serverId: string) {
      const state = (await startLogin(token, serverId)).searchParams.get(
        'state',
      )!;
      const { code, accessToken } = fake.issueCode();
      const response = await callback({ code, state }, token);
      expect(response.status).toBe(200);
      return accessToken;
    }

    /** An organization with a server its owner is logged in to. */
    async function loggedInOwner() {
      const owner = await api.signup();
      const server = await createServer(owner.token);
      const accessToken = await logIn(owner.token, server.id);
      return { owner, server, accessToken };
    }

    function repositoriesPath(
      namespace: string,
      query: Record<string, string>,
      stream = false,
    ) {
      return `/gitforge/self-hosted/namespaces/${namespace}/repositories${
        stream ? '/stream' : ''
      }?${new URLSearchParams(query)}`;
    }

    function openStream(
      owner: { token: string },
      path: string,
      baseUrl = backendUrl,
    ) {
      return EventStreamClient.open(`${baseUrl}${BASE}${path}`, {
        authorization: `Bearer ${owner.token}`,
        accept: 'text/event-stream',
        'accept-encoding': 'gzip, deflate, br',
      });
    }

    describe('servers', () => {
      it('lets an ADMIN register, list, get and delete servers, and VIEWERs read them', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const viewer = await api.member(owner, 'VIEWER');

        const created = await api.post(
          '/gitforge/self-hosted',
          {
            data: {
              name: '  Corporate GitHub  ',
              baseUrl: `${fake.baseUrl}/`,
              clientId: fake.clientId,
              clientSecret: fake.clientSecret,
            },
          },
          admin.token,
        );
        expect(created.status).toBe(201);
        const server = created.body.data;
        expect(server).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          name: 'Corporate GitHub',
          baseUrl: fake.baseUrl,
          clientId: fake.clientId,
          loggedIn: false,
          createdById: admin.membershipId,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(gitSelfHostedServerSchema.parse(server)).toEqual(server);

        const other = await createServer(owner.token);
        const listed = await api.get('/gitforge/self-hosted', viewer.token);
        expect(listed.status).toBe(200);
        expect(listed.body).toEqual({
          data: [other, server],
          meta: { limit: 50, totalCount: 2 },
        });
        const walked = await api.walk('/gitforge/self-hosted', viewer.token, 1);
        expect(walked.map(s => s.id)).toEqual([other.id, server.id]);

        const fetched = await api.get(
          `/gitforge/self-hosted/${server.id}`,
          viewer.token,
        );
        expect(fetched.status).toBe(200);
        expect(fetched.body).toEqual({ data: server });

        const deleted = await api.delete(
          `/gitforge/self-hosted/${server.id}`,
          admin.token,
        );
        expect(deleted.status).toBe(204);
        expectError(
          await api.get(`/gitforge/self-hosted/${server.id}`, owner.token),
          404,
          'InfraDelivery:GitSelfHostedServer:NOT_FOUND',
        );
        expectError(
          await api.delete(`/gitforge/self-hosted/${server.id}`, admin.token),
          404,
          'InfraDelivery:GitSelfHostedServer:NOT_FOUND',
        );
      });

      it('refuses MEMBERs and VIEWERs registering or deleting servers (403)', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        for (const role of ['MEMBER', 'VIEWER'] as const) {
          const person = await api.member(owner, role);
          expectError(
            await api.post(
              '/gitforge/self-hosted',
              {
                data: {
                  name: `By a ${role}`,
                  baseUrl: fake.baseUrl,
                  clientId: 'id',
                  clientSecret: 'secret',
                },
              },
              person.token,
            ),
            403,
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
          expectError(
            await api.delete(
              `/gitforge/self-hosted/${server.id}`,
              person.token,
            ),
            403,
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
        }
        const listed = await api.get('/gitforge/self-hosted', owner.token);
        expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([
          server.id,
        ]);
      });

      it('answers 401 without a credential', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const answers = [
          await api.get('/gitforge/self-hosted'),
          await api.get(`/gitforge/self-hosted/${server.id}`),
          await api.delete(`/gitforge/self-hosted/${server.id}`),
          await api.post('/gitforge/self-hosted', { data: {} }),
          await api.get(`/gitforge/self-hosted/${server.id}/login`),
          await api.get(
            repositoriesPath('acme', {
              serverId: server.id,
              namespaceType: 'ORGANIZATION',
            }),
          ),
          await api.get(
            repositoriesPath(
              'acme',
              { serverId: server.id, namespaceType: 'ORGANIZATION' },
              true,
            ),
          ),
        ].map(response => [response.status, response.body.code]);
        expect(answers).toEqual(
          answers.map(() => [401, 'InfraDelivery:Auth:MISSING_CREDENTIAL']),
        );
        expect(answers).toHaveLength(7);
      });

      it("answers 404 for another organization's server everywhere and never lists it", async () => {
        const owner = await api.signup();
        const stranger = await api.signup();
        const theirs = await createServer(stranger.token);
        await logIn(stranger.token, theirs.id);

        for (const response of [
          await api.get(`/gitforge/self-hosted/${theirs.id}`, owner.token),
          await api.delete(`/gitforge/self-hosted/${theirs.id}`, owner.token),
          await api.get(
            `/gitforge/self-hosted/${theirs.id}/login`,
            owner.token,
          ),
          await api.get(
            repositoriesPath('acme', {
              serverId: theirs.id,
              namespaceType: 'ORGANIZATION',
            }),
            owner.token,
          ),
        ]) {
          expectError(
            response,
            404,
            'InfraDelivery:GitSelfHostedServer:NOT_FOUND',
          );
        }
        const listed = await api.get('/gitforge/self-hosted', owner.token);
        expect(listed.body.data).toEqual([]);
        const stillThere = await api.get(
          `/gitforge/self-hosted/${theirs.id}`,
          stranger.token,
        );
        expect(stillThere.body.data.loggedIn).toBe(true);
      });

      it('validates the body (400) and refuses a plain-http or unusual base URL', async () => {
        const owner = await api.signup();
        const valid = {
          name: 'GHE',
          baseUrl: 'https://github.example.com',
          clientId: 'Iv1.abc',
          clientSecret: 'shh',
        };
        for (const [data, field] of [
          [{ ...valid, name: ' ' }, 'name'],
          [{ ...valid, baseUrl: 'github.example.com' }, 'baseUrl'],
          [{ ...valid, baseUrl: 'ftp://github.example.com' }, 'baseUrl'],
          [{ ...valid, clientId: '' }, 'clientId'],
          [{ ...valid, clientSecret: undefined }, 'clientSecret'],
        ] as const) {
          const response = await api.post(
            '/gitforge/self-hosted',
            { data },
            owner.token,
          );
          const body = expectError(
            response,
            400,
            'InfraDelivery:Request:VALIDATION_FAILED',
          );
          expect(body.details?.[0].items).toEqual([
            expect.stringMatching(new RegExp(`^body\\.data\\.${field}: `)),
          ]);
        }
        for (const baseUrl of [
          'http://github.example.com',
          'https://user:password@github.example.com',
          'https://github.example.com/?x=1',
        ]) {
          expectError(
            await api.post(
              '/gitforge/self-hosted',
              { data: { ...valid, baseUrl } },
              owner.token,
            ),
            400,
            'InfraDelivery:GitSelfHostedServer:INVALID_BASE_URL',
          );
        }
        const listed = await api.get('/gitforge/self-hosted', owner.token);
        expect(listed.body.meta.totalCount).toBe(0);
      });

      it('refuses a second server of the same name in an organization (409)', async () => {
        const owner = await api.signup();
        await createServer(owner.token, 'GHE');
        const again = await api.post(
          '/gitforge/self-hosted',
          {
            data: {
              name: 'GHE',
              baseUrl: fake.baseUrl,
              clientId: 'x',
              clientSecret: 'y',
            },
          },
          owner.token,
        );
        const body = expectError(
          again,
          409,
          'InfraDelivery:GitSelfHostedServer:NAME_TAKEN',
        );
        expect(body.metadata).toEqual({ name: 'GHE' });
        const stranger = await api.signup();
        await createServer(stranger.token, 'GHE');
      });

      it('keeps the client secret and tokens encrypted with the configured key, and returns neither', async () => {
        const { owner, server, accessToken } = await loggedInOwner();
        const responses = [
          await api.get('/gitforge/self-hosted', owner.token),
          await api.get(`/gitforge/self-hosted/${server.id}`, owner.token),
          await api.get(
            `/gitforge/self-hosted/${server.id}/login`,
            owner.token,
          ),
        ];
        for (const response of responses) {
          const text = JSON.stringify({
            body: response.body,
            headers: response.headers,
          });
          expect(text).not.toContain(fake.clientSecret);
          expect(text).not.toContain(accessToken);
        }

        const cipher = new SecretCipher(SECRETS_KEY);
        const serverRow = await knex('git_self_hosted_servers')
          .where({ id: server.id })
          .first();
        expect(JSON.stringify(serverRow)).not.toContain(fake.clientSecret);
        expect(
          cipher.open(
            serverRow.client_secret_sealed,
            `git_self_hosted_servers/${server.id}/client_secret`,
          ),
        ).toBe(fake.clientSecret);
        const loginRows = await knex('git_self_hosted_logins').where({
          server_id: server.id,
        });
        expect(loginRows).toHaveLength(1);
        expect(JSON.stringify(loginRows)).not.toContain(accessToken);
        expect(
          cipher.open(
            loginRows[0].access_token_sealed,
            `git_self_hosted_logins/${server.id}/${loginRows[0].membership_id}/access_token`,
          ),
        ).toBe(accessToken);
      });
    });

    describe('OAuth login', () => {
      it('redirects to the server, exchanges the code without following redirects, and stores the login', async () => {
        const owner = await api.signup();
        const colleague = await api.member(owner, 'VIEWER');
        const server = await createServer(owner.token);

        const location = await startLogin(colleague.token, server.id);
        expect(`${location.origin}${location.pathname}`).toBe(
          `${fake.baseUrl}/login/oauth/authorize`,
        );
        const redirectUri = `${PORTAL_URL}/gitforge/callback`;
        expect(Object.fromEntries(location.searchParams)).toEqual({
          client_id: fake.clientId,
          redirect_uri: redirectUri,
          scope: 'repo read:org',
          state: expect.any(String),
        });
        const state = location.searchParams.get('state')!;
        const claims = decodeJwt(state);
        expect(claims).toMatchObject({
          sub: colleague.membershipId,
          org: owner.organizationId,
          srv: server.id,
        });
        expect(claims.exp! - claims.iat!).toBe(600);

        const { code, accessToken } = fake.issueCode();
        const completed = await callback({ code, state }, colleague.token);
        expect(completed.status).toBe(200);
        expect(completed.body).toEqual({
          data: {
            gitSelfHostedServerId: server.id,
            loggedIn: true,
            scopes: ['read:org', 'repo'],
          },
        });
        expect(JSON.stringify(completed.body)).not.toContain(accessToken);
        expect(fake.tokenRequests).toEqual([
          {
            accept: 'application/json',
            form: {
              client_id: fake.clientId,
              client_secret: fake.clientSecret,
              code,
              redirect_uri: redirectUri,
            },
          },
        ]);

        const theirs = await api.get(
          `/gitforge/self-hosted/${server.id}`,
          colleague.token,
        );
        expect(theirs.body.data.loggedIn).toBe(true);
        const ownersView = await api.get(
          `/gitforge/self-hosted/${server.id}`,
          owner.token,
        );
        expect(ownersView.body.data.loggedIn).toBe(false);
      });

      it('completes a login only for the member who started it, signed in (no login CSRF)', async () => {
        const owner = await api.signup();
        const colleague = await api.member(owner, 'MEMBER');
        const server = await createServer(owner.token);
        // The owner starts a login and sends the link to a colleague, who approves it on the
        // server with their own account: the portal page completes it with the colleague's token.
        const ownersState = (
          await startLogin(owner.token, server.id)
        ).searchParams.get('state')!;
        const colleaguesApproval = fake.issueCode();
        const body = expectError(
          await callback(
            { code: colleaguesApproval.code, state: ownersState },
            colleague.token,
          ),
          403,
          'InfraDelivery:GitSelfHostedLogin:STARTED_BY_SOMEONE_ELSE',
        );
        expect(body.message).toBe('This login was started by someone else');
        expect(fake.tokenRequests).toEqual([]);
        // Without a credential the callback does nothing at all.
        expectError(
          await api.get(
            `/gitforge/self-hosted/oauth/callback?${new URLSearchParams({
              code: colleaguesApproval.code,
              state: ownersState,
            })}`,
          ),
          401,
          'InfraDelivery:Auth:MISSING_CREDENTIAL',
        );
        for (const member of [owner, colleague]) {
          const view = await api.get(
            `/gitforge/self-hosted/${server.id}`,
            member.token,
          );
          expect(view.body.data.loggedIn).toBe(false);
        }
        // The refused attempt did not spend the state: its owner can still finish.
        const { code } = fake.issueCode();
        expect(
          (await callback({ code, state: ownersState }, owner.token)).status,
        ).toBe(200);
      });

      it('gives a web page the authorization address as JSON, with the same signed state', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const before = Date.now();
        const response = await api.get(
          `/gitforge/self-hosted/${server.id}/login-url`,
          owner.token,
        );
        expect(response.status).toBe(200);
        const { authorizeUrl, expiresAt } = response.body.data;
        const location = new URL(authorizeUrl);
        expect(`${location.origin}${location.pathname}`).toBe(
          `${fake.baseUrl}/login/oauth/authorize`,
        );
        expect(location.searchParams.get('redirect_uri')).toBe(
          `${PORTAL_URL}/gitforge/callback`,
        );
        const claims = decodeJwt(location.searchParams.get('state')!);
        expect(new Date(expiresAt).getTime()).toBe(claims.exp! * 1000);
        expect(claims.exp! * 1000).toBeGreaterThanOrEqual(before + 599_000);
        const { code } = fake.issueCode();
        expect(
          (
            await callback(
              { code, state: location.searchParams.get('state')! },
              owner.token,
            )
          ).status,
        ).toBe(200);
      });

      it('refuses a state used before, without asking the server again', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const state = (
          await startLogin(owner.token, server.id)
        ).searchParams.get('state')!;
        const first = fake.issueCode();
        expect(
          (await callback({ code: first.code, state }, owner.token)).status,
        ).toBe(200);

        const second = fake.issueCode();
        const replayed = await callback(
          { code: second.code, state },
          owner.token,
        );
        const body = expectError(
          replayed,
          400,
          'InfraDelivery:GitSelfHostedLogin:STATE_USED',
        );
        expect(body.requestId).toEqual(expect.any(String));
        expect(fake.tokenRequests).toHaveLength(1);
      });

      it('refuses a forged or altered state', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const stranger = await api.signup();
        const strangersServer = await createServer(stranger.token);
        const state = (
          await startLogin(owner.token, server.id)
        ).searchParams.get('state')!;
        const [header, payload, signature] = state.split('.');
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
        const altered = [
          header,
          Buffer.from(
            JSON.stringify({ ...claims, srv: strangersServer.id }),
          ).toString('base64url'),
          signature,
        ].join('.');
        const signedElsewhere = await new OAuthStateTokens(
          randomBytes(32),
        ).issue({
          organizationId: owner.organizationId,
          membershipId: claims.sub,
          serverId: server.id,
        });

        for (const forged of ['not-a-jwt', altered, signedElsewhere]) {
          const { code } = fake.issueCode();
          const body = expectError(
            await callback({ code, state: forged }, owner.token),
            400,
            'InfraDelivery:GitSelfHostedLogin:INVALID_STATE',
          );
          expect(body.message).toBe(
            'The login state is not one this service issued',
          );
        }
        expect(fake.tokenRequests).toEqual([]);
        const missing = await api.get(
          '/gitforge/self-hosted/oauth/callback?code=abc',
          owner.token,
        );
        expectError(missing, 400, 'InfraDelivery:Request:VALIDATION_FAILED');

        // The genuine state still works.
        const { code } = fake.issueCode();
        expect((await callback({ code, state }, owner.token)).status).toBe(200);
      });

      it('refuses an expired state', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const genuine = decodeJwt(
          (await startLogin(owner.token, server.id)).searchParams.get('state')!,
        );
        const { value } = await knex('service_secrets')
          .where({ name: 'gitforge-oauth-state-signing-key' })
          .first();
        const expired = await new OAuthStateTokens(
          Buffer.from(value, 'base64'),
        ).issue(
          {
            organizationId: owner.organizationId,
            membershipId: genuine.sub!,
            serverId: server.id,
          },
          new Date(Date.now() - 11 * 60 * 1000),
        );
        const { code } = fake.issueCode();
        expectError(
          await callback({ code, state: expired }, owner.token),
          400,
          'InfraDelivery:GitSelfHostedLogin:STATE_EXPIRED',
        );
        expect(fake.tokenRequests).toEqual([]);
      });

      it('answers a declined login (access_denied) with a clear error and spends the state', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const state = (
          await startLogin(owner.token, server.id)
        ).searchParams.get('state')!;
        const denied = await callback(
          {
            error: 'access_denied',
            error_description: 'The user has denied your application access.',
            state,
          },
          owner.token,
        );
        const body = expectError(
          denied,
          403,
          'InfraDelivery:GitSelfHostedLogin:ACCESS_DENIED',
        );
        expect(body).toMatchObject({
          message: 'The login was declined on the server',
          metadata: {
            error: 'access_denied',
            errorDescription: 'The user has denied your application access.',
          },
        });
        const { code } = fake.issueCode();
        expectError(
          await callback({ code, state }, owner.token),
          400,
          'InfraDelivery:GitSelfHostedLogin:STATE_USED',
        );
        expect(fake.tokenRequests).toEqual([]);
        const view = await api.get(
          `/gitforge/self-hosted/${server.id}`,
          owner.token,
        );
        expect(view.body.data.loggedIn).toBe(false);
      });

      it('does not follow a redirect from the token endpoint', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        fake.tokenEndpoint = 'redirect';
        const state = (
          await startLogin(owner.token, server.id)
        ).searchParams.get('state')!;
        const { code } = fake.issueCode();
        const response = await callback({ code, state }, owner.token);
        const body = expectError(
          response,
          502,
          'InfraDelivery:GitSelfHostedServer:UPSTREAM_REDIRECT',
        );
        expect(body.metadata).toEqual({ status: 302 });
        expect(fake.tokenRequests).toHaveLength(1);
        expect(fake.otherRequests).toEqual([]);
        const view = await api.get(
          `/gitforge/self-hosted/${server.id}`,
          owner.token,
        );
        expect(view.body.data.loggedIn).toBe(false);
      });

      it('answers a code the server refuses with a 400', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const state = (
          await startLogin(owner.token, server.id)
        ).searchParams.get('state')!;
        expectError(
          await callback({ code: 'not-issued', state }, owner.token),
          400,
          'InfraDelivery:GitSelfHostedLogin:CODE_REJECTED',
        );
        expect(fake.tokenRequests).toHaveLength(1);
        const view = await api.get(
          `/gitforge/self-hosted/${server.id}`,
          owner.token,
        );
        expect(view.body.data.loggedIn).toBe(false);
      });

      it('lets only members log in: a service account is refused (403)', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const account = await api.post(
          '/service-accounts',
          { data: { name: 'robot', role: 'MEMBER' } },
          owner.token,
        );
        const key = await api.post(
          '/api-keys',
          {
            data: {
              name: 'robot key',
              ownerType: 'SERVICE_ACCOUNT',
              ownerId: account.body.data.id,
            },
          },
          owner.token,
        );
        expect(key.status).toBe(201);
        expectError(
          await api.get(
            `/gitforge/self-hosted/${server.id}/login`,
            key.body.data.key,
          ),
          403,
          'InfraDelivery:GitSelfHostedLogin:MEMBERSHIP_REQUIRED',
        );
      });
    });

    describe('repository listing (#11)', () => {
      it('asks the caller to log in first (403 with the login as action)', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        fake.addRepositories('acme', 3);
        const query = { serverId: server.id, namespaceType: 'ORGANIZATION' };
        for (const response of [
          await api.get(repositoriesPath('acme', query), owner.token),
          await api.get(repositoriesPath('acme', query, true), owner.token),
        ]) {
          expect(response.headers['content-type']).toMatch(
            /^application\/json/,
          );
          const body = expectError(
            response,
            403,
            'InfraDelivery:GitSelfHostedLogin:REQUIRED',
          );
          expect(body.action).toEqual({
            label: `Log in to ${server.name}`,
            url: `${PORTAL_URL}/gitforge/${server.id}/login`,
          });
        }
        expect(fake.graphQlRequests).toEqual([]);
      });

      it("pages through an organization's repositories with the caller's token", async () => {
        const { owner, server, accessToken } = await loggedInOwner();
        const created = fake.addRepositories('acme', 45);
        const query = { serverId: server.id, namespaceType: 'ORGANIZATION' };

        const first = await api.get(
          repositoriesPath('acme', query),
          owner.token,
        );
        expect(first.status).toBe(200);
        expect(gitForgeRepositoryPageSchema.parse(first.body)).toEqual(
          first.body,
        );
        expect(first.body.data.data).toHaveLength(20);
        expect(first.body.data.totalCount).toBe(45);
        expect(first.body.data.pageInfo).toEqual({
          endCursor: expect.any(String),
          hasNextPage: true,
        });
        expect(first.body.data.data[1]).toEqual({
          collaborators: { totalCount: 2 },
          defaultBranch: { name: 'main' },
          defaultBranchRef: { name: 'main' },
          description: 'Repository 1 of acme',
          foreignId: created[1].id,
          isInNamespace: true,
          isPrivate: false,
          name: 'repo-001',
          nameWithOwner: 'acme/repo-001',
          owner: { login: 'acme' },
          pushedAt: created[1].pushedAt,
          url: `${fake.baseUrl}/acme/repo-001`,
        });
        expect(fake.graphQlRequests[0]).toMatchObject({
          authorization: `bearer ${accessToken}`,
          variables: { login: 'acme', first: 20, after: null },
        });
        expect(fake.graphQlRequests[0].query).toContain(
          'namespace: organization(login: $login)',
        );

        const names = first.body.data.data.map((r: { name: string }) => r.name);
        let pageInfo = first.body.data.pageInfo;
        const sizes = [20];
        while (pageInfo.hasNextPage) {
          const next = await api.get(
            repositoriesPath('acme', {
              ...query,
              first: '20',
              after: pageInfo.endCursor,
            }),
            owner.token,
          );
          expect(next.status).toBe(200);
          sizes.push(next.body.data.data.length);
          names.push(
            ...next.body.data.data.map((r: { name: string }) => r.name),
          );
          pageInfo = next.body.data.pageInfo;
        }
        expect(sizes).toEqual([20, 20, 5]);
        expect(names).toEqual(created.map(r => r.name));

        const small = await api.get(
          repositoriesPath('acme', { ...query, first: '7' }),
          owner.token,
        );
        expect(small.body.data.data).toHaveLength(7);
      });

      it("lists a user's own repositories and those they only see, telling them apart", async () => {
        const { owner, server } = await loggedInOwner();
        fake.addRepositories('octocat', 2);
        fake.addRepositories('platform-team', 1);
        fake.affiliate('octocat', 'platform-team');
        const response = await api.get(
          repositoriesPath('octocat', {
            serverId: server.id,
            namespaceType: 'USER',
          }),
          owner.token,
        );
        expect(response.status).toBe(200);
        expect(
          response.body.data.data.map(
            (r: { nameWithOwner: string; isInNamespace: boolean }) => [
              r.nameWithOwner,
              r.isInNamespace,
            ],
          ),
        ).toEqual([
          ['octocat/repo-000', true],
          ['octocat/repo-001', true],
          ['platform-team/repo-000', false],
        ]);
        expect(fake.graphQlRequests[0].query).toContain(
          'namespace: user(login: $login)',
        );
      });

      it('keeps repositories whose collaborators the login may not see, without the count', async () => {
        const { owner, server } = await loggedInOwner();
        fake.addRepositories('acme', 2);
        fake.addRepositories('acme', 1, {
          id: 'R_restricted',
          name: 'restricted',
          collaboratorsForbidden: true,
          defaultBranch: undefined,
          description: undefined,
          pushedAt: undefined,
        });
        const response = await api.get(
          repositoriesPath('acme', {
            serverId: server.id,
            namespaceType: 'ORGANIZATION',
          }),
          owner.token,
        );
        expect(response.status).toBe(200);
        const byName = Object.fromEntries(
          response.body.data.data.map((r: { name: string }) => [r.name, r]),
        );
        expect(Object.keys(byName).sort()).toEqual([
          'repo-000',
          'repo-001',
          'restricted',
        ]);
        expect(byName.restricted).toEqual({
          foreignId: 'R_restricted',
          isInNamespace: true,
          isPrivate: true,
          name: 'restricted',
          nameWithOwner: 'acme/restricted',
          owner: { login: 'acme' },
          url: `${fake.baseUrl}/acme/restricted`,
        });
        expect(byName['repo-000'].collaborators).toEqual({ totalCount: 1 });
      });

      it('answers an unknown namespace with 404 and an empty one with no repositories', async () => {
        const { owner, server } = await loggedInOwner();
        expectError(
          await api.get(
            repositoriesPath('nobody', {
              serverId: server.id,
              namespaceType: 'ORGANIZATION',
            }),
            owner.token,
          ),
          404,
          'InfraDelivery:GitForgeNamespace:NOT_FOUND',
        );
        fake.addNamespace('empty-org');
        const empty = await api.get(
          repositoriesPath('empty-org', {
            serverId: server.id,
            namespaceType: 'ORGANIZATION',
          }),
          owner.token,
        );
        expect(empty.body).toEqual({
          data: {
            data: [],
            pageInfo: { endCursor: null, hasNextPage: false },
            totalCount: 0,
          },
        });
      });

      it('validates the query (400)', async () => {
        const { owner, server } = await loggedInOwner();
        for (const [query, field] of [
          [{ namespaceType: 'ORGANIZATION' }, 'serverId'],
          [{ serverId: server.id }, 'namespaceType'],
          [{ serverId: server.id, namespaceType: 'TEAM' }, 'namespaceType'],
          [{ serverId: server.id, namespaceType: 'USER', first: '0' }, 'first'],
          [
            { serverId: server.id, namespaceType: 'USER', first: '101' },
            'first',
          ],
        ] as const) {
          const body = expectError(
            await api.get(
              repositoriesPath('acme', query as Record<string, string>),
              owner.token,
            ),
            400,
            'InfraDelivery:Request:VALIDATION_FAILED',
          );
          expect(body.details?.[0].items).toEqual([
            expect.stringMatching(new RegExp(`^query\\.${field}: `)),
          ]);
        }
        expectError(
          await api.get(
            repositoriesPath('bad%20login', {
              serverId: server.id,
              namespaceType: 'USER',
            }),
            owner.token,
          ),
          400,
          'InfraDelivery:Request:VALIDATION_FAILED',
        );
        expect(fake.graphQlRequests).toEqual([]);
      });

      it('forgets a login the server refuses and asks for a new one', async () => {
        const { owner, server, accessToken } = await loggedInOwner();
        fake.addRepositories('acme', 1);
        fake.revokeToken(accessToken);
        const query = { serverId: server.id, namespaceType: 'ORGANIZATION' };
        expectError(
          await api.get(repositoriesPath('acme', query), owner.token),
          403,
          'InfraDelivery:GitSelfHostedLogin:REQUIRED',
        );
        const view = await api.get(
          `/gitforge/self-hosted/${server.id}`,
          owner.token,
        );
        expect(view.body.data.loggedIn).toBe(false);

        await logIn(owner.token, server.id);
        const again = await api.get(
          repositoriesPath('acme', query),
          owner.token,
        );
        expect(again.status).toBe(200);
        expect(again.body.data.totalCount).toBe(1);
      });

      it("passes the server's rate limit on as a 503 with Retry-After", async () => {
        const { owner, server } = await loggedInOwner();
        fake.addRepositories('acme', 1);
        fake.graphQlBehaviour = () => ({
          kind: 'rate-limited',
          retryAfterSeconds: 42,
        });
        const response = await api.get(
          repositoriesPath('acme', {
            serverId: server.id,
            namespaceType: 'ORGANIZATION',
          }),
          owner.token,
        );
        expectError(
          response,
          503,
          'InfraDelivery:GitSelfHostedServer:RATE_LIMITED',
        );
        expect(response.headers['retry-after']).toBe('42');
      });
    });

    describe('repository stream (#12)', () => {
      it('sends 45 repositories as batches of 20, 20 and 5', async () => {
        const { owner, server } = await loggedInOwner();
        const created = fake.addRepositories('acme', 45);
        const client = await openStream(
          owner,
          repositoriesPath(
            'acme',
            { serverId: server.id, namespaceType: 'ORGANIZATION' },
            true,
          ),
        );
        expect(client.status).toBe(200);
        expect(client.headers).toMatchObject({
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        const batches = (await client.rest()).map(batchOf);
        expect(
          batches.map(b => ({
            size: b.repositories.length,
            isFinal: b.isFinal,
            totalReceived: b.totalReceived,
            hasNextPage: b.pageInfo.hasNextPage,
          })),
        ).toEqual([
          { size: 20, isFinal: false, totalReceived: 20, hasNextPage: true },
          { size: 20, isFinal: false, totalReceived: 40, hasNextPage: true },
          { size: 5, isFinal: true, totalReceived: 45, hasNextPage: false },
        ]);
        expect(
          batches.flatMap(b => b.repositories.map(r => r.foreignId)),
        ).toEqual(created.map(r => r.id));
        // Each batch's cursor continues the listing where it stopped.
        expect(fake.graphQlRequests.map(r => r.variables.after)).toEqual([
          null,
          batches[0].pageInfo.endCursor,
          batches[1].pageInfo.endCursor,
        ]);
        expect(fake.graphQlRequests.map(r => r.variables.first)).toEqual([
          20, 20, 20,
        ]);
      });

      it('sends one final, empty batch for a namespace without repositories', async () => {
        const { owner, server } = await loggedInOwner();
        fake.addNamespace('empty-org');
        const client = await openStream(
          owner,
          repositoriesPath(
            'empty-org',
            { serverId: server.id, namespaceType: 'ORGANIZATION' },
            true,
          ),
        );
        expect((await client.rest()).map(batchOf)).toEqual([
          {
            isFinal: true,
            pageInfo: { endCursor: null, hasNextPage: false },
            repositories: [],
            totalReceived: 0,
          },
        ]);
      });

      it('stops asking the server when the client goes away', async () => {
        const { owner, server } = await loggedInOwner();
        fake.addRepositories('acme', 100);
        fake.graphQlBehaviour = n =>
          n === 2 ? { kind: 'hold' } : { kind: 'answer' };
        const client = await openStream(
          owner,
          repositoriesPath(
            'acme',
            { serverId: server.id, namespaceType: 'ORGANIZATION' },
            true,
          ),
        );
        expect(batchOf(await client.next()).repositories).toHaveLength(20);
        await fake.whenHolding();
        client.close();

        await eventually(() => fake.graphQlRequests[1].aborted);
        await sleep(300);
        fake.release();
        await sleep(100);
        expect(fake.graphQlRequests).toHaveLength(2);
        expect(fake.graphQlRequests[1].answered).toBe(false);
      });

      it('ends with an error event carrying an ErrorBody when the server refuses the token mid-stream', async () => {
        const { owner, server } = await loggedInOwner();
        fake.addRepositories('acme', 45);
        fake.graphQlBehaviour = n =>
          n === 2 ? { kind: 'unauthorized' } : { kind: 'answer' };
        const client = await openStream(
          owner,
          repositoriesPath(
            'acme',
            { serverId: server.id, namespaceType: 'ORGANIZATION' },
            true,
          ),
        );
        const events = await client.rest();
        expect(events.map(e => e.event)).toEqual(['message', 'error']);
        expect(batchOf(events[0]).isFinal).toBe(false);
        const error = errorBodySchema.parse(JSON.parse(events[1].data));
        expect(error).toMatchObject({
          code: 'InfraDelivery:GitSelfHostedLogin:REQUIRED',
          message: `Log in to ${server.name} first`,
          action: {
            label: `Log in to ${server.name}`,
            url: `${PORTAL_URL}/gitforge/${server.id}/login`,
          },
          requestId: client.headers['x-request-id'],
        });
        expect(fake.graphQlRequests).toHaveLength(2);
        const view = await api.get(
          `/gitforge/self-hosted/${server.id}`,
          owner.token,
        );
        expect(view.body.data.loggedIn).toBe(false);
      });

      it('ends a member’s stream with an error event once the member is removed, sending nothing fetched after', async () => {
        const owner = await api.signup();
        const server = await createServer(owner.token);
        const member = await api.member(owner, 'MEMBER');
        await logIn(member.token, server.id);
        fake.addRepositories('acme', 45);
        fake.graphQlBehaviour = n =>
          n === 2 ? { kind: 'hold' } : { kind: 'answer' };
        const client = await openStream(
          member,
          repositoriesPath(
            'acme',
            { serverId: server.id, namespaceType: 'ORGANIZATION' },
            true,
          ),
        );
        expect(batchOf(await client.next()).repositories).toHaveLength(20);
        await fake.whenHolding();
        expect(
          (await api.delete(`/memberships/${member.membershipId}`, owner.token))
            .status,
        ).toBe(204);
        fake.release();

        const events = await client.rest();
        expect(events.map(e => e.event)).toEqual(['error']);
        expect(JSON.parse(events[0].data).code).toBe(
          'InfraDelivery:GitSelfHostedLogin:REQUIRED',
        );
        // The token the removal forgot was not used again.
        expect(fake.graphQlRequests).toHaveLength(2);
      });

      it('ends with an error event when the server fails mid-stream', async () => {
        const { owner, server } = await loggedInOwner();
        fake.addRepositories('acme', 45);
        fake.graphQlBehaviour = n =>
          n === 3
            ? { kind: 'rate-limited', retryAfterSeconds: 5 }
            : { kind: 'answer' };
        const client = await openStream(
          owner,
          repositoriesPath(
            'acme',
            { serverId: server.id, namespaceType: 'ORGANIZATION' },
            true,
          ),
        );
        const events = await client.rest();
        expect(events.map(e => e.event)).toEqual([
          'message',
          'message',
          'error',
        ]);
        expect(JSON.parse(events[2].data).code).toBe(
          'InfraDelivery:GitSelfHostedServer:RATE_LIMITED',
        );
      });

      it('ends with an error event, not a repeated batch, when the server answers the same page again', async () => {
        const { owner, server } = await loggedInOwner();
        fake.addRepositories('acme', 45);
        fake.graphQlBehaviour = n =>
          n >= 2 ? { kind: 'first-page' } : { kind: 'answer' };
        const client = await openStream(
          owner,
          repositoriesPath(
            'acme',
            { serverId: server.id, namespaceType: 'ORGANIZATION' },
            true,
          ),
        );
        const events = await client.rest();
        // The first 20 were sent once; the client was not handed them twice.
        expect(events.map(e => e.event)).toEqual(['message', 'error']);
        expect(JSON.parse(events[0].data).totalReceived).toBe(20);
        expect(JSON.parse(events[1].data)).toMatchObject({
          code: 'InfraDelivery:GitSelfHostedServer:UPSTREAM_ERROR',
          message: expect.stringMatching(/answered the same page twice$/),
        });
      });

      it('delivers the first batch within a second through the production HTTP stack, compression included', async () => {
        const { owner, server } = await loggedInOwner();
        fake.addRepositories('acme', 45);
        fake.graphQlBehaviour = n =>
          n === 2 ? { kind: 'hold' } : { kind: 'answer' };
        const production = await startOnProductionHttpStack(knex);
        try {
          // Compression is really there: an ordinary JSON answer comes back gzipped.
          const document = await EventStreamClient.open(
            `${production.url}${BASE}/openapi.json`,
            { 'accept-encoding': 'gzip' },
          );
          expect(document.status).toBe(200);
          expect(document.headers['content-encoding']).toBe('gzip');
          document.close();

          const client = await openStream(
            owner,
            repositoriesPath(
              'acme',
              { serverId: server.id, namespaceType: 'ORGANIZATION' },
              true,
            ),
            production.url,
          );
          expect(client.status).toBe(200);
          expect(client.headers['content-encoding']).toBeUndefined();
          const first = await client.next(1000);
          expect(batchOf(first).repositories).toHaveLength(20);
          expect(first!.receivedAt - client.openedAt).toBeLessThan(1000);
          // The rest of the listing was still upstream when the first batch arrived.
          await fake.whenHolding();
          expect(fake.graphQlRequests[1].answered).toBe(false);

          fake.release();
          const rest = (await client.rest()).map(batchOf);
          expect(rest.map(b => b.totalReceived)).toEqual([40, 45]);
          expect(rest[1].isFinal).toBe(true);
        } finally {
          await production.stop();
        }
      });
    });
  },
);
