import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'service account routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    async function createAccount(
      owner: TestOrganization,
      data: Record<string, unknown>,
    ) {
      const response = await api.post(
        '/service-accounts',
        { data },
        owner.token,
      );
      expect(response.status).toBe(201);
      return response.body.data;
    }

    /** The owner's own membership id, as GET /memberships lists it. */
    async function ownMembershipId(owner: TestOrganization): Promise<string> {
      const members = await api.get('/memberships', owner.token);
      return members.body.data.find(
        (m: { userId?: string }) => m.userId === owner.userId,
      ).id;
    }

    it('answers 401 without a credential', async () => {
      const owner = await api.signup();
      const account = await createAccount(owner, {
        name: 'runner',
        role: 'MEMBER',
      });
      for (const response of [
        await api.get('/service-accounts'),
        await api.get(`/service-accounts/${account.id}`),
        await api.post('/service-accounts', {
          data: { name: 'x', role: 'VIEWER' },
        }),
        await api.delete(`/service-accounts/${account.id}`),
      ]) {
        expect(response.status).toBe(401);
        expect(response.body.code).toBe(
          'InfraDelivery:Auth:MISSING_CREDENTIAL',
        );
      }
    });

    it('creates, lists, gets and deletes a service account', async () => {
      const owner = await api.signup();
      const created = await api.post(
        '/service-accounts',
        {
          data: {
            name: '  deploy runner  ',
            description: 'Runs the pipelines',
            role: 'MEMBER',
          },
        },
        owner.token,
      );
      expect(created.status).toBe(201);
      const account = created.body.data;
      expect(account).toEqual({
        id: expect.any(String),
        organizationId: owner.organizationId,
        name: 'deploy runner',
        description: 'Runs the pipelines',
        role: 'MEMBER',
        createdById: await ownMembershipId(owner),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });

      const fetched = await api.get(
        `/service-accounts/${account.id}`,
        owner.token,
      );
      expect(fetched.status).toBe(200);
      expect(fetched.body.data).toEqual(account);

      const listed = await api.get('/service-accounts', owner.token);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({
        data: [account],
        meta: { limit: 50, totalCount: 1 },
      });

      const deleted = await api.delete(
        `/service-accounts/${account.id}`,
        owner.token,
      );
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');

      const gone = await api.get(
        `/service-accounts/${account.id}`,
        owner.token,
      );
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe('InfraDelivery:ServiceAccount:NOT_FOUND');

      const again = await api.delete(
        `/service-accounts/${account.id}`,
        owner.token,
      );
      expect(again.status).toBe(404);
      expect(again.body.code).toBe('InfraDelivery:ServiceAccount:NOT_FOUND');

      const empty = await api.get('/service-accounts', owner.token);
      expect(empty.body).toEqual({
        data: [],
        meta: { limit: 50, totalCount: 0 },
      });
    });

    it('refuses the OWNER role in the body (400)', async () => {
      const owner = await api.signup();
      const response = await api.post(
        '/service-accounts',
        { data: { name: 'almighty', role: 'OWNER' } },
        owner.token,
      );
      expect(response.status).toBe(400);
      const body = errorBodySchema.parse(response.body);
      expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
      expect(body.details?.[0].items).toEqual([
        expect.stringContaining('body.data.role'),
      ]);

      const listed = await api.get('/service-accounts', owner.token);
      expect(listed.body.data).toEqual([]);
    });

    it('validates the body', async () => {
      const owner = await api.signup();
      const response = await api.post(
        '/service-accounts',
        { data: { name: '   ', description: 'x'.repeat(4001) } },
        owner.token,
      );
      expect(response.status).toBe(400);
      const body = errorBodySchema.parse(response.body);
      expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
      expect(body.details?.[0].items).toEqual([
        expect.stringContaining('body.data.name'),
        expect.stringContaining('body.data.description'),
        expect.stringContaining('body.data.role'),
      ]);

      const noData = await api.post(
        '/service-accounts',
        { name: 'runner', role: 'MEMBER' },
        owner.token,
      );
      expect(noData.status).toBe(400);
      expect(noData.body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');

      const badLimit = await api.get('/service-accounts?limit=0', owner.token);
      expect(badLimit.status).toBe(400);
      expect(badLimit.body.code).toBe(
        'InfraDelivery:Request:VALIDATION_FAILED',
      );

      const badCursor = await api.get(
        '/service-accounts?cursor=not-a-cursor',
        owner.token,
      );
      expect(badCursor.status).toBe(400);
      expect(badCursor.body.code).toBe('InfraDelivery:Request:INVALID_CURSOR');
    });

    it('refuses a name in use in the organization with 409 NAME_TAKEN, and takes it in another', async () => {
      const owner = await api.signup();
      await createAccount(owner, { name: 'Build hosts', role: 'MEMBER' });

      const again = await api.post(
        '/service-accounts',
        { data: { name: 'Build hosts', role: 'VIEWER' } },
        owner.token,
      );
      expect(again.status).toBe(409);
      const body = errorBodySchema.parse(again.body);
      expect(body.code).toBe('InfraDelivery:ServiceAccount:NAME_TAKEN');
      expect(body.message).toBe(
        'A service account named "Build hosts" exists already',
      );
      const listed = await api.get('/service-accounts', owner.token);
      expect(listed.body.data).toHaveLength(1);

      const stranger = await api.signup();
      expect(
        (await createAccount(stranger, { name: 'Build hosts', role: 'MEMBER' }))
          .name,
      ).toBe('Build hosts');
    });

    it('lets only an OWNER create an ADMIN service account', async () => {
      const owner = await api.signup();
      const admin = await api.member(owner, 'ADMIN');

      const byAdmin = await api.post(
        '/service-accounts',
        { data: { name: 'admin bot', role: 'ADMIN' } },
        admin.token,
      );
      expect(byAdmin.status).toBe(403);
      expect(errorBodySchema.parse(byAdmin.body)).toMatchObject({
        code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
        message: 'Only an OWNER can create an ADMIN service account',
        metadata: { requiredRole: 'OWNER', role: 'ADMIN' },
      });

      // An ADMIN creates service accounts of the weaker roles.
      const memberBot = await api.post(
        '/service-accounts',
        { data: { name: 'member bot', role: 'MEMBER' } },
        admin.token,
      );
      expect(memberBot.status).toBe(201);
      expect(memberBot.body.data.role).toBe('MEMBER');
      expect(memberBot.body.data.createdById).toBe(admin.membershipId);

      const byOwner = await api.post(
        '/service-accounts',
        { data: { name: 'admin bot', role: 'ADMIN' } },
        owner.token,
      );
      expect(byOwner.status).toBe(201);
      expect(byOwner.body.data.role).toBe('ADMIN');

      const listed = await api.get('/service-accounts', owner.token);
      expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([
        byOwner.body.data.id,
        memberBot.body.data.id,
      ]);
    });

    it('lets only an OWNER delete an ADMIN service account, and an ADMIN the weaker ones', async () => {
      const owner = await api.signup();
      const admin = await api.member(owner, 'ADMIN');
      const adminAccount = await createAccount(owner, {
        name: 'admin bot',
        role: 'ADMIN',
      });
      const memberAccount = await createAccount(owner, {
        name: 'member bot',
        role: 'MEMBER',
      });
      const adminAccountKey = await api.post(
        '/api-keys',
        {
          data: {
            name: 'admin bot key',
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: adminAccount.id,
          },
        },
        owner.token,
      );
      expect(adminAccountKey.status).toBe(201);

      // Neither an ADMIN member nor the ADMIN service account itself.
      for (const token of [admin.token, adminAccountKey.body.data.key]) {
        const refused = await api.delete(
          `/service-accounts/${adminAccount.id}`,
          token,
        );
        expect(refused.status).toBe(403);
        expect(errorBodySchema.parse(refused.body)).toMatchObject({
          code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          message: 'Only an OWNER can delete an ADMIN service account',
          metadata: { requiredRole: 'OWNER', role: 'ADMIN' },
        });
      }
      expect(
        (await api.get('/organizations/current', adminAccountKey.body.data.key))
          .status,
      ).toBe(200);

      const weaker = await api.delete(
        `/service-accounts/${memberAccount.id}`,
        admin.token,
      );
      expect(weaker.status).toBe(204);

      const unknown = await api.delete(
        '/service-accounts/00000000-0000-7000-8000-000000000000',
        admin.token,
      );
      expect(unknown.status).toBe(404);

      const byOwner = await api.delete(
        `/service-accounts/${adminAccount.id}`,
        owner.token,
      );
      expect(byOwner.status).toBe(204);
      expect(
        (await api.get('/organizations/current', adminAccountKey.body.data.key))
          .status,
      ).toBe(401);
    });

    it('refuses MEMBERs and VIEWERs creating or deleting, and lets VIEWERs read', async () => {
      const owner = await api.signup();
      const member = await api.member(owner, 'MEMBER');
      const viewer = await api.member(owner, 'VIEWER');
      const account = await createAccount(owner, {
        name: 'runner',
        role: 'VIEWER',
      });

      for (const token of [member.token, viewer.token]) {
        const create = await api.post(
          '/service-accounts',
          { data: { name: 'mine', role: 'VIEWER' } },
          token,
        );
        expect(create.status).toBe(403);
        expect(create.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');

        const remove = await api.delete(
          `/service-accounts/${account.id}`,
          token,
        );
        expect(remove.status).toBe(403);
        expect(remove.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
      }

      const listed = await api.get('/service-accounts', viewer.token);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([account]);

      const fetched = await api.get(
        `/service-accounts/${account.id}`,
        viewer.token,
      );
      expect(fetched.status).toBe(200);
      expect(fetched.body.data).toEqual(account);
    });

    it("answers 404 for another organization's service account and leaves it alone", async () => {
      const owner = await api.signup();
      const stranger = await api.signup();
      const theirs = await createAccount(stranger, {
        name: 'their runner',
        role: 'MEMBER',
      });

      const fetched = await api.get(
        `/service-accounts/${theirs.id}`,
        owner.token,
      );
      expect(fetched.status).toBe(404);
      expect(fetched.body.code).toBe('InfraDelivery:ServiceAccount:NOT_FOUND');

      const deleted = await api.delete(
        `/service-accounts/${theirs.id}`,
        owner.token,
      );
      expect(deleted.status).toBe(404);
      expect(deleted.body.code).toBe('InfraDelivery:ServiceAccount:NOT_FOUND');

      const unknown = await api.get(
        '/service-accounts/00000000-0000-7000-8000-000000000000',
        owner.token,
      );
      expect(unknown.status).toBe(404);

      const ownList = await api.get('/service-accounts', owner.token);
      expect(ownList.body.data).toEqual([]);

      const stillThere = await api.get(
        `/service-accounts/${theirs.id}`,
        stranger.token,
      );
      expect(stillThere.status).toBe(200);
      expect(stillThere.body.data).toEqual(theirs);
    });

    it('pages through the service accounts newest first', async () => {
      const owner = await api.signup();
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        created.push(
          (await createAccount(owner, { name: `runner ${i}`, role: 'VIEWER' }))
            .id,
        );
      }
      const stranger = await api.signup();
      await createAccount(stranger, { name: 'not mine', role: 'VIEWER' });

      const first = await api.get('/service-accounts?limit=2', owner.token);
      expect(first.status).toBe(200);
      expect(first.body.data.map((a: { id: string }) => a.id)).toEqual([
        created[4],
        created[3],
      ]);
      expect(first.body.meta).toEqual({
        limit: 2,
        nextCursor: expect.any(String),
        totalCount: 5,
      });

      const second = await api.get(
        `/service-accounts?limit=2&cursor=${encodeURIComponent(
          first.body.meta.nextCursor,
        )}`,
        owner.token,
      );
      expect(second.body.data.map((a: { id: string }) => a.id)).toEqual([
        created[2],
        created[1],
      ]);

      const walked = await api.walk('/service-accounts', owner.token, 2);
      expect(walked.map(a => a.id)).toEqual([...created].reverse());

      // A cursor of one organization is no good in another.
      const foreignCursor = await api.get(
        `/service-accounts?limit=2&cursor=${encodeURIComponent(
          first.body.meta.nextCursor,
        )}`,
        stranger.token,
      );
      expect(foreignCursor.status).toBe(400);
      expect(foreignCursor.body.code).toBe(
        'InfraDelivery:Request:INVALID_CURSOR',
      );
    });
  },
);
