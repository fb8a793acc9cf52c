import { mockServices } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import {
  migratedStores,
  queueStackRun,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { InfraDeliveryNotifications } from './InfraDeliveryNotifications';
import { NotificationOutbox } from './NotificationOutbox';
import { ecsServiceEntities } from './ecsServiceEntities';
import { NotificationSettings } from './notificationSettings';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const ALL_ON: NotificationSettings = {
  kinds: {
    approvalWaiting: true,
    runFailed: true,
    deploymentFailed: true,
    driftFound: true,
  },
};

describe.each(databases.eachSupportedId())(
  'deployment and settings notifications on %s',
  databaseId => {
    async function setup(settings = ALL_ON) {
      const stores = await migratedStores(await databases.init(databaseId));
      const seed = await seedStacks(stores, 1);
      const send = jest.fn(async () => {});
      const logger = mockServices.logger.mock();
      const outbox = new NotificationOutbox({
        stores,
        notifications: { send },
        lookUpRecipients: ecsServiceEntities({
          catalog: catalogServiceMock({
            entities: [
              {
                apiVersion: 'backstage.io/v1alpha1',
                kind: 'Component',
                metadata: {
                  name: 'checkout',
                  namespace: 'default',
                  annotations: { 'infra-delivery.io/ecs-service': 'prod/web' },
                },
                spec: { type: 'service', owner: 'group:default/web' },
              },
            ],
          }),
          auth: mockServices.auth(),
        }),
        logger,
      });
      const notifications = new InfraDeliveryNotifications({
        outbox,
        stores,
        portalOrganizationId: seed.organizationId,
        settings,
        logger,
      });
      return { stores, seed, send, notifications, outbox };
    }

    function deployment(
      fields: Partial<Deployment> & Pick<Deployment, 'organizationId'>,
    ): Deployment {
      return {
        id: 'deployment-1',
        deploymentType: 'cloud:container',
        description: 'Deploy web 1.4.2',
        status: 'FAILED',
        triggerSource: 'API',
        createdAt: '2026-11-26T10:00:00.000Z',
        updatedAt: '2026-11-26T10:05:00.000Z',
        data: {
          type: 'cloud:container',
          cloudAccountId: 'account-1',
          region: 'eu-west-1',
          clusterRef: 'arn:aws:ecs:eu-west-1:123456789012:cluster/prod',
          serviceRef: 'arn:aws:ecs:eu-west-1:123456789012:service/prod/web',
          events: [],
        },
        ...fields,
      } as Deployment;
    }

    it('tells the owners of the entities showing the service, and of the stack whose run deployed', async () => {
      const { stores, seed, send, notifications, outbox } = await setup();
      const run = await queueStackRun(stores, seed, 0);
      await notifications.deploymentChanged(
        deployment({
          organizationId: seed.organizationId,
          status: 'ROLLED_BACK',
          pipelineRunId: run.id,
        }),
      );
      await outbox.idle();
      expect(send).toHaveBeenCalledWith({
        recipients: {
          type: 'entity',
          entityRef: [
            'component:default/checkout',
            `resource:default/stack-${seed.stacks[0].stackId}`,
          ],
        },
        payload: expect.objectContaining({
          title: 'prod/web: the deployment was rolled back',
          link: '/catalog/default/component/checkout/infra-deployments',
          topic: 'Infrastructure: deployments',
          scope: 'infra-delivery:deployment:deployment-1:ROLLED_BACK',
        }),
      });
    });

    it('is silent about deployments that did not fail and about other organizations', async () => {
      const { seed, send, notifications, outbox } = await setup();
      await notifications.deploymentChanged(
        deployment({
          organizationId: seed.organizationId,
          status: 'SUCCEEDED',
        }),
      );
      await notifications.deploymentChanged(
        deployment({ organizationId: 'another-organization' }),
      );
      await outbox.idle();
      expect(send).not.toHaveBeenCalled();
    });

    it('sends no kind that configuration turned off', async () => {
      const { stores, seed, send, notifications, outbox } = await setup({
        kinds: { ...ALL_ON.kinds, approvalWaiting: false },
      });
      const run = await queueStackRun(stores, seed, 0);
      await notifications.runChanged({
        organizationId: seed.organizationId,
        runId: run.id,
        pipelineId: run.pipelineId,
        attachedEntityId: seed.stacks[0].stackId,
        status: 'WAITING_FOR_APPROVAL',
      });
      await outbox.idle();
      expect(send).not.toHaveBeenCalled();
      await notifications.runChanged({
        organizationId: seed.organizationId,
        runId: run.id,
        pipelineId: run.pipelineId,
        attachedEntityId: seed.stacks[0].stackId,
        status: 'FAILED',
      });
      await outbox.idle();
      expect(send).toHaveBeenCalledTimes(1);
    });
  },
);
