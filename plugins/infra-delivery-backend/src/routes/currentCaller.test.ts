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

  it('tells callers their organization and role', async () => {
    const owner = await api.signup();
    const viewer = await api.member(owner, 'VIEWER');

    const asOwner = await api.get('/me', owner.token);
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.data).toEqual({
      organizationId: owner.organizationId,
      role: 'OWNER',
      principalType: 'membership',
    });
    const asViewer = await api.get('/me', viewer.token);
    expect(asViewer.body.data.role).toBe('VIEWER');
    expect(asViewer.body.data.organizationId).toBe(owner.organizationId);
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
