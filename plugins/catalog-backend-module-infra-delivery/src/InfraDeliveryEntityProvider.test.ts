import { AddressInfo } from 'node:net';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
  TestDatabases,
} from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import { EntityProviderConnection } from '@backstage/plugin-catalog-node';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
// The catalog reads the real service, so the test runs the service's plugin beside it.
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import infraDeliveryPlugin from '@infra-delivery/plugin-infra-delivery-backend';
import { InfraDeliveryEntityProvider } from './InfraDeliveryEntityProvider';

/** Closed after the tests: the test backend's default database never is, and kept Jest's worker alive. */
const databases = TestDatabases.create({ ids: ['SQLITE_3'] });

jest.setTimeout(60_000);

function clientWith(baseUrl: string, token: string) {
  return new InfraDeliveryClient({
    baseUrl: async () => baseUrl,
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...init?.headers, authorization: `Bearer ${token}` },
      }),
  });
}

describe('InfraDeliveryEntityProvider against the service', () => {
  let portalUser: InfraDeliveryClient;
  let provider: InfraDeliveryEntityProvider;
  const applyMutation = jest.fn();

  beforeAll(async () => {
    const { server } = await startTestBackend({
      features: [
        infraDeliveryPlugin,
        mockServices.database.factory({
          knex: await databases.init('SQLITE_3'),
        }),
        mockServices.rootConfig.factory({
          data: {
            infraDelivery: {
              roleMappings: [{ entityRef: 'user:default/mock', role: 'OWNER' }],
            },
          },
        }),
      ],
    });
    const baseUrl = `http://127.0.0.1:${
      (server.address() as AddressInfo).port
    }/api/infra-delivery`;
    portalUser = clientWith(baseUrl, mockCredentials.user.token());
    provider = new InfraDeliveryEntityProvider({
      // The catalog reads as a Backstage service, never as a user.
      client: clientWith(baseUrl, mockCredentials.service.token()),
      logger: mockServices.logger.mock(),
      options: {
        defaultOwner: 'group:default/platform',
        projectOwners: { payments: 'group:default/payments-team' },
        cloudAccountOwners: {},
        portalBaseUrl: 'http://portal.example.com',
      },
    });
    await provider.connect({
      applyMutation,
      refresh: jest.fn(),
    } as EntityProviderConnection);
  });

  function emitted(): Entity[] {
    const [mutation] =
      applyMutation.mock.calls[applyMutation.mock.calls.length - 1];
    expect(mutation.type).toBe('full');
    return mutation.entities.map((e: { entity: Entity }) => e.entity);
  }

  it('emits the portal organization’s projects, environments, cloud accounts and stacks, and follows changes', async () => {
    const project = await portalUser.call('createProject', {
      body: { data: { givenId: 'payments', name: 'Payments' } },
    });
    const environment = await portalUser.call('createEnvironment', {
      params: { projectId: project.data.id },
      body: { data: { givenId: 'prod', name: 'Production' } },
    });
    const account = await portalUser.call('createCloudAccount', {
      body: {
        data: {
          givenId: 'production',
          name: 'Production',
          cloudId: '123456789012',
        },
      },
    });
    const network = await portalUser.call('createStack', {
      body: {
        data: {
          projectId: project.data.id,
          environmentId: environment.data.id,
          name: 'Network',
          cloudAccountId: account.data.id,
        },
      },
    });

    await provider.refresh();
    let entities = emitted();
    expect(entities.map(e => `${e.kind}:${e.metadata.name}`).sort()).toEqual([
      'Resource:cloud-account-production',
      'Resource:infra-payments-prod',
      `Resource:stack-${network.data.id}`,
      'System:infra-project-payments',
    ]);
    const stackEntity = entities.find(
      e => e.metadata.name === `stack-${network.data.id}`,
    )!;
    expect(stackEntity).toMatchObject({
      metadata: {
        title: 'Network',
        annotations: { 'infra-delivery.io/stacks': network.data.id },
        links: [
          {
            url: `http://portal.example.com/catalog/default/resource/stack-${network.data.id}/infra-stacks`,
          },
          expect.anything(),
        ],
      },
      spec: {
        type: 'iac-stack',
        owner: 'group:default/payments-team',
        system: 'infra-project-payments',
        dependsOn: [
          'resource:default/infra-payments-prod',
          'resource:default/cloud-account-production',
        ],
      },
    });
    expect(
      entities.find(e => e.metadata.name === 'cloud-account-production'),
    ).toMatchObject({
      metadata: {
        title: 'Production',
        labels: { 'infra-delivery.io/status': 'awaiting-connection' },
        annotations: { 'infra-delivery.io/cloud-account': account.data.id },
      },
      spec: { type: 'cloud-account', owner: 'group:default/platform' },
    });

    const database = await portalUser.call('createStack', {
      body: {
        data: {
          projectId: project.data.id,
          environmentId: environment.data.id,
          name: 'Database',
        },
      },
    });
    await provider.refresh();
    expect(emitted().map(e => e.metadata.name)).toContain(
      `stack-${database.data.id}`,
    );

    await portalUser.call('deleteStack', { params: { id: network.data.id } });
    await provider.refresh();
    entities = emitted();
    expect(entities.map(e => e.metadata.name)).not.toContain(
      `stack-${network.data.id}`,
    );
    expect(entities.map(e => e.metadata.name)).toContain(
      `stack-${database.data.id}`,
    );
  });
});
