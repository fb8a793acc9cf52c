import {
  CloudWatchClient,
  CloudWatchServiceException,
  GetMetricDataCommand,
} from '@aws-sdk/client-cloudwatch';
import {
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { mockServices } from '@backstage/backend-test-utils';
import {
  cloudAccountSchema,
  cloudAccountTemplateUrlSchema,
  cloudMetricSchema,
  errorBodySchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { mockClient } from 'aws-sdk-client-mock';
import { Knex } from 'knex';
import request from 'supertest';
import { parseCloudFormation } from '../__testUtils__/cloudFormationYaml';
import { expectStatus } from '../__testUtils__/pipelineFixtures';
import {
  BASE,
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';
import { OnboardingTokens } from '../cloud/onboardingTokens';
import { latestRolePolicy } from '../cloud/rolePolicy';
import { TemplateUrlSigner } from '../cloud/templateUrls';

jest.setTimeout(60_000);

const databases = createTestDatabases();
const HOUR = 3600_000;

let accountCounter = 0;
function nextAccount() {
  accountCounter += 1;
  return {
    givenId: `aws-${accountCounter}`,
    name: `AWS ${accountCounter}`,
    cloudId: String(100000000000 + accountCounter),
  };
}

/** The ErrorBody code of an answer, after checking its status. */
function errorCode(response: request.Response, status: number): string {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: expect.anything(),
  });
  return errorBodySchema.parse(response.body).code;
}

/** A URL the plugin built from its external base URL, as a path for the test client. */
function pluginPath(url: string): string {
  const parsed = new URL(url);
  expect(parsed.pathname.startsWith(BASE)).toBe(true);
  return `${parsed.pathname.slice(BASE.length)}${parsed.search}`;
}

/** The `(organization, cache key) → value` store behind a spy of the Backstage cache. */
function spyCache() {
  const values = new Map<string, unknown>();
  const cache = mockServices.cache.mock({
    get: async (key: string) => values.get(key) as any,
    set: async (key: string, value: unknown) => {
      values.set(key, value);
    },
    delete: async (key: string) => {
      values.delete(key);
    },
  });
  const metricSets = () =>
    cache.set.mock.calls.filter(([key]) => key.startsWith('cloud-metric:'));
  return { cache, values, metricSets };
}

describe.each(databases.eachSupportedId())(
  'cloud account routes on %s',
  databaseId => {
    let knex: Knex;
    let api: InfraDeliveryTestClient;
    const auditor = mockServices.auditor.mock();
    const cache = spyCache();

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex, {
        extraFeatures: [auditor.factory, cache.cache.factory],
      });
    });

    async function createAccount(owner: { token: string }) {
      const created = await api.post(
        '/cloud-accounts',
        { data: nextAccount() },
        owner.token,
      );
      expectStatus(created, 201);
      return created.body.data;
    }

    async function templateUrlOf(owner: { token: string }, id: string) {
      const response = await api.get(
        `/cloud-accounts/${id}/template-url`,
        owner.token,
      );
      expectStatus(response, 200);
      return response.body.data;
    }

    /** Downloads the template behind a template URL, without any credential. */
    async function downloadTemplate(templateUrl: string) {
      const response = await api.get(pluginPath(templateUrl));
      expectStatus(response, 200);
      return parseCloudFormation(response.text);
    }

    async function onboardingToken(owner: { token: string }, id: string) {
      const { templateUrl } = await templateUrlOf(owner, id);
      const template = await downloadTemplate(templateUrl);
      return template.Parameters.OnboardingToken.Default as string;
    }

    function callback(
      account: { id: string; cloudId: string },
      token: string,
      overrides: Record<string, string> = {},
    ) {
      return api.post('/cloud-accounts/onboarding-callback', {
        data: {
          cloudAccountId: account.id,
          token,
          roleArn: `arn:aws:iam::${account.cloudId}:role/InfraDeliveryAccess-1A2B`,
          stackId: `arn:aws:cloudformation:eu-west-1:${account.cloudId}:stack/infra-delivery-x/4a5b6c7d`,
          ...overrides,
        },
      });
    }

    async function secretKey(name: string): Promise<Buffer> {
      const row = await knex('service_secrets').where({ name }).first();
      return Buffer.from(row.value, 'base64');
    }

    function auditedEvents(): string[] {
      return auditor.createEvent.mock.calls.map(([event]) => event.eventId);
    }

    describe('CRUD', () => {
      it('creates an account awaiting connection, with the latest role version', async () => {
        const owner = await api.signup();
        const input = nextAccount();

        const created = await api.post(
          '/cloud-accounts',
          { data: input },
          owner.token,
        );

        expect(created.status).toBe(201);
        expect(created.body.data).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          givenId: input.givenId,
          name: input.name,
          cloudId: input.cloudId,
          status: 'AWAITING_CONNECTION',
          latestRoleVersion: latestRolePolicy.version,
          latestRoleVersionDescription: latestRolePolicy.description,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(cloudAccountSchema.parse(created.body.data)).toEqual(
          created.body.data,
        );
        expect(auditor.createEvent).toHaveBeenCalledWith(
          expect.objectContaining({
            eventId: 'cloud-account-create',
            meta: expect.objectContaining({
              organizationId: owner.organizationId,
              givenId: input.givenId,
            }),
          }),
        );

        const fetched = await api.get(
          `/cloud-accounts/${created.body.data.id}`,
          owner.token,
        );
        expect(fetched.status).toBe(200);
        expect(fetched.body).toEqual({ data: created.body.data });
      });

      it('lists the accounts of the organization newest first, page by page', async () => {
        const owner = await api.signup();
        const ids = [];
        for (let i = 0; i < 3; i++) {
          ids.push((await createAccount(owner)).id);
        }
        const other = await api.signup();
        await createAccount(other);

        const first = await api.get('/cloud-accounts?limit=2', owner.token);
        expect(first.status).toBe(200);
        expect(first.body.meta).toEqual({
          limit: 2,
          nextCursor: expect.any(String),
          totalCount: 3,
        });
        const all = await api.walk('/cloud-accounts', owner.token, 2);
        expect(all.map(a => a.id)).toEqual([...ids].reverse());
      });

      it('renames an account', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);

        const renamed = await api.patch(
          `/cloud-accounts/${account.id}`,
          { data: { name: '  Payments production  ' } },
          owner.token,
        );

        expect(renamed.status).toBe(200);
        expect(renamed.body.data).toEqual({
          ...account,
          name: 'Payments production',
          updatedAt: expect.any(String),
        });
        expect(
          new Date(renamed.body.data.updatedAt) >= new Date(account.updatedAt),
        ).toBe(true);
        const fetched = await api.get(
          `/cloud-accounts/${account.id}`,
          owner.token,
        );
        expect(fetched.body.data.name).toBe('Payments production');
      });

      it('deletes an account', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);

        const deleted = await api.delete(
          `/cloud-accounts/${account.id}`,
          owner.token,
        );

        expect(deleted.status).toBe(204);
        expect(
          errorCode(
            await api.get(`/cloud-accounts/${account.id}`, owner.token),
            404,
          ),
        ).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
        const list = await api.get('/cloud-accounts', owner.token);
        expect(list.body.meta.totalCount).toBe(0);
        expect(auditedEvents()).toContain('cloud-account-delete');
        expect(
          errorCode(
            await api.delete(`/cloud-accounts/${account.id}`, owner.token),
            404,
          ),
        ).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
      });

      it.each([
        ['a cloud id of 11 digits', { cloudId: '12345678901' }, 'cloudId'],
        ['a cloud id with letters', { cloudId: '12345678901a' }, 'cloudId'],
        ['a givenId with capitals', { givenId: 'Prod_Account' }, 'givenId'],
        ['a blank name', { name: '   ' }, 'name'],
      ])('refuses %s', async (_case, overrides, field) => {
        const owner = await api.signup();
        const response = await api.post(
          '/cloud-accounts',
          { data: { ...nextAccount(), ...overrides } },
          owner.token,
        );
        expect(errorCode(response, 400)).toBe(
          'InfraDelivery:Request:VALIDATION_FAILED',
        );
        expect(response.body.details[0].items).toEqual([
          expect.stringContaining(`body.data.${field}`),
        ]);
      });

      it('refuses a rename without a name, and a givenId taken in the organization', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        expect(
          errorCode(
            await api.patch(
              `/cloud-accounts/${account.id}`,
              { data: {} },
              owner.token,
            ),
            400,
          ),
        ).toBe('InfraDelivery:Request:VALIDATION_FAILED');

        const taken = await api.post(
          '/cloud-accounts',
          {
            data: {
              givenId: account.givenId,
              name: 'Again',
              cloudId: '999999999999',
            },
          },
          owner.token,
        );
        expect(errorCode(taken, 409)).toBe(
          'InfraDelivery:CloudAccount:GIVEN_ID_TAKEN',
        );

        // Another organization may use the same givenId.
        const other = await api.signup();
        const elsewhere = await api.post(
          '/cloud-accounts',
          { data: { ...nextAccount(), givenId: account.givenId } },
          other.token,
        );
        expect(elsewhere.status).toBe(201);
      });

      it('registers an AWS account once per organization (409 naming the existing account)', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);

        const again = await api.post(
          '/cloud-accounts',
          {
            data: {
              givenId: 'again',
              name: 'Again',
              cloudId: account.cloudId,
            },
          },
          owner.token,
        );
        expect(errorCode(again, 409)).toBe(
          'InfraDelivery:CloudAccount:CLOUD_ID_TAKEN',
        );
        expect(again.body.message).toBe(
          `AWS account ${account.cloudId} is registered already, as cloud account ${account.givenId} ("${account.name}")`,
        );
        expect(again.body.metadata).toEqual({
          cloudId: account.cloudId,
          cloudAccountId: account.id,
          givenId: account.givenId,
        });

        // Two registrations at once: one wins.
        const cloudId = nextAccount().cloudId;
        const racing = await Promise.all(
          ['race-1', 'race-2', 'race-3'].map(givenId =>
            api.post(
              '/cloud-accounts',
              { data: { givenId, name: givenId, cloudId } },
              owner.token,
            ),
          ),
        );
        expect(racing.map(r => r.status).sort()).toEqual([201, 409, 409]);

        const listed = await api.get('/cloud-accounts', owner.token);
        expect(listed.body.meta.totalCount).toBe(2);

        // Another organization may register the same AWS account.
        const other = await api.signup();
        const elsewhere = await api.post(
          '/cloud-accounts',
          { data: { ...nextAccount(), cloudId: account.cloudId } },
          other.token,
        );
        expect(elsewhere.status).toBe(201);
      });
    });

    describe('access', () => {
      let owner: TestOrganization;
      let account: { id: string; cloudId: string };

      beforeAll(async () => {
        owner = await api.signup();
        account = await createAccount(owner);
      });

      it('answers 401 without a credential', async () => {
        for (const response of [
          await api.get('/cloud-accounts'),
          await api.post('/cloud-accounts', { data: nextAccount() }),
          await api.get(`/cloud-accounts/${account.id}`),
          await api.get(`/cloud-accounts/${account.id}/template-url`),
          await api.post(`/cloud-accounts/${account.id}/connect-local`, {}),
          await api.get(
            `/cloud/metrics/metric?cloudAccountId=${account.id}&region=eu-west-1`,
          ),
        ]) {
          expect(errorCode(response, 401)).toBe(
            'InfraDelivery:Auth:MISSING_CREDENTIAL',
          );
        }
      });

      it('lets a VIEWER read, and only an ADMIN change accounts', async () => {
        const viewer = await api.member(owner, 'VIEWER');
        const member = await api.member(owner, 'MEMBER');
        const admin = await api.member(owner, 'ADMIN');

        expect(
          (await api.get(`/cloud-accounts/${account.id}`, viewer.token)).status,
        ).toBe(200);
        expect((await api.get('/cloud-accounts', viewer.token)).status).toBe(
          200,
        );
        for (const token of [viewer.token, member.token]) {
          for (const response of [
            await api.post('/cloud-accounts', { data: nextAccount() }, token),
            await api.patch(
              `/cloud-accounts/${account.id}`,
              { data: { name: 'x' } },
              token,
            ),
            await api.delete(`/cloud-accounts/${account.id}`, token),
            await api.get(`/cloud-accounts/${account.id}/template-url`, token),
            await api.post(
              `/cloud-accounts/${account.id}/connect-local`,
              {},
              token,
            ),
          ]) {
            expect(errorCode(response, 403)).toBe(
              'InfraDelivery:Auth:INSUFFICIENT_ROLE',
            );
          }
        }
        const created = await api.post(
          '/cloud-accounts',
          { data: nextAccount() },
          admin.token,
        );
        expect(created.status).toBe(201);
        expect(
          (
            await api.get(
              `/cloud-accounts/${account.id}/template-url`,
              admin.token,
            )
          ).status,
        ).toBe(200);
      });

      it("answers another organization's account exactly like a missing one", async () => {
        const stranger = await api.signup();
        const paths = [
          ['get', `/cloud-accounts/${account.id}`],
          ['patch', `/cloud-accounts/${account.id}`],
          ['delete', `/cloud-accounts/${account.id}`],
          ['get', `/cloud-accounts/${account.id}/template-url`],
          ['post', `/cloud-accounts/${account.id}/connect-local`],
        ] as const;
        for (const [method, path] of paths) {
          const response =
            method === 'get' || method === 'delete'
              ? await api[method](path, stranger.token)
              : await api[method](
                  path,
                  { data: { name: 'x' } },
                  stranger.token,
                );
          expect(errorCode(response, 404)).toBe(
            'InfraDelivery:CloudAccount:NOT_FOUND',
          );
          expect(response.body.message).toBe(
            `CloudAccount ${account.id} was not found`,
          );
        }
        const list = await api.get('/cloud-accounts', stranger.token);
        expect(list.body.data).toEqual([]);
        // Nothing changed for the owner.
        const fetched = await api.get(
          `/cloud-accounts/${account.id}`,
          owner.token,
        );
        expect(fetched.status).toBe(200);
        expect(fetched.body.data.name).not.toBe('x');
      });
    });

    describe('onboarding', () => {
      it('issues a signed template URL, without a quick-create link when no bucket publishes templates', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        const before = Math.floor(Date.now() / 1000);

        const response = await api.get(
          `/cloud-accounts/${account.id}/template-url`,
          owner.token,
        );

        expect(response.status).toBe(200);
        const body = cloudAccountTemplateUrlSchema.parse(response.body.data);
        // The console reads templateURL from S3 only: a link to the plugin would not open.
        expect(Object.keys(response.body.data).sort()).toEqual([
          'templateUrl',
          'version',
        ]);
        expect(body.version).toBe(latestRolePolicy.version);
        const url = new URL(body.templateUrl);
        expect(url.pathname).toBe(
          `${BASE}/cloud-accounts/${account.id}/onboarding-template`,
        );
        expect(url.searchParams.get('version')).toBe(latestRolePolicy.version);
        const expires = Number(url.searchParams.get('expires'));
        expect(expires).toBeGreaterThanOrEqual(before + 86400);
        expect(expires).toBeLessThanOrEqual(before + 86400 + 5);
        expect(url.searchParams.get('signature')).toMatch(/^[\w-]{43}$/);
        expect(auditedEvents()).toContain('cloud-account-template-issue');
      });

      it('serves the template behind the URL without a credential, with a fresh one-time token', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        const { templateUrl } = await templateUrlOf(owner, account.id);

        const response = await api.get(pluginPath(templateUrl));

        expect(response.status).toBe(200);
        expect(response.headers['content-type']).toMatch(
          /^application\/x-yaml/,
        );
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['content-disposition']).toBe(
          `attachment; filename="infra-delivery-onboarding-${account.id}.yaml"`,
        );
        const template = parseCloudFormation(response.text);
        const { Parameters: parameters, Resources: resources } = template;
        expect(parameters.CloudAccountId.Default).toBe(account.id);
        expect(parameters.ExternalId.Default).toMatch(/^[\w-]{32}$/);
        expect(parameters.OnboardingToken.Default).toMatch(
          /^[\w-]+\.[\w-]+\.[\w-]+$/,
        );
        expect(
          resources.CrossAccountRole.Properties.AssumeRolePolicyDocument
            .Statement[0].Condition,
        ).toEqual({
          StringEquals: { 'sts:ExternalId': { Ref: 'ExternalId' } },
        });
        expect(resources.Connection.Properties.CallbackUrl).toBe(
          `${
            new URL(templateUrl).origin
          }${BASE}/cloud-accounts/onboarding-callback`,
        );

        // The external id is the account's own and stays; the token is new each time.
        const again = await downloadTemplate(templateUrl);
        expect(again.Parameters.ExternalId.Default).toBe(
          parameters.ExternalId.Default,
        );
        expect(again.Parameters.OnboardingToken.Default).not.toBe(
          parameters.OnboardingToken.Default,
        );
        const otherAccount = await createAccount(owner);
        const other = await downloadTemplate(
          (
            await templateUrlOf(owner, otherAccount.id)
          ).templateUrl,
        );
        expect(other.Parameters.ExternalId.Default).not.toBe(
          parameters.ExternalId.Default,
        );
      });

      it('refuses a tampered template URL', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        const other = await createAccount(owner);
        const url = new URL(
          (await templateUrlOf(owner, account.id)).templateUrl,
        );
        const signature = url.searchParams.get('signature')!;

        const variants: Array<[string, (u: URL) => void]> = [
          [
            'signature',
            u =>
              u.searchParams.set(
                'signature',
                `${signature.slice(0, -1)}${
                  signature.endsWith('A') ? 'B' : 'A'
                }`,
              ),
          ],
          [
            'expiry',
            u =>
              u.searchParams.set(
                'expires',
                String(Number(u.searchParams.get('expires')) + 86400),
              ),
          ],
          ['version', u => u.searchParams.set('version', '1')],
          [
            'account',
            u => {
              u.pathname = u.pathname.replace(account.id, other.id);
            },
          ],
        ];
        for (const [part, tamper] of variants) {
          const tampered = new URL(url);
          tamper(tampered);
          const response = await api.get(pluginPath(tampered.toString()));
          expect({ part, code: errorCode(response, 403) }).toEqual({
            part,
            code: 'InfraDelivery:CloudAccountTemplate:INVALID_SIGNATURE',
          });
          expect(response.text).not.toContain('OnboardingToken');
        }
        const unsigned = new URL(url);
        unsigned.searchParams.delete('signature');
        expect(
          errorCode(await api.get(pluginPath(unsigned.toString())), 400),
        ).toBe('InfraDelivery:Request:VALIDATION_FAILED');
      });

      it('refuses an expired template URL even with a valid signature', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        await templateUrlOf(owner, account.id);
        const signer = new TemplateUrlSigner(
          await secretKey('cloud-template-url-key'),
        );
        const expires = Math.floor(Date.now() / 1000) - 1;
        const version = latestRolePolicy.version;
        const signature = signer.sign({
          cloudAccountId: account.id,
          version,
          expires,
        });

        const response = await api.get(
          `/cloud-accounts/${account.id}/onboarding-template?version=${version}&expires=${expires}&signature=${signature}`,
        );

        expect(errorCode(response, 403)).toBe(
          'InfraDelivery:CloudAccountTemplate:URL_EXPIRED',
        );
        // The same signer's URL one hour ahead is accepted: the refusal was the expiry.
        const valid = {
          cloudAccountId: account.id,
          version,
          expires: expires + 3600,
        };
        expect(
          (
            await api.get(
              `/cloud-accounts/${
                account.id
              }/onboarding-template?version=${version}&expires=${
                valid.expires
              }&signature=${signer.sign(valid)}`,
            )
          ).status,
        ).toBe(200);
      });

      it('connects the account through the callback with the role, version and stack', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        const token = await onboardingToken(owner, account.id);

        const connected = await callback(account, token);

        expect(connected.status).toBe(200);
        expect(connected.body.data).toEqual({
          ...account,
          status: 'CONNECTED',
          cloudRef: `arn:aws:iam::${account.cloudId}:role/InfraDeliveryAccess-1A2B`,
          roleVersion: latestRolePolicy.version,
          templateStackId: `arn:aws:cloudformation:eu-west-1:${account.cloudId}:stack/infra-delivery-x/4a5b6c7d`,
          updatedAt: expect.any(String),
        });
        const fetched = await api.get(
          `/cloud-accounts/${account.id}`,
          owner.token,
        );
        expect(fetched.body.data).toEqual(connected.body.data);
        expect(auditor.createEvent).toHaveBeenCalledWith(
          expect.objectContaining({
            eventId: 'cloud-account-connect',
            meta: expect.objectContaining({
              organizationId: owner.organizationId,
              cloudAccountId: account.id,
              via: 'onboarding-callback',
            }),
          }),
        );
        // The template URL now names the stack that created the role.
        const templateUrl = await templateUrlOf(owner, account.id);
        expect(templateUrl.templateStackId).toBe(
          connected.body.data.templateStackId,
        );
      });

      it('refuses a replayed token', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        const token = await onboardingToken(owner, account.id);
        expect((await callback(account, token)).status).toBe(200);

        const replay = await callback(account, token, {
          roleArn: `arn:aws:iam::${account.cloudId}:role/Attacker`,
        });

        expect(errorCode(replay, 409)).toBe(
          'InfraDelivery:CloudAccount:ONBOARDING_TOKEN_USED',
        );
        const fetched = await api.get(
          `/cloud-accounts/${account.id}`,
          owner.token,
        );
        expect(fetched.body.data.cloudRef).toBe(
          `arn:aws:iam::${account.cloudId}:role/InfraDeliveryAccess-1A2B`,
        );
      });

      it("refuses a token issued for another account, and another organization's", async () => {
        const owner = await api.signup();
        const first = await createAccount(owner);
        const second = await createAccount(owner);
        const stranger = await api.signup();
        const foreign = await createAccount(stranger);
        const token = await onboardingToken(owner, first.id);

        for (const target of [second, foreign]) {
          const response = await callback(
            { id: target.id, cloudId: target.cloudId },
            token,
          );
          expect(errorCode(response, 401)).toBe(
            'InfraDelivery:CloudAccount:INVALID_ONBOARDING_TOKEN',
          );
        }
        const fetched = await api.get(
          `/cloud-accounts/${second.id}`,
          owner.token,
        );
        expect(fetched.body.data.status).toBe('AWAITING_CONNECTION');
        // The refused attempts did not use the token up.
        expect((await callback(first, token)).status).toBe(200);
      });

      it('refuses a tampered or expired token', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        const token = await onboardingToken(owner, account.id);
        const [header, payload, signature] = token.split('.');
        const forged = Buffer.from(
          JSON.stringify({
            ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
            ver: '99',
          }),
        ).toString('base64url');

        expect(
          errorCode(
            await callback(account, `${header}.${forged}.${signature}`),
            401,
          ),
        ).toBe('InfraDelivery:CloudAccount:INVALID_ONBOARDING_TOKEN');

        const issuer = new OnboardingTokens(
          await secretKey('cloud-onboarding-token-key'),
        );
        const expired = await issuer.issue(
          {
            cloudAccountId: account.id,
            organizationId: owner.organizationId,
            roleVersion: latestRolePolicy.version,
          },
          new Date(Date.now() - 2 * HOUR),
        );
        expect(errorCode(await callback(account, expired), 401)).toBe(
          'InfraDelivery:CloudAccount:ONBOARDING_TOKEN_EXPIRED',
        );
        const fetched = await api.get(
          `/cloud-accounts/${account.id}`,
          owner.token,
        );
        expect(fetched.body.data.status).toBe('AWAITING_CONNECTION');
      });

      it('refuses a role or stack of another AWS account without using the token', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        const token = await onboardingToken(owner, account.id);

        const wrongRole = await callback(account, token, {
          roleArn: 'arn:aws:iam::999999999999:role/Elsewhere',
        });
        expect(errorCode(wrongRole, 400)).toBe(
          'InfraDelivery:CloudAccount:OTHER_AWS_ACCOUNT',
        );
        const wrongStack = await callback(account, token, {
          stackId: 'arn:aws:cloudformation:eu-west-1:999999999999:stack/x/1234',
        });
        expect(errorCode(wrongStack, 400)).toBe(
          'InfraDelivery:CloudAccount:OTHER_AWS_ACCOUNT',
        );
        expect(
          errorCode(
            await callback(account, token, { roleArn: 'not-an-arn' }),
            400,
          ),
        ).toBe('InfraDelivery:Request:VALIDATION_FAILED');

        expect((await callback(account, token)).status).toBe(200);
      });

      it('refuses a second connection at the same version, and upgrades an older role', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);
        expect(
          (await callback(account, await onboardingToken(owner, account.id)))
            .status,
        ).toBe(200);

        const again = await callback(
          account,
          await onboardingToken(owner, account.id),
        );
        expect(errorCode(again, 409)).toBe(
          'InfraDelivery:CloudAccount:ALREADY_CONNECTED',
        );

        // The account was connected before version 2 existed.
        await knex('cloud_accounts')
          .where({ id: account.id })
          .update({ role_version: '1' });
        const older = await api.get(
          `/cloud-accounts/${account.id}`,
          owner.token,
        );
        expect(older.body.data).toMatchObject({
          status: 'CONNECTED',
          roleVersion: '1',
          latestRoleVersion: '2',
        });
        const offer = await templateUrlOf(owner, account.id);
        expect(offer.version).toBe('2');
        const template = await downloadTemplate(offer.templateUrl);
        expect(
          template.Resources.CrossAccountRole.Properties.Policies[0].PolicyName,
        ).toBe('infra-delivery-v2');

        const upgraded = await callback(
          account,
          template.Parameters.OnboardingToken.Default,
          { roleArn: `arn:aws:iam::${account.cloudId}:role/Upgraded` },
        );

        expect(upgraded.status).toBe(200);
        expect(upgraded.body.data).toMatchObject({
          status: 'CONNECTED',
          roleVersion: '2',
          cloudRef: `arn:aws:iam::${account.cloudId}:role/Upgraded`,
        });
      });

      it('connects through the local driver with the same checks', async () => {
        const owner = await api.signup();
        const account = await createAccount(owner);

        const connected = await api.post(
          `/cloud-accounts/${account.id}/connect-local`,
          {},
          owner.token,
        );

        expect(connected.status).toBe(200);
        expect(connected.body.data).toEqual({
          ...account,
          status: 'CONNECTED',
          cloudRef: `arn:aws:iam::${account.cloudId}:role/infra-delivery/local-driver`,
          roleVersion: latestRolePolicy.version,
          templateStackId: `arn:aws:cloudformation:us-east-1:${account.cloudId}:stack/infra-delivery-${account.givenId}/${account.id}`,
          updatedAt: expect.any(String),
        });
        expect(auditor.createEvent).toHaveBeenCalledWith(
          expect.objectContaining({
            eventId: 'cloud-account-connect',
            meta: expect.objectContaining({
              cloudAccountId: account.id,
              via: 'local-driver',
            }),
          }),
        );
        const again = await api.post(
          `/cloud-accounts/${account.id}/connect-local`,
          {},
          owner.token,
        );
        expect(errorCode(again, 409)).toBe(
          'InfraDelivery:CloudAccount:ALREADY_CONNECTED',
        );
      });

      it('serves connect-local only with the local driver', async () => {
        const awsApi = await startInfraDeliveryBackend(knex, {
          config: {
            infraDelivery: {
              cloud: {
                driver: 'aws',
                platformPrincipalArn:
                  'arn:aws:iam::999999999999:role/infra-delivery-platform',
                region: 'eu-central-1',
              },
            },
          },
        });
        const owner = await awsApi.signup();
        const created = await awsApi.post(
          '/cloud-accounts',
          { data: nextAccount() },
          owner.token,
        );
        expect(created.status).toBe(201);
        const account = created.body.data;

        const response = await awsApi.post(
          `/cloud-accounts/${account.id}/connect-local`,
          {},
          owner.token,
        );

        expect(errorCode(response, 404)).toBe('InfraDelivery:Route:NOT_FOUND');
        const offer = await awsApi.get(
          `/cloud-accounts/${account.id}/template-url`,
          owner.token,
        );
        expect(offer.body.data.quickCreateUrl).toBeUndefined();
        const template = parseCloudFormation(
          (await awsApi.get(pluginPath(offer.body.data.templateUrl))).text,
        );
        expect(
          template.Resources.CrossAccountRole.Properties
            .AssumeRolePolicyDocument.Statement[0].Principal,
        ).toEqual({
          AWS: 'arn:aws:iam::999999999999:role/infra-delivery-platform',
        });
      });
    });

    describe('with the AWS driver and a template bucket', () => {
      const s3 = mockClient(S3Client);
      const sts = mockClient(STSClient);
      const cloudWatch = mockClient(CloudWatchClient);
      const platformCredentials = {
        AWS_ACCESS_KEY_ID: 'AKIAPLATFORMEXAMPLE',
        AWS_SECRET_ACCESS_KEY: 'platform-secret',
      };
      const savedEnv: Record<string, string | undefined> = {};
      const SEVEN_DAYS = 7 * 24 * 3600;
      let awsApi: InfraDeliveryTestClient;

      beforeAll(async () => {
        // The platform's own credentials come from the default chain; the presigner signs with them.
        for (const [name, value] of Object.entries(platformCredentials)) {
          savedEnv[name] = process.env[name];
          process.env[name] = value;
        }
        awsApi = await startInfraDeliveryBackend(knex, {
          config: {
            infraDelivery: {
              cloud: {
                driver: 'aws',
                platformPrincipalArn:
                  'arn:aws:iam::999999999999:role/infra-delivery-platform',
                region: 'eu-central-1',
                templateUrlTtlSeconds: SEVEN_DAYS,
                templateBucket: {
                  bucket: 'acme-onboarding',
                  keyPrefix: 'portal/templates',
                },
              },
            },
          },
          extraFeatures: [auditor.factory],
        });
      });

      afterAll(() => {
        for (const [name, value] of Object.entries(savedEnv)) {
          if (value === undefined) {
            delete process.env[name];
          } else {
            process.env[name] = value;
          }
        }
        s3.restore();
        sts.restore();
        cloudWatch.restore();
      });

      beforeEach(() => {
        s3.reset();
        sts.reset();
        cloudWatch.reset();
      });

      async function awsAccount(owner: { token: string }) {
        const created = await awsApi.post(
          '/cloud-accounts',
          { data: nextAccount() },
          owner.token,
        );
        expectStatus(created, 201);
        return created.body.data;
      }

      it('uploads the account template to S3 and links quick-create to a presigned URL', async () => {
        s3.on(PutObjectCommand).resolves({});
        const owner = await awsApi.signup();
        const account = await awsAccount(owner);
        const before = Math.floor(Date.now() / 1000);

        const response = await awsApi.get(
          `/cloud-accounts/${account.id}/template-url`,
          owner.token,
        );

        expect(response.status).toBe(200);
        const body = cloudAccountTemplateUrlSchema.parse(response.body.data);
        expect(Object.keys(response.body.data).sort()).toEqual([
          'quickCreateUrl',
          'templateUrl',
          'version',
        ]);
        const key = `portal/templates/${account.id}/onboarding-v${latestRolePolicy.version}.yaml`;
        const puts = s3.commandCalls(PutObjectCommand);
        expect(puts).toHaveLength(1);
        const put = puts[0].args[0].input;
        expect(put).toMatchObject({
          Bucket: 'acme-onboarding',
          Key: key,
          ContentType: 'application/x-yaml',
          CacheControl: 'no-store',
        });
        expect(put.ACL).toBeUndefined();
        const published = parseCloudFormation(put.Body as string);
        expect(published.Parameters.CloudAccountId.Default).toBe(account.id);
        expect(
          published.Resources.CrossAccountRole.Properties
            .AssumeRolePolicyDocument.Statement[0].Principal,
        ).toEqual({
          AWS: 'arn:aws:iam::999999999999:role/infra-delivery-platform',
        });

        // The plugin's own signed URL stays, with the same expiry as the S3 link.
        const pluginUrl = new URL(body.templateUrl);
        expect(pluginUrl.pathname).toBe(
          `${BASE}/cloud-accounts/${account.id}/onboarding-template`,
        );
        const expires = Number(pluginUrl.searchParams.get('expires'));
        expect(expires - before).toBeGreaterThanOrEqual(SEVEN_DAYS);

        const quick = new URL(body.quickCreateUrl!);
        expect(`${quick.origin}${quick.pathname}`).toBe(
          'https://console.aws.amazon.com/cloudformation/home',
        );
        expect(quick.searchParams.get('region')).toBe('eu-central-1');
        const fragment = new URLSearchParams(quick.hash.split('?')[1]);
        expect(fragment.get('stackName')).toBe(
          `infra-delivery-${account.givenId}`,
        );
        const s3Url = new URL(fragment.get('templateURL')!);
        expect(s3Url.hostname).toBe(
          'acme-onboarding.s3.eu-central-1.amazonaws.com',
        );
        expect(decodeURIComponent(s3Url.pathname)).toBe(`/${key}`);
        const s3Expires = Number(s3Url.searchParams.get('X-Amz-Expires'));
        expect(s3Expires).toBeLessThanOrEqual(604800);
        expect(s3Expires).toBeGreaterThanOrEqual(SEVEN_DAYS - 5);
        expect(s3Url.searchParams.get('X-Amz-Credential')).toMatch(
          /^AKIAPLATFORMEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request$/,
        );
        expect(s3Url.searchParams.get('X-Amz-Signature')).toMatch(
          /^[0-9a-f]{64}$/,
        );
        expect(auditor.createEvent).toHaveBeenCalledWith(
          expect.objectContaining({
            eventId: 'cloud-account-template-issue',
            meta: expect.objectContaining({
              cloudAccountId: account.id,
              publishedToS3: true,
            }),
          }),
        );

        // The published token connects this account once, for as long as the link lives.
        const token = published.Parameters.OnboardingToken.Default as string;
        const exp = JSON.parse(
          Buffer.from(token.split('.')[1], 'base64url').toString(),
        ).exp;
        expect(Math.abs(exp - expires)).toBeLessThanOrEqual(5);
        const connected = await awsApi.post(
          '/cloud-accounts/onboarding-callback',
          {
            data: {
              cloudAccountId: account.id,
              token,
              roleArn: `arn:aws:iam::${account.cloudId}:role/InfraDeliveryAccess-1A2B`,
              stackId: `arn:aws:cloudformation:eu-central-1:${account.cloudId}:stack/infra-delivery-x/4a5b6c7d`,
            },
          },
        );
        expect(connected.status).toBe(200);
        expect(connected.body.data.status).toBe('CONNECTED');
      });

      it('answers an S3 AccessDenied as a clear ErrorBody naming the bucket', async () => {
        s3.on(PutObjectCommand).rejects(
          new S3ServiceException({
            name: 'AccessDenied',
            $fault: 'client',
            $metadata: { httpStatusCode: 403 },
            message:
              'User: arn:aws:iam::999999999999:role/platform is not authorized to perform: s3:PutObject',
          }),
        );
        const owner = await awsApi.signup();
        const account = await awsAccount(owner);

        const response = await awsApi.get(
          `/cloud-accounts/${account.id}/template-url`,
          owner.token,
        );

        expect(errorCode(response, 500)).toBe(
          'InfraDelivery:CloudAccountTemplate:PUBLICATION_DENIED',
        );
        expect(response.body).toMatchObject({
          message:
            'AWS denied the service writing the onboarding template to S3 bucket acme-onboarding',
          description: expect.stringContaining('s3:PutObject'),
          metadata: {
            bucket: 'acme-onboarding',
            key: `portal/templates/${account.id}/onboarding-v${latestRolePolicy.version}.yaml`,
            awsErrorCode: 'AccessDenied',
          },
          requestId: expect.any(String),
        });
        expect(response.text).not.toMatch(/\bat .+\.(js|ts):\d+/);
      });

      describe('metrics of a connected account', () => {
        let owner: TestOrganization;
        let account: { id: string; givenId: string; cloudId: string };

        beforeAll(async () => {
          s3.reset();
          s3.on(PutObjectCommand).resolves({});
          owner = await awsApi.signup();
          account = await awsAccount(owner);
          const offer = await awsApi.get(
            `/cloud-accounts/${account.id}/template-url`,
            owner.token,
          );
          expectStatus(offer, 200);
          const template = parseCloudFormation(
            (await awsApi.get(pluginPath(offer.body.data.templateUrl))).text,
          );
          expectStatus(
            await awsApi.post('/cloud-accounts/onboarding-callback', {
              data: {
                cloudAccountId: account.id,
                token: template.Parameters.OnboardingToken.Default,
                roleArn: `arn:aws:iam::${account.cloudId}:role/InfraDeliveryAccess-1A2B`,
                stackId: `arn:aws:cloudformation:eu-central-1:${account.cloudId}:stack/infra-delivery-x/4a5b6c7d`,
              },
            }),
            200,
          );
        });

        function metricPath() {
          const hourStart = Math.floor(Date.now() / HOUR) * HOUR;
          const params = new URLSearchParams({
            cloudAccountId: account.id,
            region: 'eu-west-1',
            namespace: 'AWS/ECS',
            metricName: 'CPUUtilization',
            statistic: 'average',
            period: '3600',
            startTime: new Date(hourStart - 30 * HOUR).toISOString(),
            endTime: new Date(hourStart - 24 * HOUR).toISOString(),
          });
          return `/cloud/metrics/metric?${params.toString()}`;
        }

        function assumedRole() {
          sts.on(AssumeRoleCommand).resolves({
            Credentials: {
              AccessKeyId: 'ASIAROLE',
              SecretAccessKey: 'secret',
              SessionToken: 'session',
              Expiration: new Date(Date.now() + HOUR),
            },
          });
        }

        it('answers CloudWatch throttling with 503, Retry-After and an ErrorBody', async () => {
          assumedRole();
          cloudWatch.on(GetMetricDataCommand).rejects(
            new CloudWatchServiceException({
              name: 'ThrottlingException',
              $fault: 'client',
              $metadata: { httpStatusCode: 400 },
              message: 'Rate exceeded',
            }),
          );

          const response = await awsApi.get(metricPath(), owner.token);

          expect(errorCode(response, 503)).toBe(
            'InfraDelivery:CloudProvider:THROTTLED',
          );
          expect(response.headers['retry-after']).toBe('5');
          expect(response.body.metadata).toMatchObject({
            retryAfterSeconds: 5,
            cloudAccountId: account.id,
          });
          expect(response.body.message).toContain(account.givenId);
          const [assume] = sts.commandCalls(AssumeRoleCommand);
          expect(assume.args[0].input).toMatchObject({
            RoleArn: `arn:aws:iam::${account.cloudId}:role/InfraDeliveryAccess-1A2B`,
            ExternalId: expect.stringMatching(/^[\w-]{32}$/),
          });
        });

        it('answers a role that may not read CloudWatch with an error on the account', async () => {
          assumedRole();
          cloudWatch.on(GetMetricDataCommand).rejects(
            new CloudWatchServiceException({
              name: 'AccessDenied',
              $fault: 'client',
              $metadata: { httpStatusCode: 403 },
              message: 'not authorized to perform: cloudwatch:GetMetricData',
            }),
          );

          const response = await awsApi.get(metricPath(), owner.token);

          expect(errorCode(response, 422)).toBe(
            'InfraDelivery:CloudAccount:ACCESS_DENIED',
          );
          expect(response.body.message).toBe(
            `AWS denied cloudwatch:GetMetricData for cloud account ${account.givenId} (AWS account ${account.cloudId})`,
          );
          expect(response.body.description).toContain('template-url');
        });
      });
    });

    describe('metrics', () => {
      let owner: TestOrganization;
      let connected: { id: string };
      let awaiting: { id: string };
      const hourStart = Math.floor(Date.now() / HOUR) * HOUR;
      const fixedRange = {
        startTime: new Date(hourStart - 48 * HOUR).toISOString(),
        endTime: new Date(hourStart - 42 * HOUR).toISOString(),
      };

      function metricPath(
        account: { id: string },
        overrides: Record<string, string | number> = {},
        dimensions: string[] = ['ClusterName=prod', 'ServiceName=web'],
      ) {
        const params = new URLSearchParams({
          cloudAccountId: account.id,
          region: 'eu-west-1',
          namespace: 'AWS/ECS',
          metricName: 'CPUUtilization',
          statistic: 'average',
          period: '3600',
          ...fixedRange,
        });
        for (const [name, value] of Object.entries(overrides)) {
          params.set(name, String(value));
        }
        for (const dimension of dimensions) {
          params.append('dimension', dimension);
        }
        return `/cloud/metrics/metric?${params.toString()}`;
      }

      beforeAll(async () => {
        owner = await api.signup();
        connected = await createAccount(owner);
        expectStatus(
          await api.post(
            `/cloud-accounts/${connected.id}/connect-local`,
            {},
            owner.token,
          ),
          200,
        );
        awaiting = await createAccount(owner);
      });

      it('answers the series unwrapped, one point per period of the inclusive range', async () => {
        const response = await api.get(metricPath(connected), owner.token);

        expect(response.status).toBe(200);
        expect(Object.keys(response.body).sort()).toEqual([
          'datapoints',
          'source',
          'unit',
        ]);
        const metric = cloudMetricSchema.parse(response.body);
        expect(metric.unit).toBe('Percent');
        // The local driver says its series is its own, not CloudWatch's.
        expect(metric.source).toBe('local');
        expect(metric.datapoints.map(d => d.timestamp)).toEqual(
          Array.from({ length: 7 }, (_, i) =>
            new Date(hourStart - (48 - i) * HOUR).toISOString(),
          ),
        );
        for (const point of metric.datapoints) {
          expect(point.min).toBeLessThanOrEqual(point.value);
          expect(point.value).toBeLessThanOrEqual(point.max);
        }

        const fiveMinutes = await api.get(
          metricPath(connected, { period: 300 }),
          owner.token,
        );
        expect(fiveMinutes.body.datapoints).toHaveLength(6 * 12 + 1);
      });

      it('lets a VIEWER read metrics', async () => {
        const viewer = await api.member(owner, 'VIEWER');
        const response = await api.get(
          metricPath(connected, { statistic: 'Maximum' }),
          viewer.token,
        );
        expect(response.status).toBe(200);
        expect(response.body.datapoints).toHaveLength(7);
      });

      it('serves a repeated query from the cache for 5 minutes when the range is fixed', async () => {
        const path = metricPath(connected, { statistic: 'Sum' });
        const setsBefore = cache.metricSets().length;

        const first = await api.get(path, owner.token);
        expect(first.status).toBe(200);
        const stored = cache.metricSets().slice(setsBefore);
        expect(stored).toHaveLength(1);
        const [, value, options] = stored[0];
        expect(options).toEqual({ ttl: 300_000 });
        expect(value).toEqual({
          metric: first.body,
          expiresAtMs: expect.any(Number),
        });
        const { expiresAtMs } = value as { expiresAtMs: number };
        expect(expiresAtMs - Date.now()).toBeGreaterThan(290_000);
        expect(expiresAtMs - Date.now()).toBeLessThanOrEqual(300_000);

        // Answered again without asking the provider: nothing new is stored.
        const second = await api.get(path, owner.token);
        expect(second.status).toBe(200);
        expect(second.body).toEqual(first.body);
        expect(cache.metricSets().length).toBe(setsBefore + 1);

        // The same query with its dimensions in another order is the same entry.
        const reordered = await api.get(
          metricPath(connected, { statistic: 'SUM' }, [
            'ServiceName=web',
            'ClusterName=prod',
          ]),
          owner.token,
        );
        expect(reordered.body).toEqual(first.body);
        expect(cache.metricSets().length).toBe(setsBefore + 1);

        // Another organization never reads this organization's entry.
        const stranger = await api.signup();
        expect(
          errorCode(
            await api.get(
              metricPath(connected, { statistic: 'Sum' }),
              stranger.token,
            ),
            404,
          ),
        ).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
      });

      it('caches a range that ends now for 60 s', async () => {
        const now = Date.now();
        const setsBefore = cache.metricSets().length;
        const response = await api.get(
          metricPath(connected, {
            period: 60,
            startTime: new Date(now - HOUR).toISOString(),
            endTime: new Date(now).toISOString(),
          }),
          owner.token,
        );
        expect(response.status).toBe(200);
        expect(response.body.datapoints.length).toBeGreaterThanOrEqual(59);
        const stored = cache.metricSets().slice(setsBefore);
        expect(stored.map(([, , options]) => options)).toEqual([
          { ttl: 60_000 },
        ]);
      });

      it('gives other dimensions another series', async () => {
        const web = await api.get(metricPath(connected), owner.token);
        const worker = await api.get(
          metricPath(connected, {}, ['ClusterName=prod', 'ServiceName=worker']),
          owner.token,
        );
        expect(worker.status).toBe(200);
        expect(worker.body.datapoints.map((d: any) => d.value)).not.toEqual(
          web.body.datapoints.map((d: any) => d.value),
        );
      });

      it.each([
        [
          'a period that is not a multiple of 60',
          { period: 90 },
          'MetricQuery:PERIOD_NOT_WHOLE_MINUTES',
        ],
        [
          'a period below the floor of the window',
          {
            period: 60,
            startTime: new Date(Date.now() - 20 * 24 * HOUR).toISOString(),
          },
          'MetricQuery:PERIOD_BELOW_GRANULARITY_FLOOR',
        ],
        [
          'an end in the future',
          { endTime: new Date(Date.now() + 10 * 60_000).toISOString() },
          'MetricQuery:END_IN_FUTURE',
        ],
        [
          'a start after the end',
          {
            startTime: new Date(Date.now() - HOUR).toISOString(),
            endTime: new Date(Date.now() - 2 * HOUR).toISOString(),
          },
          'MetricQuery:START_NOT_BEFORE_END',
        ],
        [
          'a start beyond the retention',
          {
            startTime: new Date(Date.now() - 456 * 24 * HOUR).toISOString(),
            endTime: new Date(Date.now() - 400 * 24 * HOUR).toISOString(),
          },
          'MetricQuery:START_BEYOND_RETENTION',
        ],
        [
          'an unknown statistic',
          { statistic: 'median' },
          'MetricQuery:UNKNOWN_STATISTIC',
        ],
        [
          'a malformed region',
          { region: 'moon-1' },
          'Request:VALIDATION_FAILED',
        ],
      ])(
        'refuses %s with a 400 naming the rule',
        async (_case, overrides, code) => {
          const before = cache.metricSets().length;
          const response = await api.get(
            metricPath(connected, overrides),
            owner.token,
          );
          expect(errorCode(response, 400)).toBe(`InfraDelivery:${code}`);
          expect(cache.metricSets().length).toBe(before);
        },
      );

      it('refuses malformed and too many dimensions', async () => {
        expect(
          errorCode(
            await api.get(
              metricPath(connected, {}, ['ClusterName']),
              owner.token,
            ),
            400,
          ),
        ).toBe('InfraDelivery:MetricQuery:INVALID_DIMENSION');
        const many = Array.from({ length: 31 }, (_, i) => `D${i}=v`);
        expect(
          errorCode(
            await api.get(metricPath(connected, {}, many), owner.token),
            400,
          ),
        ).toBe('InfraDelivery:MetricQuery:TOO_MANY_DIMENSIONS');
        expect(
          (
            await api.get(
              metricPath(connected, {}, many.slice(0, 30)),
              owner.token,
            )
          ).status,
        ).toBe(200);
      });

      it('refuses an account that is not connected, and an unknown one', async () => {
        expect(
          errorCode(await api.get(metricPath(awaiting), owner.token), 409),
        ).toBe('InfraDelivery:CloudAccount:NOT_CONNECTED');
        expect(
          errorCode(
            await api.get(metricPath({ id: 'no-such-account' }), owner.token),
            404,
          ),
        ).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
      });
    });
  },
);
