import {
  createTestDatabases,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'the demo deployments on %s',
  databaseId => {
    it('give the demo service a history a person can roll back in', async () => {
      const api = await startInfraDeliveryBackend(
        await databases.init(databaseId),
        {
          config: {
            infraDelivery: {
              demo: { enabled: true },
              roleMappings: [{ entityRef: 'user:default/mock', role: 'OWNER' }],
            },
          },
        },
      );
      const token = api.backstageUserToken();
      const listed = await api.get(
        '/deployments?clusterRef=payments&serviceRef=payments-api',
        token,
      );
      expect(listed.status).toBe(200);
      expect(
        listed.body.data.map((d: { description: string; status: string }) => [
          d.description,
          d.status,
        ]),
      ).toEqual([
        ['Release 1.2.0 (tasks fail to start)', 'FAILED'],
        ['Release 1.1.0', 'SUCCEEDED'],
        ['Release 1.0.0', 'SUCCEEDED'],
      ]);

      // The history happened moments ago: nothing ended in the future.
      for (const deployment of listed.body.data) {
        expect(Date.parse(deployment.completedAt)).toBeLessThan(
          Date.now() + 60_000,
        );
      }

      const first = listed.body.data[2];
      const rollback = await api.post(
        `/deployments/${first.id}/rollback`,
        {},
        token,
      );
      expect(rollback.status).toBe(201);
      expect(rollback.body.data).toMatchObject({
        rollbackToDeploymentId: first.id,
        triggerSource: 'ROLLBACK',
      });
      expect(
        rollback.body.data.data.deployedTaskDefinition?.definition,
      ).toEqual(first.data.deployedTaskDefinition.definition);
    });
  },
);
