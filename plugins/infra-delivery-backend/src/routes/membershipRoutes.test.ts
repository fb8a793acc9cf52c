import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TEST_PASSWORD,
  TestOrganization,
  uniqueEmail,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'membership routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    /** The owner's own membership, as GET /memberships lists it. */
    async function ownMembershipId(owner: TestOrganization): Promise<string> {
      const members = await api.get('/memberships', owner.token);
      return members.body.data.find(
        (m: { userId?: string }) => m.userId === owner.userId,
      ).id;
    }

    it('answers 401 without a credential', async () => {
      for (const response of [
        await api.get('/organizations/current'),
        await api.patch('/organizations/current', { data: { name: 'x' } }),
        await api.get('/memberships'),
        await api.post('/memberships', {
          data: { email: uniqueEmail(), role: 'VIEWER' },
        }),
        await api.delete('/memberships/00000000-0000-7000-8000-000000000000'),
        await api.patch('/memberships/00000000-0000-7000-8000-000000000000', {
          data: { role: 'VIEWER' },
        }),
      ]) {
        expect(response.status).toBe(401);
        expect(response.body.code).toBe(
          'InfraDelivery:Auth:MISSING_CREDENTIAL',
        );
      }
    });

    describe('/organizations/current', () => {
      it('lets a VIEWER read the organization', async () => {
        const owner = await api.signup();
        const viewer = await api.member(owner, 'VIEWER');
        const response = await api.get('/organizations/current', viewer.token);
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual({
          id: owner.organizationId,
          name: 'example.com',
          plan: 'team',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
      });

      it('lets an ADMIN, not a MEMBER or VIEWER, rename it and change its plan', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');
        const viewer = await api.member(owner, 'VIEWER');
        const before = await api.get('/organizations/current', owner.token);

        for (const token of [member.token, viewer.token]) {
          const refused = await api.patch(
            '/organizations/current',
            { data: { name: 'Hijacked' } },
            token,
          );
          expect(refused.status).toBe(403);
          expect(refused.body.code).toBe(
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
        }

        const renamed = await api.patch(
          '/organizations/current',
          { data: { name: '  Acme Corp  ', plan: 'enterprise' } },
          admin.token,
        );
        expect(renamed.status).toBe(200);
        expect(renamed.body.data).toEqual({
          ...before.body.data,
          name: 'Acme Corp',
          plan: 'enterprise',
          updatedAt: expect.any(String),
        });
        expect(
          new Date(renamed.body.data.updatedAt).getTime(),
        ).toBeGreaterThanOrEqual(
          new Date(before.body.data.updatedAt).getTime(),
        );

        // A patch changes only the fields it names.
        const planOnly = await api.patch(
          '/organizations/current',
          { data: { plan: 'team' } },
          owner.token,
        );
        expect(planOnly.status).toBe(200);
        expect(planOnly.body.data).toMatchObject({
          name: 'Acme Corp',
          plan: 'team',
        });

        const after = await api.get('/organizations/current', viewer.token);
        expect(after.body.data).toEqual(planOnly.body.data);

        // Other organizations are untouched.
        const stranger = await api.signup();
        const theirs = await api.get('/organizations/current', stranger.token);
        expect(theirs.body.data.name).toBe('example.com');
      });

      it('validates the patch', async () => {
        const owner = await api.signup();
        const response = await api.patch(
          '/organizations/current',
          { data: { name: '  ', plan: 'p'.repeat(65) } },
          owner.token,
        );
        expect(response.status).toBe(400);
        const body = errorBodySchema.parse(response.body);
        expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        expect(body.details?.[0].items).toEqual([
          expect.stringContaining('body.data.name'),
          expect.stringContaining('body.data.plan'),
        ]);
        const unchanged = await api.get('/organizations/current', owner.token);
        expect(unchanged.body.data.name).toBe('example.com');
      });
    });

    describe('POST /memberships', () => {
      it('returns the invitation token once and never lists it', async () => {
        const owner = await api.signup();
        const email = uniqueEmail('Invited');
        const response = await api.post(
          '/memberships',
          { data: { email, role: 'MEMBER' } },
          owner.token,
        );
        expect(response.status).toBe(201);
        const invitation = response.body.data;
        expect(invitation).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          email: email.toLowerCase(),
          invitedEmail: email.toLowerCase(),
          invitationId: expect.any(String),
          role: 'MEMBER',
          invitationToken: expect.stringMatching(/^idi_/),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });

        const listed = await api.get('/memberships', owner.token);
        expect(listed.status).toBe(200);
        expect(JSON.stringify(listed.body)).not.toContain(
          invitation.invitationToken,
        );
        const { invitationToken: _token, ...withoutToken } = invitation;
        expect(listed.body.data).toEqual([
          withoutToken,
          {
            id: await ownMembershipId(owner),
            organizationId: owner.organizationId,
            email: owner.email,
            role: 'OWNER',
            userId: owner.userId,
            createdAt: expect.any(String),
            updatedAt: expect.any(String),
          },
        ]);
        expect(listed.body.meta).toEqual({
          limit: 50,
          totalCount: 2,
        });
      });

      it('refuses inviting the same email twice, or an existing member (409)', async () => {
        const owner = await api.signup();
        const email = uniqueEmail('twice');
        const first = await api.post(
          '/memberships',
          { data: { email, role: 'VIEWER' } },
          owner.token,
        );
        expect(first.status).toBe(201);

        for (const again of [email, email.toUpperCase(), owner.email]) {
          const response = await api.post(
            '/memberships',
            { data: { email: again, role: 'ADMIN' } },
            owner.token,
          );
          expect(response.status).toBe(409);
          expect(response.body.code).toBe(
            'InfraDelivery:Membership:ALREADY_EXISTS',
          );
        }

        const listed = await api.get('/memberships', owner.token);
        expect(listed.body.meta.totalCount).toBe(2);

        // Another organization may invite the same person.
        const stranger = await api.signup();
        const elsewhere = await api.post(
          '/memberships',
          { data: { email, role: 'VIEWER' } },
          stranger.token,
        );
        expect(elsewhere.status).toBe(201);
      });

      it('lets only an OWNER invite an OWNER or an ADMIN, and only ADMINs invite at all', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');

        for (const role of ['OWNER', 'ADMIN']) {
          const byAdmin = await api.post(
            '/memberships',
            { data: { email: uniqueEmail(`${role}2`), role } },
            admin.token,
          );
          expect(byAdmin.status).toBe(403);
          expect(errorBodySchema.parse(byAdmin.body)).toMatchObject({
            code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
            message: `Only an OWNER can invite an ${role}`,
            metadata: { requiredRole: 'OWNER', role: 'ADMIN' },
          });
        }

        const adminInvitesMember = await api.post(
          '/memberships',
          { data: { email: uniqueEmail('member2'), role: 'MEMBER' } },
          admin.token,
        );
        expect(adminInvitesMember.status).toBe(201);

        const ownerInvitesAdmin = await api.post(
          '/memberships',
          { data: { email: uniqueEmail('admin2'), role: 'ADMIN' } },
          owner.token,
        );
        expect(ownerInvitesAdmin.status).toBe(201);
        expect(ownerInvitesAdmin.body.data.role).toBe('ADMIN');

        const byMember = await api.post(
          '/memberships',
          { data: { email: uniqueEmail('viewer2'), role: 'VIEWER' } },
          member.token,
        );
        expect(byMember.status).toBe(403);
        expect(byMember.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');

        const byOwner = await api.post(
          '/memberships',
          { data: { email: uniqueEmail('owner2'), role: 'OWNER' } },
          owner.token,
        );
        expect(byOwner.status).toBe(201);
        expect(byOwner.body.data.role).toBe('OWNER');
      });

      it('validates the invitation', async () => {
        const owner = await api.signup();
        const response = await api.post(
          '/memberships',
          { data: { email: 'not-an-email', role: 'SUPERUSER' } },
          owner.token,
        );
        expect(response.status).toBe(400);
        const body = errorBodySchema.parse(response.body);
        expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        expect(body.details?.[0].items).toEqual([
          expect.stringContaining('body.data.email'),
          expect.stringContaining('body.data.role'),
        ]);
      });
    });

    describe('GET /memberships', () => {
      it('pages through members and invitations newest first', async () => {
        const owner = await api.signup();
        const ownerMembershipId = await ownMembershipId(owner);
        const invited: string[] = [];
        for (let i = 0; i < 5; i++) {
          const response = await api.post(
            '/memberships',
            { data: { email: uniqueEmail(`page${i}`), role: 'VIEWER' } },
            owner.token,
          );
          expect(response.status).toBe(201);
          invited.push(response.body.data.id);
        }
        await api.post(
          '/memberships',
          { data: { email: uniqueEmail('elsewhere'), role: 'VIEWER' } },
          (
            await api.signup()
          ).token,
        );

        const first = await api.get('/memberships?limit=2', owner.token);
        expect(first.status).toBe(200);
        expect(first.body.data.map((m: { id: string }) => m.id)).toEqual([
          invited[4],
          invited[3],
        ]);
        expect(first.body.meta).toEqual({
          limit: 2,
          nextCursor: expect.any(String),
          totalCount: 6,
        });

        const walked = await api.walk('/memberships', owner.token, 2);
        expect(walked.map(m => m.id)).toEqual([
          ...[...invited].reverse(),
          ownerMembershipId,
        ]);
        expect(JSON.stringify(walked)).not.toContain('idi_');

        const viewer = await api.member(owner, 'VIEWER');
        const asViewer = await api.walk('/memberships', viewer.token, 4);
        expect(asViewer).toHaveLength(7);
      });
    });

    describe('PATCH /memberships/{id}', () => {
      const setRole = (id: string, role: string, token: string) =>
        api.patch(`/memberships/${id}`, { data: { role } }, token);

      it('lets an ADMIN change MEMBER and VIEWER roles, which take effect at once', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');
        const project = { data: { givenId: 'p', name: 'P' } };
        expect(
          (await api.post('/projects', project, member.token)).status,
        ).toBe(201);

        const demoted = await setRole(
          member.membershipId,
          'VIEWER',
          admin.token,
        );
        expect(demoted.status).toBe(200);
        expect(demoted.body.data).toMatchObject({
          id: member.membershipId,
          role: 'VIEWER',
          email: member.email,
        });
        // The member's current token carries the new role.
        const refused = await api.post(
          '/projects',
          { data: { givenId: 'q', name: 'Q' } },
          member.token,
        );
        expect(refused.status).toBe(403);
        expect(
          (await setRole(member.membershipId, 'MEMBER', admin.token)).body.data
            .role,
        ).toBe('MEMBER');
        // The same role again is a no-op.
        expect(
          (await setRole(member.membershipId, 'MEMBER', admin.token)).status,
        ).toBe(200);
      });

      it('lets only an OWNER grant or take away OWNER', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');
        const second = await api.member(owner, 'OWNER');

        for (const [id, role] of [
          [member.membershipId, 'OWNER'],
          [second.membershipId, 'ADMIN'],
        ]) {
          const refused = await setRole(id, role, admin.token);
          expect(refused.status).toBe(403);
          expect(refused.body).toMatchObject({
            code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
            message: 'Only an OWNER can grant or take away OWNER',
          });
        }
        expect(
          (await setRole(member.membershipId, 'OWNER', owner.token)).body.data
            .role,
        ).toBe('OWNER');
        expect(
          (await setRole(second.membershipId, 'ADMIN', owner.token)).body.data
            .role,
        ).toBe('ADMIN');
      });

      it('lets only an OWNER grant or take away ADMIN, and an ADMIN step down', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const otherAdmin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');
        const invitation = await api.post(
          '/memberships',
          { data: { email: uniqueEmail('invited'), role: 'VIEWER' } },
          owner.token,
        );

        for (const [id, role] of [
          [member.membershipId, 'ADMIN'],
          [invitation.body.data.id, 'ADMIN'],
          [otherAdmin.membershipId, 'MEMBER'],
          [otherAdmin.membershipId, 'VIEWER'],
        ]) {
          const refused = await setRole(id, role, admin.token);
          expect(refused.status).toBe(403);
          expect(errorBodySchema.parse(refused.body)).toMatchObject({
            code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
            message: 'Only an OWNER can grant or take away ADMIN',
            metadata: { requiredRole: 'OWNER', role: 'ADMIN' },
          });
        }
        const list = await api.get('/memberships', owner.token);
        const roles = Object.fromEntries(
          list.body.data.map((m: { id: string; role: string }) => [
            m.id,
            m.role,
          ]),
        );
        expect(roles[member.membershipId]).toBe('MEMBER');
        expect(roles[otherAdmin.membershipId]).toBe('ADMIN');

        expect(
          (await setRole(member.membershipId, 'ADMIN', owner.token)).body.data
            .role,
        ).toBe('ADMIN');
        expect(
          (await setRole(otherAdmin.membershipId, 'MEMBER', owner.token)).body
            .data.role,
        ).toBe('MEMBER');
        const stepDown = await setRole(
          admin.membershipId,
          'VIEWER',
          admin.token,
        );
        expect(stepDown.status).toBe(200);
        expect(stepDown.body.data.role).toBe('VIEWER');
      });

      it('lets nobody raise their own role, and anybody lower it', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const raised = await setRole(admin.membershipId, 'OWNER', admin.token);
        expect(raised.status).toBe(403);
        expect(raised.body.code).toBe('InfraDelivery:Membership:OWN_ROLE');
        const lowered = await setRole(
          admin.membershipId,
          'MEMBER',
          admin.token,
        );
        expect(lowered.status).toBe(200);
        // Now a MEMBER, the former ADMIN cannot change roles at all.
        const again = await setRole(admin.membershipId, 'ADMIN', admin.token);
        expect(again.status).toBe(403);
        expect(again.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
      });

      it('refuses demoting the last OWNER (409) and allows it once another OWNER exists', async () => {
        const owner = await api.signup();
        const ownerMembershipId = await ownMembershipId(owner);
        const last = await setRole(ownerMembershipId, 'ADMIN', owner.token);
        expect(last.status).toBe(409);
        expect(last.body).toMatchObject({
          code: 'InfraDelivery:Membership:LAST_OWNER',
          message:
            'The last OWNER cannot be demoted; make another member OWNER first',
        });
        const member = await api.member(owner, 'MEMBER');
        expect(
          (await setRole(member.membershipId, 'OWNER', owner.token)).status,
        ).toBe(200);
        expect(
          (await setRole(ownerMembershipId, 'ADMIN', owner.token)).body.data
            .role,
        ).toBe('ADMIN');
      });

      it('validates the role and answers 404 for another organization’s membership', async () => {
        const owner = await api.signup();
        const member = await api.member(owner, 'MEMBER');
        const invalid = await setRole(member.membershipId, 'GOD', owner.token);
        expect(invalid.status).toBe(400);
        expect(invalid.body.code).toBe(
          'InfraDelivery:Request:VALIDATION_FAILED',
        );
        const stranger = await api.signup();
        const foreign = await setRole(
          member.membershipId,
          'VIEWER',
          stranger.token,
        );
        expect(foreign.status).toBe(404);
        const list = await api.get('/memberships', owner.token);
        expect(
          list.body.data.find(
            (m: { id: string }) => m.id === member.membershipId,
          ).role,
        ).toBe('MEMBER');
      });
    });

    describe('DELETE /memberships/{id}', () => {
      it('removes a member, whose access token and API keys stop working', async () => {
        const owner = await api.signup();
        const member = await api.member(owner, 'MEMBER');
        const key = await api.post(
          '/api-keys',
          { data: { name: 'member key' } },
          member.token,
        );
        expect(key.status).toBe(201);
        expect(
          (await api.get('/organizations/current', member.token)).status,
        ).toBe(200);

        const removed = await api.delete(
          `/memberships/${member.membershipId}`,
          owner.token,
        );
        expect(removed.status).toBe(204);
        expect(removed.text).toBe('');

        const withToken = await api.get('/organizations/current', member.token);
        expect(withToken.status).toBe(401);
        expect(withToken.body.code).toBe('InfraDelivery:Auth:INVALID_TOKEN');

        const withKey = await api.get(
          '/organizations/current',
          key.body.data.key,
        );
        expect(withKey.status).toBe(401);
        expect(withKey.body.code).toBe('InfraDelivery:Auth:INVALID_API_KEY');

        // No new token either: the user belongs to no organization any more.
        const newToken = await api.post('/auth/token', {
          data: { email: member.email, password: TEST_PASSWORD },
        });
        expect(newToken.status).toBe(401);

        const listed = await api.get('/memberships', owner.token);
        expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([
          await ownMembershipId(owner),
        ]);
        const keys = await api.get('/api-keys', owner.token);
        expect(keys.body.data).toEqual([]);

        const again = await api.delete(
          `/memberships/${member.membershipId}`,
          owner.token,
        );
        expect(again.status).toBe(404);
        expect(again.body.code).toBe('InfraDelivery:Membership:NOT_FOUND');
      });

      it('withdraws a pending invitation, whose token then is refused', async () => {
        const owner = await api.signup();
        const email = uniqueEmail('withdrawn');
        const invitation = await api.post(
          '/memberships',
          { data: { email, role: 'ADMIN' } },
          owner.token,
        );
        const withdrawn = await api.delete(
          `/memberships/${invitation.body.data.id}`,
          owner.token,
        );
        expect(withdrawn.status).toBe(204);

        const signup = await api.post('/auth/signup', {
          data: {
            email,
            password: TEST_PASSWORD,
            invitationToken: invitation.body.data.invitationToken,
          },
        });
        expect(signup.status).toBe(400);
        expect(signup.body.code).toBe('InfraDelivery:Invitation:INVALID');
      });

      it('refuses removing the last OWNER (409), even with an OWNER invitation pending', async () => {
        const owner = await api.signup();
        const ownerMembershipId = await ownMembershipId(owner);
        const pending = await api.post(
          '/memberships',
          { data: { email: uniqueEmail('pending-owner'), role: 'OWNER' } },
          owner.token,
        );
        expect(pending.status).toBe(201);

        const response = await api.delete(
          `/memberships/${ownerMembershipId}`,
          owner.token,
        );
        expect(response.status).toBe(409);
        expect(response.body.code).toBe('InfraDelivery:Membership:LAST_OWNER');

        const stillOwner = await api.get('/organizations/current', owner.token);
        expect(stillOwner.status).toBe(200);
      });

      it('removes the first OWNER once a second OWNER has joined', async () => {
        const owner = await api.signup();
        const ownerMembershipId = await ownMembershipId(owner);
        const second = await api.member(owner, 'OWNER');

        const removed = await api.delete(
          `/memberships/${ownerMembershipId}`,
          second.token,
        );
        expect(removed.status).toBe(204);
        expect(
          (await api.get('/organizations/current', owner.token)).status,
        ).toBe(401);

        const listed = await api.get('/memberships', second.token);
        expect(listed.body.data).toEqual([
          expect.objectContaining({
            id: second.membershipId,
            role: 'OWNER',
          }),
        ]);

        // Now the second is the last OWNER, and stays.
        const last = await api.delete(
          `/memberships/${second.membershipId}`,
          second.token,
        );
        expect(last.status).toBe(409);
        expect(last.body.code).toBe('InfraDelivery:Membership:LAST_OWNER');
      });

      it('keeps one OWNER when two OWNERs remove each other at once', async () => {
        const owner = await api.signup();
        const ownerMembershipId = await ownMembershipId(owner);
        const second = await api.member(owner, 'OWNER');

        const results = await Promise.all([
          api.delete(`/memberships/${second.membershipId}`, owner.token),
          api.delete(`/memberships/${ownerMembershipId}`, second.token),
        ]);
        // The loser is refused as the last OWNER, or is no longer a member when it is resolved.
        const [winner, loser] = [...results].sort(
          (a, b) => a.status - b.status,
        );
        expect(winner.status).toBe(204);
        expect([
          'InfraDelivery:Membership:LAST_OWNER',
          'InfraDelivery:Auth:INVALID_TOKEN',
        ]).toContain(loser.body.code);

        const statuses = [
          (await api.get('/organizations/current', owner.token)).status,
          (await api.get('/organizations/current', second.token)).status,
        ];
        expect(statuses.sort()).toEqual([200, 401]);
      });

      it('lets an OWNER remove themselves when another OWNER remains', async () => {
        const owner = await api.signup();
        const ownerMembershipId = await ownMembershipId(owner);
        const second = await api.member(owner, 'OWNER');

        const removed = await api.delete(
          `/memberships/${ownerMembershipId}`,
          owner.token,
        );
        expect(removed.status).toBe(204);
        expect(
          (await api.get('/organizations/current', second.token)).status,
        ).toBe(200);
      });

      it('refuses an ADMIN removing an OWNER, and MEMBERs and VIEWERs removing anybody (403)', async () => {
        const owner = await api.signup();
        const ownerMembershipId = await ownMembershipId(owner);
        const admin = await api.member(owner, 'ADMIN');
        const member = await api.member(owner, 'MEMBER');
        const viewer = await api.member(owner, 'VIEWER');
        const target = await api.member(owner, 'VIEWER');

        const adminOnOwner = await api.delete(
          `/memberships/${ownerMembershipId}`,
          admin.token,
        );
        expect(adminOnOwner.status).toBe(403);
        expect(adminOnOwner.body.code).toBe(
          'InfraDelivery:Auth:INSUFFICIENT_ROLE',
        );

        for (const token of [member.token, viewer.token]) {
          const response = await api.delete(
            `/memberships/${target.membershipId}`,
            token,
          );
          expect(response.status).toBe(403);
          expect(response.body.code).toBe(
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
        }
        expect(
          (await api.get('/organizations/current', target.token)).status,
        ).toBe(200);

        const byAdmin = await api.delete(
          `/memberships/${target.membershipId}`,
          admin.token,
        );
        expect(byAdmin.status).toBe(204);
      });

      it('lets only an OWNER remove an ADMIN, and an ADMIN leave', async () => {
        const owner = await api.signup();
        const admin = await api.member(owner, 'ADMIN');
        const otherAdmin = await api.member(owner, 'ADMIN');
        const adminInvitation = await api.post(
          '/memberships',
          { data: { email: uniqueEmail('admin-invited'), role: 'ADMIN' } },
          owner.token,
        );

        for (const id of [
          otherAdmin.membershipId,
          adminInvitation.body.data.id,
        ]) {
          const refused = await api.delete(`/memberships/${id}`, admin.token);
          expect(refused.status).toBe(403);
          expect(errorBodySchema.parse(refused.body)).toMatchObject({
            code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
            message: 'Only an OWNER can remove an ADMIN',
            metadata: { requiredRole: 'OWNER', role: 'ADMIN' },
          });
        }
        expect(
          (await api.get('/organizations/current', otherAdmin.token)).status,
        ).toBe(200);

        const byOwner = await api.delete(
          `/memberships/${otherAdmin.membershipId}`,
          owner.token,
        );
        expect(byOwner.status).toBe(204);
        const withdrawn = await api.delete(
          `/memberships/${adminInvitation.body.data.id}`,
          owner.token,
        );
        expect(withdrawn.status).toBe(204);

        const leaves = await api.delete(
          `/memberships/${admin.membershipId}`,
          admin.token,
        );
        expect(leaves.status).toBe(204);
        const listed = await api.get('/memberships', owner.token);
        expect(listed.body.data.map((m: { id: string }) => m.id)).toEqual([
          await ownMembershipId(owner),
        ]);
      });

      it("answers 404 for another organization's membership and leaves it alone", async () => {
        const owner = await api.signup();
        const stranger = await api.signup();
        const strangerMember = await api.member(stranger, 'MEMBER');

        const response = await api.delete(
          `/memberships/${strangerMember.membershipId}`,
          owner.token,
        );
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('InfraDelivery:Membership:NOT_FOUND');

        const strangerOwner = await api.delete(
          `/memberships/${await ownMembershipId(stranger)}`,
          owner.token,
        );
        expect(strangerOwner.status).toBe(404);

        expect(
          (await api.get('/organizations/current', strangerMember.token))
            .status,
        ).toBe(200);
        const theirs = await api.get('/memberships', stranger.token);
        expect(theirs.body.meta.totalCount).toBe(2);
      });
    });
  },
);
