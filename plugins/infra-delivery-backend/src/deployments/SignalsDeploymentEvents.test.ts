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
import { DeploymentStore } from '../database/DeploymentStore';
import {
  announcingDeploymentChanges,
  SignalsDeploymentEvents,
} from './SignalsDeploymentEvents';

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

describe('announcingDeploymentChanges', () => {
  function setUp(written: Deployment | undefined) {
    const signals = { publish: jest.fn(async () => {}) };
    const logger = mockServices.logger.mock();
    const store = {
      create: jest.fn(async () => written),
      recordProgress: jest.fn(async () => written),
      get: jest.fn(async () => written),
    } as unknown as DeploymentStore;
    const announcing = announcingDeploymentChanges(
      store,
      new SignalsDeploymentEvents(signals, PORTAL, logger),
    );
    return { signals, logger, store, announcing };
  }

  it('announces a recorded status change with the cluster and service names', async () => {
    const changed = deployment('IN_PROGRESS');
    const { signals, announcing } = setUp(changed);
    const result = await announcing.recordProgress(deployment('PENDING'), {
      status: 'IN_PROGRESS',
      data: changed.data,
    });
    expect(result).toBe(changed);
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

  it('announces a new deployment', async () => {
    const { signals, announcing } = setUp(deployment('PENDING'));
    await announcing.create({} as any);
    expect(signals.publish).toHaveBeenCalledWith(
      expect.objectContaining({
        message: expect.objectContaining({ status: 'PENDING' }),
      }),
    );
  });

  it('announces nothing when the compare-and-set write did not happen', async () => {
    const { signals, announcing } = setUp(undefined);
    const current = deployment('PENDING');
    await announcing.recordProgress(current, {
      status: 'FAILED',
      data: current.data,
    });
    expect(signals.publish).not.toHaveBeenCalled();
  });

  it('keeps deployments of signed-up organizations to themselves', async () => {
    const { signals, announcing } = setUp(deployment('SUCCEEDED', 'other-org'));
    const current = deployment('IN_PROGRESS', 'other-org');
    await announcing.recordProgress(current, {
      status: 'SUCCEEDED',
      data: current.data,
    });
    expect(signals.publish).not.toHaveBeenCalled();
  });

  it('keeps the recorded change when the announcement fails', async () => {
    const changed = deployment('SUCCEEDED');
    const { signals, logger, announcing } = setUp(changed);
    signals.publish.mockRejectedValueOnce(new Error('events bus down'));
    await expect(
      announcing.recordProgress(deployment('IN_PROGRESS'), {
        status: 'SUCCEEDED',
        data: changed.data,
      }),
    ).resolves.toBe(changed);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining('events bus down'),
    );
  });

  it('leaves reads to the store', async () => {
    const { store, announcing } = setUp(deployment('PENDING'));
    await announcing.get(PORTAL, 'dep-1');
    expect(store.get).toHaveBeenCalledWith(PORTAL, 'dep-1');
  });
});

const databases = createTestDatabases();

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
