import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Deployment } from '@internal/plugin-infra-delivery-common';
import {
  baseUrl,
  list,
  now,
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { DeploymentsContent } from './DeploymentsContent';

function deployment(
  id: string,
  status: Deployment['status'],
  events: Deployment['data']['events'] = [],
): Deployment {
  return {
    id,
    organizationId: 'o1',
    deploymentType: 'cloud:container',
    description: `Release ${id}`,
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
      events,
      deployedTaskDefinition: {
        ref: `arn:aws:ecs:eu-west-1:1:task-definition/payments:${id}`,
        revision: 1,
        definition: { family: 'payments' },
      },
    },
  };
}

// A file of its own: usePermission caches its answer across the tests of a file.
describe('DeploymentsContent when the policy allows runs but not rollbacks', () => {
  const { server } = setupInfraDeliveryServer();

  it('offers Continue but no Rollback', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            deployment('d3', 'IN_PROGRESS', [
              {
                stepCode: 'PAUSED',
                currentStep: 2,
                totalSteps: 4,
                hookId: 'hook-1',
                startedAt: now,
              },
            ]),
            deployment('d2', 'SUCCEEDED'),
            deployment('d1', 'SUCCEEDED'),
          ]),
        ),
      ),
    );
    renderEntityContent(
      <DeploymentsContent />,
      {
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Component',
        metadata: {
          name: 'payments-api',
          annotations: {
            'infra-delivery.io/ecs-service': 'payments/payments-api',
          },
        },
        spec: {},
      },
      {
        authorize: name =>
          name === 'infra-delivery.deployment.rollback' ? 'DENY' : 'ALLOW',
      },
    );

    expect(
      await screen.findByRole('button', { name: 'Continue' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: 'Rollback' }),
      ).not.toBeInTheDocument(),
    );
  });
});
