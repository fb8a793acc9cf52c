import { randomBytes } from 'node:crypto';
import {
  coreServices,
  createServiceFactory,
  LoggerService,
  RootLoggerService,
} from '@backstage/backend-plugin-api';
import { JsonObject } from '@backstage/types';
import { Knex } from 'knex';
import request from 'supertest';
import { parseCloudFormation } from '../__testUtils__/cloudFormationYaml';
import { FakeGitHubEnterprise } from '../__testUtils__/fakeGitHubEnterprise';
import {
  BASE,
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  uniqueEmail,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/** JSON of anything a logger may be handed: errors with their message, stack and cause. */
function serialize(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') {
      return item.toString();
    }
    if (item instanceof Error) {
      return {
        ...(item as unknown as Record<string, unknown>),
        name: item.name,
        message: item.message,
        stack: item.stack,
        cause: item.cause,
      };
    }
    if (typeof item === 'object' && item !== null) {
      if (seen.has(item)) {
        return '[circular]';
      }
      seen.add(item);
    }
    return item;
  });
}

/** A root logger that keeps every line, with its level, labels and meta, as JSON. */
class CapturingLogger implements RootLoggerService {
  constructor(
    private readonly lines: string[],
    private readonly labels: JsonObject = {},
  ) {}

  error(message: string, meta?: Error | JsonObject) {
    this.record('error', message, meta);
  }
  warn(message: string, meta?: Error | JsonObject) {
    this.record('warn', message, meta);
  }
  info(message: string, meta?: Error | JsonObject) {
    this.record('info', message, meta);
  }
  debug(message: string, meta?: Error | JsonObject) {
    this.record('debug', message, meta);
  }
  child(meta: JsonObject): LoggerService {
    return new CapturingLogger(this.lines, { ...this.labels, ...meta });
  }

  private record(level: string, message: string, meta?: Error | JsonObject) {
    this.lines.push(
      serialize({ level, message, labels: this.labels, meta: meta ?? null }),
    );
  }
}

function secretWord(name: string): string {
  return `${name}-${randomBytes(12).toString('base64url')}`;
}

/** Every object key in a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.flatMap(keysOf);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => [
      key,
      ...keysOf(item),
    ]);
  }
  return [];
}

describe.each(databases.eachSupportedId())(
  'secrets in logs and list responses on %s',
  databaseId => {
    const logLines: string[] = [];
    const consoleLines: string[] = [];
    let knex: Knex;
    let api: InfraDeliveryTestClient;

    const secrets = {
      passwords: [] as string[],
      apiKeys: [] as string[],
      accessTokens: [] as string[],
      invitationTokens: [] as string[],
      /** The OAuth client secret, access token, authorization code and state of a forge. */
      oauth: [] as string[],
      /** Onboarding JWTs and the signatures of onboarding template links. */
      onboarding: [] as string[],
    };
    const allSecrets = () => [
      ...secrets.passwords,
      ...secrets.apiKeys,
      // The random part of a key alone is as good as the key.
      ...secrets.apiKeys.map(key => key.slice(4 + 12, 4 + 12 + 32)),
      ...secrets.accessTokens,
      // A token's signature, logged without the rest, would still be a leak worth catching.
      ...secrets.accessTokens.map(token => token.split('.')[2]),
      ...secrets.invitationTokens,
      ...secrets.oauth,
      ...secrets.onboarding,
    ];
    /** Every list answer collected during the flow, with the path it came from. */
    const listResponses: { path: string; body: unknown }[] = [];
    /** Every error answer collected during the flow. */
    const errorResponses: { what: string; body: unknown }[] = [];

    const consoleMethods = ['log', 'info', 'warn', 'error', 'debug'] as const;
    const forge = new FakeGitHubEnterprise();

    beforeAll(async () => {
      for (const method of consoleMethods) {
        jest.spyOn(console, method).mockImplementation((...args) => {
          consoleLines.push(serialize({ method, args }));
        });
      }
      const rootLogger = createServiceFactory({
        service: coreServices.rootLogger,
        deps: {},
        factory: () => new CapturingLogger(logLines),
      });
      knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex, {
        extraFeatures: [rootLogger],
      });
      await forge.start();
      await runFlow();
    });

    afterAll(async () => {
      jest.restoreAllMocks();
      await forge.stop();
    });

    async function list(path: string, token: string) {
      const response = await api.get(path, token);
      expect(response.status).toBe(200);
      listResponses.push({ path, body: response.body });
      return response.body;
    }

    function failed(what: string, response: request.Response, status: number) {
      expect({ what, status: response.status }).toEqual({ what, status });
      errorResponses.push({ what, body: response.body });
    }

    async function signup(
      email: string,
      password: string,
      invitationToken?: string,
    ) {
      secrets.passwords.push(password);
      return api.post('/auth/signup', {
        data: {
          email,
          password,
          ...(invitationToken ? { invitationToken } : {}),
        },
      });
    }

    async function requestToken(email: string, password: string) {
      secrets.passwords.push(password);
      return api.post('/auth/token', { data: { email, password } });
    }

    /** Sign-up, tokens, keys, invitations and failures, as automation would do them. */
    async function runFlow() {
      const ownerEmail = uniqueEmail('owner');
      const ownerPassword = secretWord('owner-password');
      expect((await signup(ownerEmail, ownerPassword)).status).toBe(201);
      const ownerTokenResponse = await requestToken(ownerEmail, ownerPassword);
      expect(ownerTokenResponse.status).toBe(200);
      const ownerToken: string = ownerTokenResponse.body.data.accessToken;
      secrets.accessTokens.push(ownerToken);

      const project = await api.post(
        '/projects',
        { data: { givenId: 'payments', name: 'Payments' } },
        ownerToken,
      );
      expect(project.status).toBe(201);

      // An API key of the owner, used and later revoked.
      const ownerKey = await api.post(
        '/api-keys',
        { data: { name: 'ci' } },
        ownerToken,
      );
      expect(ownerKey.status).toBe(201);
      const ownerKeyValue: string = ownerKey.body.data.key;
      secrets.apiKeys.push(ownerKeyValue);
      expect(
        (await api.get(`/projects/${project.body.data.id}`, ownerKeyValue))
          .status,
      ).toBe(200);

      // A service account's key, used to create something.
      const account = await api.post(
        '/service-accounts',
        { data: { name: 'deployer', role: 'MEMBER' } },
        ownerToken,
      );
      expect(account.status).toBe(201);
      const accountKey = await api.post(
        '/api-keys',
        {
          data: {
            name: 'deployer key',
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: account.body.data.id,
          },
        },
        ownerToken,
      );
      expect(accountKey.status).toBe(201);
      secrets.apiKeys.push(accountKey.body.data.key);
      expect(
        (
          await api.post(
            '/projects',
            { data: { givenId: 'billing', name: 'Billing' } },
            accountKey.body.data.key,
          )
        ).status,
      ).toBe(201);

      // An invitation that is accepted, and one that stays pending.
      const memberEmail = uniqueEmail('member');
      const invitation = await api.post(
        '/memberships',
        { data: { email: memberEmail, role: 'MEMBER' } },
        ownerToken,
      );
      expect(invitation.status).toBe(201);
      const invitationToken: string = invitation.body.data.invitationToken;
      secrets.invitationTokens.push(invitationToken);

      const pending = await api.post(
        '/memberships',
        { data: { email: uniqueEmail('pending'), role: 'VIEWER' } },
        ownerToken,
      );
      expect(pending.status).toBe(201);
      secrets.invitationTokens.push(pending.body.data.invitationToken);

      // The invitation token tried for another email, then accepted.
      failed(
        'sign-up with an invitation for another email',
        await signup(
          uniqueEmail('intruder'),
          secretWord('intruder-password'),
          invitationToken,
        ),
        400,
      );
      const memberPassword = secretWord('member-password');
      expect(
        (await signup(memberEmail, memberPassword, invitationToken)).status,
      ).toBe(201);
      const memberTokenResponse = await requestToken(
        memberEmail,
        memberPassword,
      );
      expect(memberTokenResponse.status).toBe(200);
      const memberToken: string = memberTokenResponse.body.data.accessToken;
      secrets.accessTokens.push(memberToken);
      expect((await api.get('/projects', memberToken)).status).toBe(200);
      const memberKey = await api.post(
        '/api-keys',
        { data: { name: 'laptop' } },
        memberToken,
      );
      expect(memberKey.status).toBe(201);
      secrets.apiKeys.push(memberKey.body.data.key);

      // Failing requests that carry secrets.
      failed(
        'token with a wrong password',
        await requestToken(ownerEmail, secretWord('wrong-password')),
        401,
      );
      failed(
        'token for an unknown email',
        await requestToken(
          uniqueEmail('nobody'),
          secretWord('nobody-password'),
        ),
        401,
      );
      const bogusInvitation = `idi_${randomBytes(24).toString('base64url')}`;
      secrets.invitationTokens.push(bogusInvitation);
      failed(
        'sign-up with an unknown invitation token',
        await signup(
          uniqueEmail('bogus'),
          secretWord('bogus-password'),
          bogusInvitation,
        ),
        400,
      );
      failed(
        'sign-up that fails validation',
        await signup('not-an-email', secretWord('invalid-signup-password')),
        400,
      );
      failed(
        'sign-up with an email that exists',
        await signup(ownerEmail, secretWord('duplicate-password')),
        409,
      );

      const revoked = await api.delete(
        `/api-keys/${ownerKey.body.data.id}`,
        ownerToken,
      );
      expect(revoked.status).toBe(204);
      failed(
        'request with a revoked API key',
        await api.get(`/projects/${project.body.data.id}`, ownerKeyValue),
        401,
      );
      const tamperedKey = `${ownerKeyValue.slice(0, -1)}${
        ownerKeyValue.endsWith('A') ? 'B' : 'A'
      }`;
      secrets.apiKeys.push(tamperedKey);
      failed(
        'request with a key with a wrong checksum',
        await api.get('/projects', tamperedKey),
        401,
      );
      const tamperedToken = `${ownerToken.slice(0, -2)}xx`;
      secrets.accessTokens.push(tamperedToken);
      failed(
        'request with a tampered access token',
        await api.get('/projects', tamperedToken),
        401,
      );

      await forgeLogin(ownerToken);
      await cloudOnboarding(ownerToken);

      // Every list a caller can read.
      for (const path of [
        '/api-keys',
        '/memberships',
        '/projects',
        '/service-accounts',
        '/gitforge/self-hosted',
        '/cloud-accounts',
      ]) {
        await list(path, ownerToken);
      }
      await list('/api-keys', memberToken);
      await list(
        `/api-keys?ownerType=SERVICE_ACCOUNT&ownerId=${account.body.data.id}`,
        ownerToken,
      );
      await list('/memberships', memberToken);
    }

    /** A self-hosted forge with its OAuth client secret, and an OAuth login to it. */
    async function forgeLogin(ownerToken: string) {
      secrets.oauth.push(forge.clientSecret);
      const server = await api.post(
        '/gitforge/self-hosted',
        {
          data: {
            name: 'GitHub Enterprise',
            baseUrl: `${forge.baseUrl}/`,
            clientId: forge.clientId,
            clientSecret: forge.clientSecret,
          },
        },
        ownerToken,
      );
      expect(server.status).toBe(201);
      const login = await api.get(
        `/gitforge/self-hosted/${server.body.data.id}/login`,
        ownerToken,
      );
      expect(login.status).toBe(302);
      const state = new URL(login.headers.location).searchParams.get('state')!;
      const { code, accessToken } = forge.issueCode();
      secrets.oauth.push(state, code, accessToken);
      expect(
        (
          await api.get(
            `/gitforge/self-hosted/oauth/callback?${new URLSearchParams({
              code,
              state,
            })}`,
            ownerToken,
          )
        ).status,
      ).toBe(200);
      // The forge's token is used for a listing, and the same code refused a second time.
      forge.addRepositories('acme', 3);
      expect(
        (
          await api.get(
            `/gitforge/self-hosted/namespaces/acme/repositories?${new URLSearchParams(
              { serverId: server.body.data.id, namespaceType: 'ORGANIZATION' },
            )}`,
            ownerToken,
          )
        ).status,
      ).toBe(200);
      const replayed = await api.get(
        `/gitforge/self-hosted/oauth/callback?${new URLSearchParams({
          code,
          state,
        })}`,
        ownerToken,
      );
      expect(replayed.status).toBeGreaterThanOrEqual(400);
      errorResponses.push({
        what: 'replayed OAuth callback',
        body: replayed.body,
      });
    }

    /** A cloud account onboarded through its signed template link and onboarding JWT. */
    async function cloudOnboarding(ownerToken: string) {
      const account = await api.post(
        '/cloud-accounts',
        { data: { givenId: 'aws', name: 'AWS', cloudId: '123456789012' } },
        ownerToken,
      );
      expect(account.status).toBe(201);
      const link = await api.get(
        `/cloud-accounts/${account.body.data.id}/template-url`,
        ownerToken,
      );
      expect(link.status).toBe(200);
      const templateUrl = new URL(link.body.data.templateUrl);
      secrets.onboarding.push(templateUrl.searchParams.get('signature')!);
      const template = await api.get(
        `${templateUrl.pathname.slice(BASE.length)}${templateUrl.search}`,
      );
      expect(template.status).toBe(200);
      const onboardingToken: string = parseCloudFormation(template.text)
        .Parameters.OnboardingToken.Default;
      secrets.onboarding.push(onboardingToken);
      const callback = (token: string) =>
        api.post('/cloud-accounts/onboarding-callback', {
          data: {
            cloudAccountId: account.body.data.id,
            token,
            roleArn: 'arn:aws:iam::123456789012:role/InfraDeliveryAccess-1A2B',
            stackId:
              'arn:aws:cloudformation:eu-west-1:123456789012:stack/infra-delivery-x/4a5b6c7d',
          },
        });
      expect((await callback(onboardingToken)).status).toBe(200);
      const replayed = await callback(onboardingToken);
      expect(replayed.status).toBeGreaterThanOrEqual(400);
      errorResponses.push({
        what: 'replayed onboarding JWT',
        body: replayed.body,
      });
    }

    it('captured the log output of the flow', () => {
      // The capturing logger is wired in: the auditor's events of the flow reached it.
      const messages = logLines.map(line => JSON.parse(line).message);
      expect(messages).toEqual(
        expect.arrayContaining([
          'infra-delivery.signup',
          'infra-delivery.api-key-create',
          'infra-delivery.api-key-revoke',
          'infra-delivery.membership-invite',
        ]),
      );
      expect(secrets.passwords.length).toBeGreaterThanOrEqual(8);
      expect(secrets.apiKeys.length).toBe(4);
      expect(secrets.accessTokens.length).toBe(3);
      expect(secrets.invitationTokens.length).toBe(3);
      expect(secrets.oauth.length).toBe(4);
      expect(secrets.onboarding.length).toBe(2);
    });

    it('logs no password, API key, access token, invitation token, OAuth secret or onboarding JWT', () => {
      const output = [...logLines, ...consoleLines];
      for (const secret of allSecrets()) {
        const leaks = output.filter(line => line.includes(secret));
        expect({ secret, leaks }).toEqual({ secret, leaks: [] });
      }
    });

    it('logs no stored password or token hash either', async () => {
      const hashes = [
        ...(await knex('users').whereNotNull('password_hash')).map(
          row => row.password_hash as string,
        ),
        ...(
          await knex('memberships').whereNotNull('invitation_token_hash')
        ).map(row => row.invitation_token_hash as string),
        ...(await knex('api_keys')).map(row => row.secret_hash as string),
      ];
      expect(hashes.length).toBeGreaterThan(0);
      const output = [...logLines, ...consoleLines];
      for (const hash of hashes) {
        expect(output.filter(line => line.includes(hash))).toEqual([]);
      }
    });

    it('never returns a secret in a list response', () => {
      expect(listResponses.length).toBeGreaterThan(0);
      for (const { path, body } of listResponses) {
        const text = JSON.stringify(body);
        for (const secret of allSecrets()) {
          expect({ path, leaked: text.includes(secret) }).toEqual({
            path,
            leaked: false,
          });
        }
        const secretFields = keysOf(body).filter(key =>
          /password|hash|secret|^key$|invitationToken|accessToken/i.test(key),
        );
        expect({ path, secretFields }).toEqual({ path, secretFields: [] });
      }
    });

    it('lists the keys and invitations themselves, by suffix and email only', () => {
      const keys = listResponses.find(r => r.path === '/api-keys')!.body as {
        data: { keySuffix: string }[];
      };
      // The two live keys (the owner's was revoked), each shown by its last characters only.
      expect(keys.data.map(k => k.keySuffix).sort()).toEqual(
        secrets.apiKeys
          .slice(1, 3)
          .map(key => key.slice(-4))
          .sort(),
      );
      const members = listResponses.find(r => r.path === '/memberships')!
        .body as { data: unknown[] };
      expect(members.data).toHaveLength(3);
    });

    it('never echoes a secret in an error response', () => {
      expect(errorResponses.length).toBeGreaterThan(0);
      for (const { what, body } of errorResponses) {
        const text = JSON.stringify(body);
        const echoed = allSecrets().filter(secret => text.includes(secret));
        expect({ what, echoed }).toEqual({ what, echoed: [] });
      }
    });
  },
);
