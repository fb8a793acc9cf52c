import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())('GET /me on %s', databaseId => {
  let api: InfraDeliveryTestClient;

  beforeAll(async () => {
    api = await startInfraDeliveryBackend(await databases.init(databaseId));
  });

  it('tells callers their organization, role and membership', async () => {
    const owner = await api.signup();
    const viewer = await api.member(owner, 'VIEWER');

    const asOwner = await api.get('/me', owner.token);
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.data).toEqual({
      organizationId: owner.organizationId,
      role: 'OWNER',
      principalType: 'membership',
      membershipId: expect.any(String),
    });
    const asViewer = await api.get('/me', viewer.token);
    expect(asViewer.body.data).toEqual({
      organizationId: owner.organizationId,
      role: 'VIEWER',
      principalType: 'membership',
      // A portal finds the caller's own row in the members list by it.
      membershipId: viewer.membershipId,
    });
  });

  it('names no membership for a service account', async () => {
    const owner = await api.signup();
    const account = await api.post(
      '/service-accounts',
      { data: { name: `me-${Date.now()}`, role: 'MEMBER' } },
      owner.token,
    );
    const key = await api.post(
      '/api-keys',
      {
        data: {
          name: 'runner',
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: account.body.data.id,
        },
      },
      owner.token,
    );
    const response = await api.get('/me', key.body.data.key);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      organizationId: owner.organizationId,
      role: 'MEMBER',
      principalType: 'service-account',
    });
  });

  it('answers a portal user with the role of the portal organization', async () => {
    const response = await api.get('/me', api.backstageUserToken());
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      role: 'VIEWER',
      principalType: 'membership',
    });
  });

  it('needs a credential', async () => {
    const response = await api.get('/me');
    expect(response.status).toBe(401);
  });
});
