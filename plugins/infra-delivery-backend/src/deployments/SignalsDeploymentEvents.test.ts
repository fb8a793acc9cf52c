import { createServiceFactory } from '@backstage/backend-plugin-api';
import { mockServices } from '@backstage/backend-test-utils';
import { signalsServiceRef } from '@backstage/plugin-signals-node';
import {
  Deployment,
  DEPLOYMENT_SIGNAL_CHANNEL,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  createTestDatabases,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';
import { migratedStores } from '../__testUtils__/engineFixtures';
import { NewDeployment } from '../database/DeploymentStore';
import { createStores, Stores } from '../database/stores';
import { SignalsDeploymentEvents } from './SignalsDeploymentEvents';

jest.setTimeout(60_000);

const PORTAL = 'portal-org';

function deployment(
  status: Deployment['status'],
  organizationId = PORTAL,
): Deployment {
  return {
    id: 'dep-1',
    organizationId,
    deploymentType: 'cloud:container',
    description: 'Release',
    status,
    triggerSource: 'API',
    createdAt: '2026-01-15T10:00:00.000Z',
    updatedAt: '2026-01-15T10:00:00.000Z',
    data: {
      type: 'cloud:container',
      cloudAccountId: 'ca-1',
      region: 'eu-west-1',
      clusterRef: 'arn:aws:ecs:eu-west-1:123456789012:cluster/payments',
      serviceRef: 'payments-api',
      events: [],
    },
  };
}

describe('SignalsDeploymentEvents', () => {
  function setUp() {
    const signals = { publish: jest.fn(async () => {}) };
    const logger = mockServices.logger.mock();
    const events = new SignalsDeploymentEvents(signals, PORTAL, logger);
    return { signals, logger, events };
  }

  it('announces a change with the cluster and service names', async () => {
    const { signals, events } = setUp();
    await events.deploymentChanged(deployment('IN_PROGRESS'));
    expect(signals.publish).toHaveBeenCalledTimes(1);
    expect(signals.publish).toHaveBeenCalledWith({
      recipients: { type: 'broadcast' },
      channel: DEPLOYMENT_SIGNAL_CHANNEL,
      message: {
        deploymentId: 'dep-1',
        status: 'IN_PROGRESS',
        clusterName: 'payments',
        serviceName: 'payments-api',
      },
    });
  });

  it('keeps deployments of signed-up organizations to themselves', async () => {
    const { signals, events } = setUp();
    await events.deploymentChanged(deployment('SUCCEEDED', 'other-org'));
    expect(signals.publish).not.toHaveBeenCalled();
  });

  it('keeps the recorded change when the announcement fails', async () => {
    const { signals, logger, events } = setUp();
    signals.publish.mockRejectedValueOnce(new Error('events bus down'));
    await expect(
      events.deploymentChanged(deployment('SUCCEEDED')),
    ).resolves.toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining('events bus down'),
    );
  });
});

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'deployment changes told by the stores on %s',
  databaseId => {
    let stores: Stores;
    const told: Deployment[] = [];
    let organizationId: string;
    let cloudAccountId: string;

    beforeAll(async () => {
      const knex = await databases.init(databaseId);
      await migratedStores(knex);
      stores = createStores(knex, {
        deploymentChanges: {
          deploymentChanged: async changed => void told.push(changed),
        },
      });
      organizationId = (await stores.organizations.create({ name: 'Acme' })).id;
      cloudAccountId = (
        await stores.cloudAccounts.create({
          organizationId,
          givenId: 'aws',
          name: 'AWS',
          cloudId: '123456789012',
          externalId: 'external',
        })
      ).id;
    });

    beforeEach(() => {
      told.length = 0;
    });

    function newDeployment(serviceRef: string): NewDeployment {
      return {
        organizationId,
        status: 'PENDING',
        triggerSource: 'API',
        description: 'Release',
        data: {
          type: 'cloud:container',
          cloudAccountId,
          region: 'eu-west-1',
          clusterRef: 'payments',
          serviceRef,
          events: [],
        },
      };
    }

    it('tells a write outside a transaction, and a recorded progress, but no lost compare-and-set', async () => {
      const created = await stores.deployments.create(newDeployment('web'));
      const progressed = await stores.deployments.recordProgress(created, {
        status: 'IN_PROGRESS',
        data: created.data,
      });
      expect(
        await stores.deployments.recordProgress(created, {
          status: 'FAILED',
          data: created.data,
        }),
      ).toBeUndefined();
      expect(told.map(d => [d.id, d.status])).toEqual([
        [created.id, 'PENDING'],
        [progressed!.id, 'IN_PROGRESS'],
      ]);
    });

    it('tells the writes of stores bound to a transaction once it commits, and none of one rolled back', async () => {
      let toldInside = -1;
      const created = await stores.transaction(async tx => {
        const inTx = await tx.deployments.create(newDeployment('api'));
        toldInside = told.length;
        return inTx;
      });
      expect(toldInside).toBe(0);
      expect(told.map(d => d.id)).toEqual([created.id]);

      told.length = 0;
      await expect(
        stores.transaction(async tx => {
          await tx.deployments.create(newDeployment('worker'));
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(told).toEqual([]);
    });
  },
);

describe.each(databases.eachSupportedId())(
  'deployment signals of the plugin on %s',
  databaseId => {
    it('announce the status changes of a portal rollback', async () => {
      const publish = jest.fn(async () => {});
      const api = await startInfraDeliveryBackend(
        await databases.init(databaseId),
        {
          config: {
            infraDelivery: {
              demo: { enabled: true },
              roleMappings: [{ entityRef: 'user:default/mock', role: 'OWNER' }],
            },
          },
          extraFeatures: [
            createServiceFactory({
              service: signalsServiceRef,
              deps: {},
              factory: () => ({ publish }),
            }),
          ],
        },
      );
      const token = api.backstageUserToken();
      const listed = await api.get(
        '/deployments?clusterRef=payments&serviceRef=payments-api',
        token,
      );
      expect(listed.status).toBe(200);
      const first = listed.body.data[listed.body.data.length - 1];
      publish.mockClear();

      const rollback = await api.post(
        `/deployments/${first.id}/rollback`,
        {},
        token,
      );
      expect(rollback.status).toBe(201);

      const announced = publish.mock.calls
        .map(([signal]: any[]) => signal)
        .filter(signal => signal.channel === DEPLOYMENT_SIGNAL_CHANNEL);
      expect(announced.map(signal => signal.message)).toEqual([
        {
          deploymentId: rollback.body.data.id,
          status: 'PENDING',
          clusterName: 'payments',
          serviceName: 'payments-api',
        },
        {
          deploymentId: rollback.body.data.id,
          status: 'IN_PROGRESS',
          clusterName: 'payments',
          serviceName: 'payments-api',
        },
      ]);
      expect(announced[0].recipients).toEqual({ type: 'broadcast' });
    });
  },
);
