import { AddressInfo } from 'node:net';
import {
  coreServices,
  createBackendModule,
  createServiceFactory,
  SchedulerService,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
  TestDatabases,
} from '@backstage/backend-test-utils';
import { Entity } from '@backstage/catalog-model';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import { eventsServiceFactory } from '@backstage/plugin-events-node';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
// The catalog reads the real service, so the test runs the service's plugin beside it.
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import infraDeliveryPlugin from '@infra-delivery/plugin-infra-delivery-backend';
import { catalogModuleInfraDelivery } from './module';

/**
 * Each plugin's own SQLite database, closed after the tests: the test backend's default one is
 * never closed, and its connection pool's timers kept Jest's worker from exiting.
 */
const databases = TestDatabases.create({ ids: ['SQLITE_3'] });
const closedDatabases = createServiceFactory({
  service: coreServices.database,
  deps: {},
  async factory() {
    const knex = await databases.init('SQLITE_3');
    return { getClient: async () => knex };
  },
});

jest.setTimeout(120_000);

/** The ids the demo seed gives its stacks and its connected cloud account. */
const DEMO = {
  monitoring: '0193a8c0-0000-7000-8000-00000000d001',
  network: '0193a8c0-0000-7000-8000-00000000d002',
  productionAccount: '0193a8c0-0000-7000-8000-00000000c001',
};
const REFRESH_TASK = 'infra-delivery-entity-provider:refresh';

/**
 * The component an application team writes, naming the demo stacks in its annotation, and a
 * handle on the scheduler so that the test decides when the provider reads the service.
 */
let scheduler: SchedulerService;
const testModule = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'infra-delivery-test',
  register(reg) {
    reg.registerInit({
      deps: {
        processing: catalogProcessingExtensionPoint,
        schedulerService: coreServices.scheduler,
      },
      async init({ processing, schedulerService }) {
        scheduler = schedulerService;
        processing.addEntityProvider({
          getProviderName: () => 'infra-delivery-test-components',
          connect: async connection =>
            connection.applyMutation({
              type: 'full',
              entities: [
                {
                  locationKey: 'test',
                  entity: {
                    apiVersion: 'backstage.io/v1alpha1',
                    kind: 'Component',
                    metadata: {
                      name: 'payments-api',
                      annotations: {
                        'backstage.io/managed-by-location': 'url:test',
                        'backstage.io/managed-by-origin-location': 'url:test',
                        'infra-delivery.io/stacks': `${DEMO.monitoring},${DEMO.network}`,
                      },
                    },
                    spec: {
                      type: 'service',
                      lifecycle: 'production',
                      owner: 'group:default/payments-team',
                    },
                  },
                },
              ],
            }),
        });
      },
    });
  },
});

/** `kind:namespace/name` refs of the entity's relations of one type. */
function related(entity: Entity | undefined, type: string): string[] {
  return (entity?.relations ?? [])
    .filter(r => r.type === type)
    .map(r => r.targetRef)
    .sort();
}

describe('the catalog module in a backend with the catalog and the service', () => {
  let baseUrl: string;
  let portalUser: InfraDeliveryClient;

  beforeAll(async () => {
    const { server } = await startTestBackend({
      features: [
        catalogPlugin,
        catalogModuleInfraDelivery,
        testModule,
        infraDeliveryPlugin,
        closedDatabases,
        // The events service createBackend() installs, one bus for all plugins (the test
        // backend's mock gives each plugin a bus of its own).
        eventsServiceFactory,
        mockServices.scheduler.factory({ skipTaskRunOnStartup: true }),
        mockServices.rootConfig.factory({
          data: {
            catalog: {
              rules: [{ allow: ['Component', 'System', 'Resource'] }],
              providers: {
                infraDelivery: {
                  schedule: {
                    frequency: { minutes: 30 },
                    timeout: { minutes: 1 },
                  },
                  defaultOwner: 'group:default/platform',
                  cloudAccountOwners: {
                    'demo-production': 'group:default/cloud-team',
                  },
                  portalBaseUrl: 'http://portal.example.com',
                },
              },
            },
            infraDelivery: {
              demo: { enabled: true },
              roleMappings: [{ entityRef: 'user:default/mock', role: 'OWNER' }],
            },
          },
        }),
      ],
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    portalUser = new InfraDeliveryClient({
      baseUrl: async () => `${baseUrl}/infra-delivery`,
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: {
            ...init?.headers,
            authorization: `Bearer ${mockCredentials.user.token()}`,
          },
        }),
    });
  });

  async function catalogEntity(ref: string): Promise<Entity | undefined> {
    const [kind, name] = ref.split(':');
    const response = await fetch(
      `${baseUrl}/catalog/entities/by-name/${kind}/default/${name}`,
      {
        headers: { authorization: `Bearer ${mockCredentials.user.token()}` },
      },
    );
    if (response.status === 404) return undefined;
    expect(response.status).toBe(200);
    return response.json();
  }

  /** Waits for the catalog to have processed and stitched the entity as expected. */
  async function eventually(check: () => Promise<void>) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await check();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise(resolve => setTimeout(resolve, 250));
      }
    }
  }

  it('shows the seeded organization with its relations, and follows created and deleted stacks', async () => {
    await scheduler.triggerTask(REFRESH_TASK);

    const monitoring = `resource:stack-${DEMO.monitoring}`;
    const network = `resource:stack-${DEMO.network}`;
    await eventually(async () => {
      const entity = await catalogEntity(monitoring);
      expect(entity?.spec).toMatchObject({
        type: 'iac-stack',
        owner: 'group:default/platform',
        system: 'infra-project-payments',
      });
      expect(related(entity, 'dependsOn')).toEqual([
        'resource:default/cloud-account-demo-production',
        'resource:default/infra-payments-production',
      ]);
      expect(related(entity, 'dependencyOf')).toEqual([
        'component:default/payments-api',
      ]);
      expect(related(entity, 'partOf')).toEqual([
        'system:default/infra-project-payments',
      ]);
    });

    await eventually(async () => {
      const account = await catalogEntity(
        'resource:cloud-account-demo-production',
      );
      expect(account?.metadata).toMatchObject({
        title: 'Production (demo)',
        labels: { 'infra-delivery.io/status': 'connected' },
        annotations: {
          'infra-delivery.io/cloud-account': DEMO.productionAccount,
          'infra-delivery.io/aws-account-id': '111111111111',
        },
      });
      expect(related(account, 'ownedBy')).toEqual(['group:default/cloud-team']);
      expect(related(account, 'dependencyOf')).toEqual(
        [
          `resource:default/stack-${DEMO.monitoring}`,
          `resource:default/stack-${DEMO.network}`,
        ].sort(),
      );
      const sandbox = await catalogEntity(
        'resource:cloud-account-demo-sandbox',
      );
      expect(sandbox?.metadata.labels).toEqual({
        'infra-delivery.io/status': 'awaiting-connection',
      });
      expect(related(sandbox, 'ownedBy')).toEqual(['group:default/platform']);
      const component = await catalogEntity('component:payments-api');
      expect(related(component, 'dependsOn')).toEqual(
        [
          `resource:default/stack-${DEMO.monitoring}`,
          `resource:default/stack-${DEMO.network}`,
        ].sort(),
      );
    });

    // A stack created in the sandbox account appears with its dependency.
    const { projectId, environmentId, sandboxAccountId } =
      await monitoringPlace();
    const stack = await portalUser.call('createStack', {
      body: {
        data: {
          projectId,
          environmentId,
          name: 'Queues',
          cloudAccountId: sandboxAccountId,
        },
      },
    });
    await scheduler.triggerTask(REFRESH_TASK);
    await eventually(async () => {
      const entity = await catalogEntity(`resource:stack-${stack.data.id}`);
      expect(entity?.metadata.title).toBe('Queues');
      expect(related(entity, 'dependsOn')).toEqual([
        'resource:default/cloud-account-demo-sandbox',
        'resource:default/infra-payments-production',
      ]);
    });

    // Deleted stacks leave the catalog; the others stay.
    await portalUser.call('deleteStack', { params: { id: stack.data.id } });
    await portalUser.call('deleteStack', { params: { id: DEMO.network } });
    await scheduler.triggerTask(REFRESH_TASK);
    await eventually(async () => {
      expect(
        await catalogEntity(`resource:stack-${stack.data.id}`),
      ).toBeUndefined();
      expect(await catalogEntity(network)).toBeUndefined();
      const account = await catalogEntity(
        'resource:cloud-account-demo-production',
      );
      expect(related(account, 'dependencyOf')).toEqual([
        `resource:default/stack-${DEMO.monitoring}`,
      ]);
    });
    expect(await catalogEntity(monitoring)).toBeDefined();
  });

  it('follows a stack created, renamed and deleted through the API without waiting for its schedule', async () => {
    // The scheduled refresh is 30 minutes away and is not triggered here: the service
    // announces each change on the events service and the provider reads it at once.
    const soon = async (check: () => Promise<void>) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        try {
          await check();
          return;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await new Promise(resolve => setTimeout(resolve, 250));
        }
      }
    };
    const { projectId, environmentId } = await monitoringPlace();
    const stack = await portalUser.call('createStack', {
      body: { data: { projectId, environmentId, name: 'Caches' } },
    });
    const ref = `resource:stack-${stack.data.id}`;
    await soon(async () => {
      expect((await catalogEntity(ref))?.metadata.title).toBe('Caches');
      // The project's system names its new stack too (its Stacks tab lists it).
      const system = await catalogEntity('system:infra-project-payments');
      expect(
        system?.metadata.annotations?.['infra-delivery.io/stacks'],
      ).toContain(stack.data.id);
    });

    await portalUser.call('updateStack', {
      params: { id: stack.data.id },
      body: { data: { name: 'Redis caches' } },
    });
    await soon(async () => {
      expect((await catalogEntity(ref))?.metadata.title).toBe('Redis caches');
    });

    await portalUser.call('deleteStack', { params: { id: stack.data.id } });
    await soon(async () => {
      expect(await catalogEntity(ref)).toBeUndefined();
    });
  });

  /** Where the demo's monitoring stack lives, and the demo's sandbox account. */
  async function monitoringPlace() {
    const monitoringStack = await portalUser.call('getStack', {
      params: { id: DEMO.monitoring },
    });
    const accounts = await portalUser.call('listCloudAccounts', {
      query: {},
    });
    return {
      projectId: monitoringStack.data.projectId,
      environmentId: monitoringStack.data.environmentId,
      sandboxAccountId: accounts.data.find(a => a.givenId === 'demo-sandbox')!
        .id,
    };
  }
});
