import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TEST_PASSWORD,
  uniqueEmail,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())('auth routes on %s', databaseId => {
  let api: InfraDeliveryTestClient;

  beforeAll(async () => {
    api = await startInfraDeliveryBackend(await databases.init(databaseId));
  });

  describe('POST /auth/signup', () => {
    it('creates a user and an organization the user owns', async () => {
      const email = uniqueEmail('Signup');
      const response = await api.post('/auth/signup', {
        data: { email, password: TEST_PASSWORD, plan: 'team' },
      });
      expect(response.status).toBe(201);
      expect(response.body.data).toEqual({
        organizationId: expect.any(String),
        userId: expect.any(String),
      });

      const token = await api.token(email.toLowerCase());
      const organization = await api.get('/organizations/current', token);
      expect(organization.body.data).toMatchObject({
        id: response.body.data.organizationId,
        plan: 'team',
      });
      const members = await api.get('/memberships', token);
      expect(members.body.data).toEqual([
        expect.objectContaining({
          role: 'OWNER',
          email: email.toLowerCase(),
          userId: response.body.data.userId,
        }),
      ]);
    });

    it('refuses a second sign-up with the same email (409)', async () => {
      const email = uniqueEmail();
      await api.post('/auth/signup', {
        data: { email, password: TEST_PASSWORD },
      });
      const again = await api.post('/auth/signup', {
        data: { email: email.toUpperCase(), password: TEST_PASSWORD },
      });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('InfraDelivery:User:ALREADY_EXISTS');
    });

    it('lists every validation issue in an ErrorBody', async () => {
      const response = await api.post('/auth/signup', {
        data: { email: 'not-an-email', password: 'short' },
      });
      expect(response.status).toBe(400);
      const body = errorBodySchema.parse(response.body);
      expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
      expect(body.details?.[0].items).toEqual([
        expect.stringContaining('body.data.email'),
        expect.stringContaining('body.data.password'),
      ]);
      expect(body.requestId).toEqual(expect.any(String));
    });

    it('joins the inviting organization with the invited role', async () => {
      const owner = await api.signup();
      const member = await api.member(owner, 'MEMBER');
      const organization = await api.get(
        '/organizations/current',
        member.token,
      );
      expect(organization.body.data.id).toBe(owner.organizationId);
      const members = await api.get('/memberships', owner.token);
      expect(members.body.data).toContainEqual(
        expect.objectContaining({
          id: member.membershipId,
          role: 'MEMBER',
          userId: expect.any(String),
          invitedEmail: member.email,
        }),
      );
    });

    it('refuses an invitation token for another email, or used twice', async () => {
      const owner = await api.signup();
      const invitedEmail = uniqueEmail('invited');
      const invitation = await api.post(
        '/memberships',
        { data: { email: invitedEmail, role: 'VIEWER' } },
        owner.token,
      );
      const invitationToken = invitation.body.data.invitationToken;

      const otherEmail = await api.post('/auth/signup', {
        data: {
          email: uniqueEmail('intruder'),
          password: TEST_PASSWORD,
          invitationToken,
        },
      });
      expect(otherEmail.status).toBe(400);
      expect(otherEmail.body.code).toBe('InfraDelivery:Invitation:INVALID');

      const accepted = await api.post('/auth/signup', {
        data: { email: invitedEmail, password: TEST_PASSWORD, invitationToken },
      });
      expect(accepted.status).toBe(201);

      const replay = await api.post('/auth/signup', {
        data: {
          email: uniqueEmail('replay'),
          password: TEST_PASSWORD,
          invitationToken,
        },
      });
      expect(replay.status).toBe(400);
    });
  });

  describe('POST /auth/signup with an invitation for an email that has an account', () => {
    async function invite(
      inviter: { token: string },
      email: string,
      role = 'MEMBER',
    ) {
      const invitation = await api.post(
        '/memberships',
        { data: { email, role } },
        inviter.token,
      );
      expect(invitation.status).toBe(201);
      return invitation.body.data as { id: string; invitationToken: string };
    }

    it("joins the inviting organization with the account's password, and keeps the account's other organization", async () => {
      const existing = await api.signup();
      const inviter = await api.signup();
      const invitation = await invite(inviter, existing.email);

      const joined = await api.post('/auth/signup', {
        data: {
          email: existing.email.toUpperCase(),
          password: TEST_PASSWORD,
          invitationToken: invitation.invitationToken,
        },
      });
      expect(joined.status).toBe(201);
      expect(joined.body).toEqual({
        data: {
          organizationId: inviter.organizationId,
          userId: existing.userId,
        },
      });

      const members = await api.get('/memberships', inviter.token);
      expect(members.body.data).toContainEqual(
        expect.objectContaining({
          id: invitation.id,
          role: 'MEMBER',
          userId: existing.userId,
          email: existing.email,
        }),
      );
      const token = await api.post('/auth/token', {
        data: {
          email: existing.email,
          password: TEST_PASSWORD,
          organizationId: inviter.organizationId,
        },
      });
      expect(token.status).toBe(200);
      const me = await api.get('/me', token.body.data.accessToken);
      expect(me.body.data).toMatchObject({
        organizationId: inviter.organizationId,
        role: 'MEMBER',
      });
      // Without organizationId the token is still for the account's first organization.
      const first = await api.get(
        '/organizations/current',
        await api.token(existing.email),
      );
      expect(first.body.data.id).toBe(existing.organizationId);

      // The invitation is used up.
      const again = await api.post('/auth/signup', {
        data: {
          email: existing.email,
          password: TEST_PASSWORD,
          invitationToken: invitation.invitationToken,
        },
      });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe('InfraDelivery:Invitation:INVALID');
    });

    it('answers a wrong password as /auth/token does, and leaves the invitation pending', async () => {
      const existing = await api.signup();
      const inviter = await api.signup();
      const invitation = await invite(inviter, existing.email, 'VIEWER');

      const wrong = await api.post('/auth/signup', {
        data: {
          email: existing.email,
          password: 'not the right password',
          invitationToken: invitation.invitationToken,
        },
      });
      const onToken = await api.post('/auth/token', {
        data: { email: existing.email, password: 'not the right password' },
      });
      expect(wrong.status).toBe(401);
      expect(errorBodySchema.parse(wrong.body)).toMatchObject({
        code: onToken.body.code,
        message: onToken.body.message,
      });
      expect(wrong.body.code).toBe('InfraDelivery:Auth:INVALID_CREDENTIALS');

      const members = await api.get('/memberships', inviter.token);
      const pending = members.body.data.find(
        (m: { id: string }) => m.id === invitation.id,
      );
      expect(pending).not.toHaveProperty('userId');

      // Another email's invitation is refused before the password is looked at.
      const other = await invite(inviter, uniqueEmail('someone-else'));
      const foreign = await api.post('/auth/signup', {
        data: {
          email: existing.email,
          password: TEST_PASSWORD,
          invitationToken: other.invitationToken,
        },
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body.code).toBe('InfraDelivery:Invitation:INVALID');

      // Still no way in without an invitation: the email is taken.
      const uninvited = await api.post('/auth/signup', {
        data: { email: existing.email, password: TEST_PASSWORD },
      });
      expect(uninvited.status).toBe(409);
      expect(uninvited.body.code).toBe('InfraDelivery:User:ALREADY_EXISTS');

      const joined = await api.post('/auth/signup', {
        data: {
          email: existing.email,
          password: TEST_PASSWORD,
          invitationToken: invitation.invitationToken,
        },
      });
      expect(joined.status).toBe(201);
      expect(joined.body.data.organizationId).toBe(inviter.organizationId);
    });

    it('slows down wrong passwords as /auth/token does (429)', async () => {
      const existing = await api.signup();
      const inviter = await api.signup();
      const invitation = await invite(inviter, existing.email);
      let last;
      for (let attempt = 0; attempt < 11; attempt++) {
        last = await api.post('/auth/signup', {
          data: {
            email: existing.email,
            password: 'not the right password',
            invitationToken: invitation.invitationToken,
          },
        });
      }
      expect(last!.status).toBe(429);
      expect(last!.body.code).toBe('InfraDelivery:Request:RATE_LIMITED');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  it('signs up only with an invitation where the portal says so (403)', async () => {
    const ADMIN = 'user:default/platform-admin';
    const closed = await startInfraDeliveryBackend(
      await databases.init(databaseId),
      {
        config: {
          infraDelivery: {
            signups: 'invitations-only',
            roleMappings: [{ entityRef: ADMIN, role: 'ADMIN' }],
          },
        },
      },
    );
    const email = uniqueEmail('invited');
    const uninvited = await closed.post('/auth/signup', {
      data: { email, password: TEST_PASSWORD },
    });
    expect(uninvited.status).toBe(403);
    expect(errorBodySchema.parse(uninvited.body)).toMatchObject({
      code: 'InfraDelivery:Signup:INVITATION_REQUIRED',
      message:
        'Signing up here takes an invitation: ask an ADMIN of your organization to invite you (POST /memberships), then sign up with its invitationToken',
    });

    const invitation = await closed.post(
      '/memberships',
      { data: { email, role: 'MEMBER' } },
      closed.backstageUserToken(ADMIN),
    );
    expect(invitation.status).toBe(201);
    const invited = await closed.post('/auth/signup', {
      data: {
        email,
        password: TEST_PASSWORD,
        invitationToken: invitation.body.data.invitationToken,
      },
    });
    expect(invited.status).toBe(201);
  });

  it('hashes a password at infraDelivery.passwords.scryptCost and still signs in a password hashed at another', async () => {
    const knex = await databases.init(databaseId);
    const email = uniqueEmail('cost');
    const first = await startInfraDeliveryBackend(knex, {
      config: { infraDelivery: { passwords: { scryptCost: 11 } } },
    });
    expect(
      (
        await first.post('/auth/signup', {
          data: { email, password: TEST_PASSWORD },
        })
      ).status,
    ).toBe(201);
    const row = await knex('users').where({ email }).first();
    expect(row.password_hash).toMatch(/^scrypt\$2048\$8\$1\$/);

    const raised = await startInfraDeliveryBackend(knex, {
      config: { infraDelivery: { passwords: { scryptCost: 12 } } },
    });
    expect(await raised.token(email)).toEqual(expect.any(String));
  });

  describe('POST /auth/token', () => {
    it('answers wrong passwords and unknown emails alike (401)', async () => {
      const owner = await api.signup();
      const wrongPassword = await api.post('/auth/token', {
        data: { email: owner.email, password: 'wrong password!' },
      });
      const unknownEmail = await api.post('/auth/token', {
        data: { email: uniqueEmail('nobody'), password: TEST_PASSWORD },
      });
      expect(wrongPassword.status).toBe(401);
      expect(unknownEmail.status).toBe(401);
      expect(wrongPassword.body.code).toBe(unknownEmail.body.code);
      expect(wrongPassword.body.message).toBe(unknownEmail.body.message);
    });

    it('limits attempts per email (429 with Retry-After)', async () => {
      const owner = await api.signup();
      let last;
      for (let attempt = 0; attempt < 11; attempt++) {
        last = await api.post('/auth/token', {
          data: { email: owner.email, password: 'wrong password!' },
        });
      }
      expect(last!.status).toBe(429);
      expect(last!.body.code).toBe('InfraDelivery:Request:RATE_LIMITED');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('issues a Bearer token that expires within the hour', async () => {
      const owner = await api.signup();
      const response = await api.post('/auth/token', {
        data: { email: owner.email, password: TEST_PASSWORD },
      });
      expect(response.body.data.tokenType).toBe('Bearer');
      const expiresIn =
        new Date(response.body.data.expiresAt).getTime() - Date.now();
      expect(expiresIn).toBeGreaterThan(50 * 60 * 1000);
      expect(expiresIn).toBeLessThanOrEqual(60 * 60 * 1000);
    });
  });

  it('walks sign-up → token → project → API key → use → revoke → 401', async () => {
    const owner = await api.signup();

    const project = await api.post(
      '/projects',
      { data: { givenId: 'payments', name: 'Payments' } },
      owner.token,
    );
    expect(project.status).toBe(201);

    const created = await api.post(
      '/api-keys',
      { data: { name: 'ci' } },
      owner.token,
    );
    expect(created.status).toBe(201);
    const key: string = created.body.data.key;
    expect(key).toMatch(/^idk_/);
    expect(created.body.data.keySuffix).toBe(key.slice(-4));

    const withKey = await api.get(`/projects/${project.body.data.id}`, key);
    expect(withKey.status).toBe(200);
    expect(withKey.body.data.givenId).toBe('payments');

    const listed = await api.get('/api-keys', owner.token);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(listed.body.data[0].lastUsedAt).toEqual(expect.any(String));

    const revoked = await api.delete(
      `/api-keys/${created.body.data.id}`,
      owner.token,
    );
    expect(revoked.status).toBe(204);

    const afterRevoke = await api.get(`/projects/${project.body.data.id}`, key);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.code).toBe('InfraDelivery:Auth:INVALID_API_KEY');
  });
});
