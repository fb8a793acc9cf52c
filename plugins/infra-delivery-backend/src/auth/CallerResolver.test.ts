import { randomBytes } from 'node:crypto';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { BackstageUserPrincipal } from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { JsonObject } from '@backstage/types';
import { Knex } from 'knex';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';
import { createStores } from '../database/stores';
import { AccessTokenIssuer } from './accessTokens';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const ALICE = 'user:default/alice';

/** Portal access as the brief's deployment configures it; the test rate limits stay lifted. */
function portalConfig(extra: JsonObject = {}): JsonObject {
  return {
    infraDelivery: {
      roleMappings: [{ entityRef: ALICE, role: 'ADMIN' }],
      defaultRole: 'VIEWER',
      rateLimits: {
        signup: { limit: 100000 },
        tokenPerAddress: { limit: 100000 },
      },
      ...extra,
    },
  };
}

let refCounter = 0;
function uniqueUserRef(name: string): string {
  refCounter += 1;
  return `user:default/${name}-${Date.now()}-${refCounter}`;
}

let givenIdCounter = 0;
function uniqueGivenId(name: string): string {
  givenIdCounter += 1;
  return `${name}-${Date.now()}-${givenIdCounter}`;
}

describe.each(databases.eachSupportedId())(
  'CallerResolver on %s',
  databaseId => {
    let knex: Knex;
    let api: InfraDeliveryTestClient;
    let aliceToken: string;

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex, { config: portalConfig() });
      aliceToken = api.backstageUserToken(ALICE);
    });

    /** Every membership of the portal organization, as its ADMIN alice sees them. */
    async function portalMemberships(): Promise<any[]> {
      return api.walk('/memberships', aliceToken, 100);
    }

    async function usersWithBackstageRef(ref: string): Promise<number> {
      const [{ count }] = await knex('users')
        .where({ backstage_user_ref: ref })
        .count({ count: '*' });
      return Number(count);
    }

    async function createProject(token: string, name = 'project') {
      const response = await api.post(
        '/projects',
        { data: { givenId: uniqueGivenId(name), name } },
        token,
      );
      expect(response.status).toBe(201);
      return response.body.data;
    }

    describe('Backstage user tokens', () => {
      it('provisions a portal user into the portal organization on first use, once', async () => {
        const ref = uniqueUserRef('first-use');
        const token = api.backstageUserToken(ref);
        expect(await usersWithBackstageRef(ref)).toBe(0);

        const first = await api.get('/organizations/current', token);
        expect(first.status).toBe(200);
        expect(first.body.data.name).toBe('Portal');

        const aliceOrganization = await api.get(
          '/organizations/current',
          aliceToken,
        );
        expect(aliceOrganization.body.data.id).toBe(first.body.data.id);

        const second = await api.get('/organizations/current', token);
        expect(second.status).toBe(200);
        expect(second.body.data.id).toBe(first.body.data.id);

        const memberships = (await portalMemberships()).filter(
          m => m.email === ref,
        );
        expect(memberships).toEqual([
          expect.objectContaining({
            organizationId: first.body.data.id,
            role: 'VIEWER',
            userId: expect.any(String),
          }),
        ]);
        expect(await usersWithBackstageRef(ref)).toBe(1);
      });

      it('gives two concurrent first requests one membership', async () => {
        const refs = [1, 2, 3].map(() => uniqueUserRef('concurrent'));
        for (const ref of refs) {
          const token = api.backstageUserToken(ref);
          const responses = await Promise.all([
            api.get('/projects', token),
            api.get('/projects', token),
          ]);
          expect(responses.map(r => r.status)).toEqual([200, 200]);
        }

        const memberships = await portalMemberships();
        for (const ref of refs) {
          expect(memberships.filter(m => m.email === ref)).toHaveLength(1);
          expect(await usersWithBackstageRef(ref)).toBe(1);
        }
      });

      it('gives a mapped user the mapped role and an unmapped user the default role', async () => {
        const created = await api.post(
          '/projects',
          { data: { givenId: uniqueGivenId('alice'), name: 'Alice' } },
          aliceToken,
        );
        expect(created.status).toBe(201);

        const bystander = api.backstageUserToken(uniqueUserRef('bystander'));
        const refused = await api.post(
          '/projects',
          { data: { givenId: uniqueGivenId('bystander'), name: 'Nope' } },
          bystander,
        );
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
        expect(refused.body.metadata).toEqual({
          requiredRole: 'MEMBER',
          role: 'VIEWER',
        });

        // A VIEWER still reads.
        const listed = await api.get('/projects', bystander);
        expect(listed.status).toBe(200);
        expect(listed.body.data.map((p: { id: string }) => p.id)).toContain(
          created.body.data.id,
        );

        const memberships = await portalMemberships();
        expect(memberships.find(m => m.email === ALICE)?.role).toBe('ADMIN');
      });
    });

    describe('Backstage service tokens', () => {
      it('act in the portal organization with the default service role VIEWER', async () => {
        const project = await createProject(aliceToken, 'for-services');
        const serviceToken = mockCredentials.service.token();

        const listed = await api.walk('/projects', serviceToken, 100);
        expect(listed.map(p => p.id)).toContain(project.id);
        const read = await api.get(`/projects/${project.id}`, serviceToken);
        expect(read.status).toBe(200);
        expect(read.body.data.organizationId).toBe(project.organizationId);

        const write = await api.post(
          '/projects',
          { data: { givenId: uniqueGivenId('service'), name: 'Service' } },
          serviceToken,
        );
        expect(write.status).toBe(403);
        expect(write.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
        expect(write.body.metadata).toEqual({
          requiredRole: 'MEMBER',
          role: 'VIEWER',
        });
      });

      it('are not provisioned as portal users', async () => {
        const before = await portalMemberships();
        await api.get('/projects', mockCredentials.service.token());
        expect(await portalMemberships()).toHaveLength(before.length);
      });
    });

    describe('credentials that are missing or not valid', () => {
      let owner: TestOrganization;
      let membershipId: string;

      beforeAll(async () => {
        owner = await api.signup();
        const members = await api.get('/memberships', owner.token);
        membershipId = members.body.data[0].id;
      });

      async function signingKey(): Promise<Buffer> {
        return createStores(knex).serviceSecrets.getOrCreate(
          'access-token-signing-key',
        );
      }

      it('answers a request without an Authorization header with 401 MISSING_CREDENTIAL', async () => {
        const response = await api.get('/projects');
        expect(response.status).toBe(401);
        expect(response.body.code).toBe(
          'InfraDelivery:Auth:MISSING_CREDENTIAL',
        );
        expect(response.body.requestId).toEqual(expect.any(String));
      });

      it('answers a non-Bearer Authorization header with 401 MISSING_CREDENTIAL', async () => {
        const response = await api
          .get('/projects')
          .set('authorization', 'Basic dXNlcjpwYXNz');
        expect(response.status).toBe(401);
        expect(response.body.code).toBe(
          'InfraDelivery:Auth:MISSING_CREDENTIAL',
        );
      });

      it('answers "Bearer garbage" with 401', async () => {
        const response = await api.get('/projects', 'garbage');
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('InfraDelivery:Auth:INVALID_TOKEN');
      });

      it('answers an invalid Backstage user token with 401', async () => {
        const response = await api.get(
          '/projects',
          mockCredentials.user.invalidToken(),
        );
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('InfraDelivery:Auth:INVALID_TOKEN');
      });

      it('accepts an access token signed with the service key', async () => {
        const issuer = new AccessTokenIssuer(await signingKey());
        const { accessToken } = await issuer.issue({
          organizationId: owner.organizationId,
          membershipId,
        });
        const response = await api.get('/organizations/current', accessToken);
        expect(response.status).toBe(200);
        expect(response.body.data.id).toBe(owner.organizationId);
      });

      it('answers an access token signed with another key with 401 INVALID_TOKEN', async () => {
        const forger = new AccessTokenIssuer(randomBytes(32));
        const { accessToken } = await forger.issue({
          organizationId: owner.organizationId,
          membershipId,
        });
        const response = await api.get('/organizations/current', accessToken);
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('InfraDelivery:Auth:INVALID_TOKEN');
      });

      it('answers an expired access token with 401 TOKEN_EXPIRED', async () => {
        const issuer = new AccessTokenIssuer(await signingKey());
        const { accessToken, expiresAt } = await issuer.issue(
          { organizationId: owner.organizationId, membershipId },
          new Date(Date.now() - 2 * 3600_000),
        );
        expect(new Date(expiresAt).getTime()).toBeLessThan(Date.now());
        const response = await api.get('/organizations/current', accessToken);
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('InfraDelivery:Auth:TOKEN_EXPIRED');
      });

      it('answers a well-signed access token for an unknown membership with 401 INVALID_TOKEN', async () => {
        const issuer = new AccessTokenIssuer(await signingKey());
        const { accessToken } = await issuer.issue({
          organizationId: owner.organizationId,
          membershipId: 'no-such-membership',
        });
        const response = await api.get('/organizations/current', accessToken);
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('InfraDelivery:Auth:INVALID_TOKEN');
      });

      it('answers a well-signed access token naming another organization with 401 INVALID_TOKEN', async () => {
        const other = await api.signup();
        const issuer = new AccessTokenIssuer(await signingKey());
        const { accessToken } = await issuer.issue({
          organizationId: other.organizationId,
          membershipId,
        });
        const response = await api.get('/organizations/current', accessToken);
        expect(response.status).toBe(401);
        expect(response.body.code).toBe('InfraDelivery:Auth:INVALID_TOKEN');
      });
    });

    describe('tenancy between the portal and signed-up organizations', () => {
      it('never shows a portal user and a signed-up organization each other’s projects', async () => {
        const owner = await api.signup();
        const portalProject = await createProject(aliceToken, 'portal');
        const ownProject = await createProject(owner.token, 'own');
        expect(portalProject.organizationId).not.toBe(owner.organizationId);
        expect(ownProject.organizationId).toBe(owner.organizationId);

        const aliceReadsOwn = await api.get(
          `/projects/${ownProject.id}`,
          aliceToken,
        );
        expect(aliceReadsOwn.status).toBe(404);
        expect(aliceReadsOwn.body.code).toBe('InfraDelivery:Project:NOT_FOUND');

        const ownerReadsPortal = await api.get(
          `/projects/${portalProject.id}`,
          owner.token,
        );
        expect(ownerReadsPortal.status).toBe(404);
        expect(ownerReadsPortal.body.code).toBe(
          'InfraDelivery:Project:NOT_FOUND',
        );

        const serviceReadsOwn = await api.get(
          `/projects/${ownProject.id}`,
          mockCredentials.service.token(),
        );
        expect(serviceReadsOwn.status).toBe(404);

        const aliceList = await api.walk('/projects', aliceToken, 100);
        expect(aliceList.map(p => p.id)).toContain(portalProject.id);
        expect(aliceList.map(p => p.id)).not.toContain(ownProject.id);
        expect(
          aliceList.every(
            p => p.organizationId === portalProject.organizationId,
          ),
        ).toBe(true);

        const ownerList = await api.walk('/projects', owner.token, 100);
        expect(ownerList.map(p => p.id)).toEqual([ownProject.id]);

        // Neither can change or delete the other's project.
        const aliceDeletes = await api.delete(
          `/projects/${ownProject.id}`,
          aliceToken,
        );
        expect(aliceDeletes.status).toBe(404);
        const ownerPatches = await api.patch(
          `/projects/${portalProject.id}`,
          { data: { name: 'Taken over' } },
          owner.token,
        );
        expect(ownerPatches.status).toBe(404);
        const stillThere = await api.get(
          `/projects/${ownProject.id}`,
          owner.token,
        );
        expect(stillThere.status).toBe(200);
        expect(
          (await api.get(`/projects/${portalProject.id}`, aliceToken)).body.data
            .name,
        ).toBe('portal');
      });
    });

    describe('with the permission framework denying', () => {
      let denied: InfraDeliveryTestClient;
      let deniedKnex: Knex;

      beforeAll(async () => {
        deniedKnex = await databases.init(databaseId);
        denied = await startInfraDeliveryBackend(deniedKnex, {
          config: portalConfig(),
          permissionResult: AuthorizeResult.DENY,
        });
      });

      it('refuses a mapped ADMIN portal user writes and reads with 403 PERMISSION_DENIED', async () => {
        const token = denied.backstageUserToken(ALICE);
        const write = await denied.post(
          '/projects',
          { data: { givenId: uniqueGivenId('denied'), name: 'Denied' } },
          token,
        );
        expect(write.status).toBe(403);
        expect(write.body.code).toBe('InfraDelivery:Auth:PERMISSION_DENIED');
        expect(write.body.metadata).toEqual({
          permission: 'infra-delivery.resource.write',
        });

        // Reads check the read permission as well: the policy narrows them too.
        const read = await denied.get('/projects', token);
        expect(read.status).toBe(403);
        expect(read.body.code).toBe('InfraDelivery:Auth:PERMISSION_DENIED');

        // The role check passed: the user was provisioned as the ADMIN the mapping names.
        const memberships = await deniedKnex('memberships').where({
          email: ALICE,
        });
        expect(memberships).toHaveLength(1);
        expect(memberships[0].role).toBe('ADMIN');
      });

      it('does not apply the policy to callers that are not portal users', async () => {
        const owner = await denied.signup();
        const write = await denied.post(
          '/projects',
          { data: { givenId: uniqueGivenId('own'), name: 'Own' } },
          owner.token,
        );
        expect(write.status).toBe(201);

        const service = await denied.get(
          '/projects',
          mockCredentials.service.token(),
        );
        expect(service.status).toBe(200);
      });
    });

    describe('with infraDelivery.serviceRole and group mappings', () => {
      let configured: InfraDeliveryTestClient;

      beforeAll(async () => {
        const groups: Record<string, string[]> = {
          'user:default/bob': [
            'group:default/platform',
            'group:default/admins',
          ],
          'user:default/carol': ['group:default/platform'],
        };
        const userInfo = mockServices.userInfo.mock({
          async getUserInfo(credentials) {
            const { userEntityRef } =
              credentials.principal as BackstageUserPrincipal;
            return {
              userEntityRef,
              ownershipEntityRefs: [
                userEntityRef,
                ...(groups[userEntityRef] ?? []),
              ],
            };
          },
        });
        configured = await startInfraDeliveryBackend(
          await databases.init(databaseId),
          {
            config: portalConfig({
              serviceRole: 'MEMBER',
              defaultRole: 'VIEWER',
              roleMappings: [
                { entityRef: 'group:default/platform', role: 'MEMBER' },
                { entityRef: 'Group:default/Admins', role: 'ADMIN' },
              ],
            }),
            extraFeatures: [userInfo.factory],
          },
        );
      });

      it('lets a service token write with the configured service role', async () => {
        const response = await configured.post(
          '/projects',
          { data: { givenId: uniqueGivenId('service'), name: 'Service' } },
          mockCredentials.service.token(),
        );
        expect(response.status).toBe(201);
      });

      it('maps groups, case-insensitively, and gives the strongest matching role', async () => {
        const bob = configured.backstageUserToken('user:default/bob');
        const carol = configured.backstageUserToken('user:default/carol');
        const dave = configured.backstageUserToken('user:default/dave');

        const members = await configured.walk('/memberships', bob, 100);
        expect(members.find(m => m.email === 'user:default/bob')?.role).toBe(
          'ADMIN',
        );

        const carolWrites = await configured.post(
          '/projects',
          { data: { givenId: uniqueGivenId('carol'), name: 'Carol' } },
          carol,
        );
        expect(carolWrites.status).toBe(201);
        const daveWrites = await configured.post(
          '/projects',
          { data: { givenId: uniqueGivenId('dave'), name: 'Dave' } },
          dave,
        );
        expect(daveWrites.status).toBe(403);

        const roles = Object.fromEntries(
          (await configured.walk('/memberships', bob, 100)).map(m => [
            m.email,
            m.role,
          ]),
        );
        expect(roles).toMatchObject({
          'user:default/bob': 'ADMIN',
          'user:default/carol': 'MEMBER',
          'user:default/dave': 'VIEWER',
        });
      });
    });
  },
);
