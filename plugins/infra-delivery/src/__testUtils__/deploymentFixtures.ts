import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import { now } from './infraDeliveryTestKit';

/** The demo component, optionally with the plugin's annotations. */
export const serviceEntity = (annotations: Record<string, string> = {}) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'payments-api', annotations },
  spec: {},
});

/** The component annotated with its ECS service. */
export const annotatedServiceEntity = () =>
  serviceEntity({ 'infra-delivery.io/ecs-service': 'payments/payments-api' });

/** A deployment of payments/payments-api releasing `image` as revision `d<n>` → n. */
export function deploymentFixture(
  id: string,
  status: Deployment['status'],
  image: string,
  extra: Partial<Deployment['data']> = {},
): Deployment {
  return {
    id,
    organizationId: 'o1',
    deploymentType: 'cloud:container',
    description: `Deploy ${image}`,
    status,
    triggerSource: 'API',
    createdAt: now,
    updatedAt: now,
    data: {
      type: 'cloud:container',
      cloudAccountId: 'ca1',
      region: 'eu-west-1',
      clusterRef: 'payments',
      serviceRef: 'payments-api',
      events: [],
      deployedTaskDefinition: {
        ref: `arn:aws:ecs:eu-west-1:111122223333:task-definition/payments:${Number(
          id.slice(1),
        )}`,
        revision: Number(id.slice(1)),
        definition: {
          family: 'payments',
          containerDefinitions: [{ name: 'app', image }],
        },
      },
      ...extra,
    },
  };
}

/** A history with a deployment paused at a hook over two earlier successful ones. */
export const pausedHistory = (): Deployment[] => [
  deploymentFixture('d3', 'IN_PROGRESS', 'app:3', {
    events: [
      {
        stepCode: 'PAUSED',
        currentStep: 2,
        totalSteps: 4,
        hookId: 'hook-1',
        startedAt: now,
      },
    ],
  }),
  deploymentFixture('d2', 'SUCCEEDED', 'app:2'),
  deploymentFixture('d1', 'SUCCEEDED', 'app:1'),
];
