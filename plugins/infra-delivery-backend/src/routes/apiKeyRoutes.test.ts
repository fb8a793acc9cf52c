import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import { generateApiKey } from '../auth/apiKeyFormat';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'API key routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    /** Creates a key as `token` and returns the created key (with its secret). */
    async function createKey(token: string, data: Record<string, unknown>) {
      const response = await api.post('/api-keys', { data }, token);
      expect(response.status).toBe(201);
      return response.body.data as {
        id: string;
        key: string;
        ownerType: string;
        ownerId: string;
        [field: string]: unknown;
      };
    }

    async function createServiceAccount(
      owner: TestOrganization,
      role: string,
    ): Promise<string> {
      const response = await api.post(
        '/service-accounts',
        { data: { name: `runner ${role}`, role } },
        owner.token,
      );
      expect(response.status).toBe(201);
      return response.body.data.id;
    }

    /** The owner's own membership id, as GET /memberships lists it. */
    async function ownMembershipId(owner: TestOrganization): Promise<string> {
      const members = await api.get('/memberships', owner.token);
      return members.body.data.find(
        (m: { userId?: string }) => m.userId === owner.userId,
      ).id;
    }

    describe('GET /api-keys', () => {
      it('answers 401 without a credential', async () => {
        const response = await api.get('/api-keys');
        expect(response.status).toBe(401);
        expect(response.body.code).toBe(
          'InfraDelivery:Auth:MISSING_CREDENTIAL',
        );
      });

      it('refuses ownerType without ownerId, and ownerId without ownerType (400)', async () => {
        const owner = await api.signup();
        const membershipId = await ownMembershipId(owner);

        const typeOnly = await api.get(
          '/api-keys?ownerType=MEMBERSHIP',
          owner.token,
        );
        expect(typeOnly.status).toBe(400);
        const typeOnlyBody = errorBodySchema.parse(typeOnly.body);
        expect(typeOnlyBody.code).toBe(
          'InfraDelivery:Request:VALIDATION_FAILED',
        );
        expect(typeOnlyBody.details?.[0].items).toEqual([
          expect.stringContaining('query.ownerId'),
        ]);

        const idOnly = await api.get(
          `/api-keys?ownerId=${membershipId}`,
          owner.token,
        );
        expect(idOnly.status).toBe(400);
        expect(idOnly.body.code).toBe(
          'InfraDelivery:Request:VALIDATION_FAILED',
        );

        const unknownType = await api.get(
          `/api-keys?ownerType=USER&ownerId=${membershipId}`,
          owner.token,
        );
        expect(unknownType.status).toBe(400);
      });

      it('lists every key of the organization to an ADMIN, and only their own to MEMBERs and VIEWERs', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');
        const viewer = await api.member(owner, 'VIEWER');
        const accountId = await createServiceAccount(owner, 'MEMBER');

        const ownerKey = await createKey(owner.token, { name: 'owner key' });
        const memberKey = await createKey(member.token, { name: 'member key' });
        const viewerKey = await createKey(viewer.token, { name: 'viewer key' });
        const accountKey = await createKey(admin.token, {
          name: 'runner key',
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: accountId,
        });

        // Another organization's keys never show.
        const stranger = await api.signup();
        await createKey(stranger.token, { name: 'stranger key' });

        const all = await api.get('/api-keys', admin.token);
        expect(all.status).toBe(200);
        expect(all.body.data.map((k: { id: string }) => k.id)).toEqual([
          accountKey.id,
          viewerKey.id,
          memberKey.id,
          ownerKey.id,
        ]);
        expect(all.body.meta).toEqual({
          limit: 50,
          totalCount: 4,
        });

        const memberList = await api.get('/api-keys', member.token);
        expect(memberList.status).toBe(200);
        expect(memberList.body.data).toEqual([
          expect.objectContaining({
            id: memberKey.id,
            ownerType: 'MEMBERSHIP',
            ownerId: member.membershipId,
            name: 'member key',
          }),
        ]);
        expect(memberList.body.meta.totalCount).toBe(1);

        const viewerList = await api.get('/api-keys', viewer.token);
        expect(viewerList.status).toBe(200);
        expect(viewerList.body.data.map((k: { id: string }) => k.id)).toEqual([
          viewerKey.id,
        ]);

        // Filtering on one's own keys is allowed to everybody.
        const ownFilter = await api.get(
          `/api-keys?ownerType=MEMBERSHIP&ownerId=${viewer.membershipId}`,
          viewer.token,
        );
        expect(ownFilter.status).toBe(200);
        expect(ownFilter.body.data.map((k: { id: string }) => k.id)).toEqual([
          viewerKey.id,
        ]);

        // An ADMIN filters on anybody's keys, service accounts included.
        const accountFilter = await api.get(
          `/api-keys?ownerType=SERVICE_ACCOUNT&ownerId=${accountId}`,
          admin.token,
        );
        expect(accountFilter.status).toBe(200);
        expect(
          accountFilter.body.data.map((k: { id: string }) => k.id),
        ).toEqual([accountKey.id]);
      });

      it("refuses a MEMBER filtering on another member's keys (403)", async () => {
        const owner = await api.signup();
        const member = await api.member(owner, 'MEMBER');
        const other = await api.member(owner, 'MEMBER');
        await createKey(other.token, { name: 'other key' });

        const response = await api.get(
          `/api-keys?ownerType=MEMBERSHIP&ownerId=${other.membershipId}`,
          member.token,
        );
        expect(response.status).toBe(403);
        expect(response.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
      });

      it('pages through the keys newest first', async () => {
        const owner = await api.signup();
        const created: string[] = [];
        for (let i = 0; i < 5; i++) {
          created.push((await createKey(owner.token, { name: `key ${i}` })).id);
        }

        const first = await api.get('/api-keys?limit=2', owner.token);
        expect(first.status).toBe(200);
        expect(first.body.data.map((k: { id: string }) => k.id)).toEqual([
          created[4],
          created[3],
        ]);
        expect(first.body.meta).toEqual({
          limit: 2,
          nextCursor: expect.any(String),
          totalCount: 5,
        });

        const walked = await api.walk('/api-keys', owner.token, 2);
        expect(walked.map(k => k.id)).toEqual([...created].reverse());
        expect(JSON.stringify(walked)).not.toMatch(/idk_/);

        // A cursor belongs to the query that made it.
        const otherQuery = await api.get(
          `/api-keys?limit=2&ownerType=MEMBERSHIP&ownerId=${await ownMembershipId(
            owner,
          )}&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`,
          owner.token,
        );
        expect(otherQuery.status).toBe(400);
        expect(otherQuery.body.code).toBe(
          'InfraDelivery:Request:INVALID_CURSOR',
        );
      });
    });

    describe('POST /api-keys', () => {
      it('returns the key once and never again', async () => {
        const owner = await api.signup();
        const membershipId = await ownMembershipId(owner);
        const response = await api.post(
          '/api-keys',
          { data: { name: '  deploy bot  ', description: 'for CI' } },
          owner.token,
        );
        expect(response.status).toBe(201);
        const created = response.body.data;
        expect(created).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          key: expect.stringMatching(/^idk_[0-9A-Za-z]{50}$/),
          keySuffix: created.key.slice(-4),
          name: 'deploy bot',
          description: 'for CI',
          ownerType: 'MEMBERSHIP',
          ownerId: membershipId,
          createdById: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(created.keySuffix).toHaveLength(4);

        const listed = await api.get('/api-keys', owner.token);
        expect(listed.status).toBe(200);
        expect(JSON.stringify(listed.body)).not.toContain(created.key);
        const { key: _key, ...withoutKey } = created;
        expect(listed.body.data).toEqual([withoutKey]);
        expect(listed.body.data[0]).not.toHaveProperty('key');
      });

      it('refuses an expiresAt in the past (400)', async () => {
        const owner = await api.signup();
        const response = await api.post(
          '/api-keys',
          {
            data: {
              name: 'stale',
              expiresAt: new Date(Date.now() - 60_000).toISOString(),
            },
          },
          owner.token,
        );
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('InfraDelivery:ApiKey:EXPIRY_IN_PAST');

        const listed = await api.get('/api-keys', owner.token);
        expect(listed.body.data).toEqual([]);
      });

      it('validates the body', async () => {
        const owner = await api.signup();
        const response = await api.post(
          '/api-keys',
          {
            data: {
              name: '   ',
              expiresAt: 'tomorrow',
              ownerType: 'SERVICE_ACCOUNT',
            },
          },
          owner.token,
        );
        expect(response.status).toBe(400);
        const body = errorBodySchema.parse(response.body);
        expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        expect(body.details?.[0].items).toEqual(
          expect.arrayContaining([
            expect.stringContaining('body.data.name'),
            expect.stringContaining('body.data.expiresAt'),
          ]),
        );
      });

      it('lets an ADMIN, not a MEMBER, create a key for a service account, which then acts with its role', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');
        const viewerAccountId = await createServiceAccount(owner, 'VIEWER');

        const byMember = await api.post(
          '/api-keys',
          {
            data: {
              name: 'sneaky',
              ownerType: 'SERVICE_ACCOUNT',
              ownerId: viewerAccountId,
            },
          },
          member.token,
        );
        expect(byMember.status).toBe(403);
        expect(byMember.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');

        const accountKey = await createKey(admin.token, {
          name: 'runner',
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: viewerAccountId,
        });
        expect(accountKey).toMatchObject({
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: viewerAccountId,
          organizationId: owner.organizationId,
        });

        const organization = await api.get(
          '/organizations/current',
          accountKey.key,
        );
        expect(organization.status).toBe(200);
        expect(organization.body.data.id).toBe(owner.organizationId);

        const project = await api.post(
          '/projects',
          { data: { givenId: 'payments', name: 'Payments' } },
          accountKey.key,
        );
        expect(project.status).toBe(403);
        expect(project.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');

        // The service account sees its own keys without a filter.
        const ownKeys = await api.get('/api-keys', accountKey.key);
        expect(ownKeys.status).toBe(200);
        expect(ownKeys.body.data.map((k: { id: string }) => k.id)).toEqual([
          accountKey.id,
        ]);
      });

      it("refuses a service account's own key creating or revoking keys of its account (403); an ADMIN service account manages them as any ADMIN", async () => {
        const owner = await api.signup();
        const adminAccountId = await createServiceAccount(owner, 'ADMIN');
        const adminAccountKey = await createKey(owner.token, {
          name: 'admin robot',
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: adminAccountId,
        });

        for (const role of ['VIEWER', 'MEMBER']) {
          const accountId = await createServiceAccount(owner, role);
          const leaked = await createKey(owner.token, {
            name: 'leaked',
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: accountId,
          });

          // Neither by default (its own account) nor by naming its account.
          for (const data of [
            { name: 'child' },
            { name: 'child', ownerType: 'SERVICE_ACCOUNT', ownerId: accountId },
          ]) {
            const child = await api.post('/api-keys', { data }, leaked.key);
            expect(child.status).toBe(403);
            expect(errorBodySchema.parse(child.body)).toMatchObject({
              code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
              message:
                'Only an ADMIN can create or revoke the API keys of a service account',
              metadata: { requiredRole: 'ADMIN', role },
            });
          }

          const selfRevoke = await api.delete(
            `/api-keys/${leaked.id}`,
            leaked.key,
          );
          expect(selfRevoke.status).toBe(403);
          expect(selfRevoke.body.code).toBe(
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
          expect(
            (await api.get('/organizations/current', leaked.key)).status,
          ).toBe(200);

          // It still lists its own keys: there is only the one an ADMIN made.
          const own = await api.get('/api-keys', leaked.key);
          expect(own.status).toBe(200);
          expect(own.body.data.map((k: { id: string }) => k.id)).toEqual([
            leaked.id,
          ]);

          // An ADMIN service account creates and revokes its keys as any ADMIN does.
          const byAdminAccount = await createKey(adminAccountKey.key, {
            name: 'rotated',
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: accountId,
          });
          expect(byAdminAccount).toMatchObject({
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: accountId,
            createdById: adminAccountId,
          });
          for (const key of [leaked, byAdminAccount]) {
            const revoked = await api.delete(
              `/api-keys/${key.id}`,
              adminAccountKey.key,
            );
            expect(revoked.status).toBe(204);
          }

          // Revoking the leaked key leaves the account no key at all.
          expect(
            (await api.get('/organizations/current', leaked.key)).status,
          ).toBe(401);
          const left = await api.get(
            `/api-keys?ownerType=SERVICE_ACCOUNT&ownerId=${accountId}`,
            owner.token,
          );
          expect(left.body.data).toEqual([]);
        }
      });

      it('lets only an OWNER create or revoke keys of an ADMIN service account', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const adminAccountId = await createServiceAccount(owner, 'ADMIN');
        const adminAccountKey = await createKey(owner.token, {
          name: 'admin robot',
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: adminAccountId,
        });

        // Neither an ADMIN member nor the ADMIN service account itself makes one.
        for (const token of [admin.token, adminAccountKey.key]) {
          const refused = await api.post(
            '/api-keys',
            {
              data: {
                name: 'another',
                ownerType: 'SERVICE_ACCOUNT',
                ownerId: adminAccountId,
              },
            },
            token,
          );
          expect(refused.status).toBe(403);
          expect(errorBodySchema.parse(refused.body)).toMatchObject({
            code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
            message:
              'Only an OWNER can create the API keys of an ADMIN service account',
            metadata: { requiredRole: 'OWNER', role: 'ADMIN' },
          });

          const revoke = await api.delete(
            `/api-keys/${adminAccountKey.id}`,
            token,
          );
          expect(revoke.status).toBe(403);
          expect(revoke.body.message).toBe(
            'Only an OWNER can revoke the API keys of an ADMIN service account',
          );
        }
        const ownDefault = await api.post(
          '/api-keys',
          { data: { name: 'child' } },
          adminAccountKey.key,
        );
        expect(ownDefault.status).toBe(403);
        expect(
          (await api.get('/organizations/current', adminAccountKey.key)).status,
        ).toBe(200);
        const keys = await api.get(
          `/api-keys?ownerType=SERVICE_ACCOUNT&ownerId=${adminAccountId}`,
          owner.token,
        );
        expect(keys.body.data.map((k: { id: string }) => k.id)).toEqual([
          adminAccountKey.id,
        ]);

        const byOwner = await createKey(owner.token, {
          name: 'rotated',
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: adminAccountId,
        });
        for (const key of [adminAccountKey, byOwner]) {
          const revoked = await api.delete(`/api-keys/${key.id}`, owner.token);
          expect(revoked.status).toBe(204);
        }
      });

      it("refuses a service account of another organization (404), and a member's key for another member (403)", async () => {
        const owner = await api.signup();
        const member = await api.member(owner, 'MEMBER');
        const other = await api.member(owner, 'MEMBER');
        const stranger = await api.signup();
        const strangerAccountId = await createServiceAccount(stranger, 'ADMIN');

        const foreign = await api.post(
          '/api-keys',
          {
            data: {
              name: 'foreign',
              ownerType: 'SERVICE_ACCOUNT',
              ownerId: strangerAccountId,
            },
          },
          owner.token,
        );
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe(
          'InfraDelivery:ServiceAccount:NOT_FOUND',
        );

        const forOther = await api.post(
          '/api-keys',
          {
            data: {
              name: 'for other',
              ownerType: 'MEMBERSHIP',
              ownerId: other.membershipId,
            },
          },
          member.token,
        );
        expect(forOther.status).toBe(403);

        const strangerKeys = await api.get('/api-keys', stranger.token);
        expect(strangerKeys.body.data).toEqual([]);
      });

      it("refuses a key for another member's membership, even to an ADMIN or OWNER (403)", async () => {
        const owner = await api.signup();
        const ownerMembershipId = await ownMembershipId(owner);
        const admin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');

        // A key for the OWNER's membership would let an ADMIN act as the OWNER.
        const adminAsOwner = await api.post(
          '/api-keys',
          {
            data: {
              name: 'as owner',
              ownerType: 'MEMBERSHIP',
              ownerId: ownerMembershipId,
            },
          },
          admin.token,
        );
        expect(adminAsOwner.status).toBe(403);
        expect(adminAsOwner.body.code).toBe(
          'InfraDelivery:ApiKey:FOREIGN_MEMBERSHIP',
        );

        const ownerAsMember = await api.post(
          '/api-keys',
          {
            data: {
              name: 'as member',
              ownerType: 'MEMBERSHIP',
              ownerId: member.membershipId,
            },
          },
          owner.token,
        );
        expect(ownerAsMember.status).toBe(403);
        expect(ownerAsMember.body.code).toBe(
          'InfraDelivery:ApiKey:FOREIGN_MEMBERSHIP',
        );

        // Naming one's own membership is the same as naming none.
        const own = await createKey(admin.token, {
          name: 'mine',
          ownerType: 'MEMBERSHIP',
          ownerId: admin.membershipId,
        });
        expect(own.ownerId).toBe(admin.membershipId);

        const keys = await api.get('/api-keys', owner.token);
        expect(keys.body.data.map((k: { id: string }) => k.id)).toEqual([
          own.id,
        ]);
      });
    });

    describe('authenticating with an API key', () => {
      it('stops accepting a key once its expiresAt has passed (401)', async () => {
        const owner = await api.signup();
        const expiresAt = new Date(Date.now() + 2_000).toISOString();
        const created = await createKey(owner.token, {
          name: 'short-lived',
          expiresAt,
        });
        expect(created.expiresAt).toBe(expiresAt);

        const before = await api.get('/organizations/current', created.key);
        expect(before.status).toBe(200);

        const wait = new Date(expiresAt).getTime() - Date.now() + 200;
        await new Promise(resolve => setTimeout(resolve, Math.max(wait, 0)));

        const after = await api.get('/organizations/current', created.key);
        expect(after.status).toBe(401);
        expect(after.body.code).toBe('InfraDelivery:Auth:API_KEY_EXPIRED');
      });

      it('refuses malformed, altered and unknown keys alike (401)', async () => {
        const owner = await api.signup();
        const { key } = await createKey(owner.token, { name: 'real' });

        // One character of the secret changed: the checksum no longer matches.
        const position = 30;
        const altered = `${key.slice(0, position)}${
          key[position] === 'a' ? 'b' : 'a'
        }${key.slice(position + 1)}`;
        // Well formed, with a correct checksum, but never issued.
        const unknown = generateApiKey().key;

        for (const candidate of ['idk_abc', altered, unknown]) {
          const response = await api.get('/organizations/current', candidate);
          expect(response.status).toBe(401);
          expect(response.body.code).toBe('InfraDelivery:Auth:INVALID_API_KEY');
          expect(response.body.message).toBe(
            'The API key is not valid: it is mistyped, was revoked, or its service account was removed',
          );
        }

        const stillValid = await api.get('/organizations/current', key);
        expect(stillValid.status).toBe(200);
      });
    });

    describe('DELETE /api-keys/{id}', () => {
      it("answers 404 for another organization's key and leaves it working", async () => {
        const owner = await api.signup();
        const stranger = await api.signup();
        const strangerKey = await createKey(stranger.token, {
          name: 'theirs',
        });

        const response = await api.delete(
          `/api-keys/${strangerKey.id}`,
          owner.token,
        );
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('InfraDelivery:ApiKey:NOT_FOUND');

        const stillWorks = await api.get(
          '/organizations/current',
          strangerKey.key,
        );
        expect(stillWorks.status).toBe(200);
        expect(stillWorks.body.data.id).toBe(stranger.organizationId);
      });

      it("lets a MEMBER revoke their own key, not another member's", async () => {
        const owner = await api.signup();
        const member = await api.member(owner, 'MEMBER');
        const other = await api.member(owner, 'MEMBER');
        const ownKey = await createKey(member.token, { name: 'mine' });
        const otherKey = await createKey(other.token, { name: 'theirs' });

        const forbidden = await api.delete(
          `/api-keys/${otherKey.id}`,
          member.token,
        );
        expect(forbidden.status).toBe(403);
        expect(forbidden.body.code).toBe(
          'InfraDelivery:Auth:INSUFFICIENT_ROLE',
        );
        expect(
          (await api.get('/organizations/current', otherKey.key)).status,
        ).toBe(200);

        const revoked = await api.delete(
          `/api-keys/${ownKey.id}`,
          member.token,
        );
        expect(revoked.status).toBe(204);
        expect(revoked.text).toBe('');

        const afterRevoke = await api.get('/organizations/current', ownKey.key);
        expect(afterRevoke.status).toBe(401);
        expect(afterRevoke.body.code).toBe(
          'InfraDelivery:Auth:INVALID_API_KEY',
        );
        // A script's owner reads why: not only "not valid".
        expect(afterRevoke.body.message).toMatch(/was revoked/);

        const again = await api.delete(`/api-keys/${ownKey.id}`, member.token);
        expect(again.status).toBe(404);

        const adminList = await api.get('/api-keys', owner.token);
        expect(adminList.body.data.map((k: { id: string }) => k.id)).toEqual([
          otherKey.id,
        ]);
      });

      it("lets only an OWNER revoke another ADMIN's or an OWNER's keys, and an ADMIN a MEMBER's", async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const otherAdmin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');
        const ownerKey = await createKey(owner.token, { name: 'owner' });
        const otherAdminKey = await createKey(otherAdmin.token, {
          name: 'other admin',
        });
        const memberKey = await createKey(member.token, { name: 'member' });
        const adminKey = await createKey(admin.token, { name: 'own' });

        for (const [key, role] of [
          [ownerKey, 'OWNER'],
          [otherAdminKey, 'ADMIN'],
        ] as const) {
          const refused = await api.delete(`/api-keys/${key.id}`, admin.token);
          expect(refused.status).toBe(403);
          expect(errorBodySchema.parse(refused.body)).toMatchObject({
            code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
            message: `Only an OWNER can revoke the API keys of an ${role}`,
          });
          expect(
            (await api.get('/organizations/current', key.key)).status,
          ).toBe(200);
        }

        for (const key of [memberKey, adminKey]) {
          const revoked = await api.delete(`/api-keys/${key.id}`, admin.token);
          expect(revoked.status).toBe(204);
        }
        const byOwner = await api.delete(
          `/api-keys/${otherAdminKey.id}`,
          owner.token,
        );
        expect(byOwner.status).toBe(204);
        const left = await api.get('/api-keys', owner.token);
        expect(left.body.data.map((k: { id: string }) => k.id)).toEqual([
          ownerKey.id,
        ]);
      });

      it("revokes a service account's keys when the account is deleted", async () => {
        const owner = await api.signup();
        const accountId = await createServiceAccount(owner, 'MEMBER');
        const accountKey = await createKey(owner.token, {
          name: 'runner',
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: accountId,
        });
        const ownerKey = await createKey(owner.token, { name: 'mine' });
        expect(
          (await api.get('/organizations/current', accountKey.key)).status,
        ).toBe(200);

        const deleted = await api.delete(
          `/service-accounts/${accountId}`,
          owner.token,
        );
        expect(deleted.status).toBe(204);

        const afterDelete = await api.get(
          '/organizations/current',
          accountKey.key,
        );
        expect(afterDelete.status).toBe(401);
        expect(afterDelete.body.code).toBe(
          'InfraDelivery:Auth:INVALID_API_KEY',
        );

        const listed = await api.get('/api-keys', owner.token);
        expect(listed.body.data.map((k: { id: string }) => k.id)).toEqual([
          ownerKey.id,
        ]);
      });
    });
  },
);
