import { actionsRegistryServiceFactory } from '@backstage/backend-defaults/alpha';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { expectStatus } from '../__testUtils__/pipelineFixtures';
import {
  BASE,
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const MEMBER = 'user:default/member';
const VIEWER = 'user:default/viewer';

describe.each(databases.eachSupportedId())(
  'the deployment tools on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    const invoke = (user: string, name: string, input: object) =>
      request(api.server)
        .post(
          `${BASE}/.backstage/actions/v1/actions/infra-delivery:${name}/invoke`,
        )
        .set('authorization', mockCredentials.user.header(user))
        .send(input);

    beforeAll(async () => {
      // The demo seed gives the portal's payments-api two successful releases and a failed one.
      api = await startInfraDeliveryBackend(await databases.init(databaseId), {
        config: {
          backend: { actions: { pluginSources: ['infra-delivery'] } },
          infraDelivery: {
            demo: { enabled: true },
            roleMappings: [{ entityRef: MEMBER, role: 'MEMBER' }],
            defaultRole: 'VIEWER',
          },
        },
        extraFeatures: [actionsRegistryServiceFactory],
      });
    });

    it('lists a service’s deployments for a VIEWER, and refuses the VIEWER a rollback', async () => {
      const listed = await invoke(VIEWER, 'list-deployments', {
        clusterRef: 'payments',
        serviceRef: 'payments-api',
      });
      expectStatus(listed, 200);
      expect(
        listed.body.output.deployments.map(
          (d: { description: string; status: string }) => [
            d.description,
            d.status,
          ],
        ),
      ).toEqual([
        ['Release 1.2.0 (tasks fail to start)', 'FAILED'],
        ['Release 1.1.0', 'SUCCEEDED'],
        ['Release 1.0.0', 'SUCCEEDED'],
      ]);
      const first = listed.body.output.deployments[2];
      const refused = await invoke(VIEWER, 'rollback-deployment', {
        deploymentId: first.id,
      });
      expect(refused.status).toBe(403);
    });

    it('lets a MEMBER roll back once, and refuses a second rollback while it runs', async () => {
      const listed = await invoke(MEMBER, 'list-deployments', {
        clusterRef: 'payments',
        serviceRef: 'payments-api',
        status: 'SUCCEEDED',
      });
      expectStatus(listed, 200);
      const target = listed.body.output.deployments.find(
        (d: { description: string }) => d.description === 'Release 1.0.0',
      );
      const rolledBack = await invoke(MEMBER, 'rollback-deployment', {
        deploymentId: target.id,
      });
      expectStatus(rolledBack, 200);
      expect(rolledBack.body.output.deployment).toMatchObject({
        rollbackToDeploymentId: target.id,
        taskDefinitionRevision: target.taskDefinitionRevision,
        serviceRef: 'payments-api',
      });
      const again = await invoke(MEMBER, 'rollback-deployment', {
        deploymentId: target.id,
      });
      expect(again.status).toBe(409);
    });

    it('shows nothing of another organization', async () => {
      const outsider = await api.signup();
      const created = await api.post(
        '/cloud-accounts',
        {
          data: { name: 'Theirs', givenId: 'theirs', cloudId: '999999999999' },
        },
        outsider.token,
      );
      expectStatus(created, 201);
      expectStatus(
        await api.post(
          `/cloud-accounts/${created.body.data.id}/connect-local`,
          {},
          outsider.token,
        ),
        200,
      );
      const project = await api.post(
        '/projects',
        { data: { givenId: 'theirs', name: 'Theirs' } },
        outsider.token,
      );
      const environment = await api.post(
        `/projects/${project.body.data.id}/environments`,
        { data: { givenId: 'prod', name: 'Prod' } },
        outsider.token,
      );
      const deployment = await api.post(
        '/deployments',
        {
          data: {
            cloudAccountId: created.body.data.id,
            region: 'eu-west-1',
            environmentId: environment.body.data.id,
            clusterRef: 'secret-cluster',
            serviceRef: 'secret-service',
            taskDefinition: {
              family: 'secret',
              containerDefinitions: [{ name: 'app', image: 'secret:1' }],
            },
          },
        },
        outsider.token,
      );
      expectStatus(deployment, 201);

      const listed = await invoke(MEMBER, 'list-deployments', {
        clusterRef: 'secret-cluster',
      });
      expectStatus(listed, 200);
      expect(listed.body.output.deployments).toEqual([]);
      expect(JSON.stringify(listed.body)).not.toContain('secret-service');
      const rollback = await invoke(MEMBER, 'rollback-deployment', {
        deploymentId: deployment.body.data.id,
      });
      expect(rollback.status).toBe(404);
    });
  },
);
