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
describe('DeploymentsContent when the permission policy denies running pipelines', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  it('shows the history without Rollback or Continue', async () => {
    const permissions: string[] = [];
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
      { authorize: 'DENY', onAuthorize: name => permissions.push(name) },
    );

    expect(await screen.findByText('Release d1')).toBeInTheDocument();
    await waitFor(() =>
      expect(permissions).toContain('infra-delivery.run.execute'),
    );
    await waitFor(() =>
      expect(requestsTo('GET', '/me').length).toBeGreaterThan(0),
    );
    expect(
      screen.queryByRole('button', { name: 'Rollback' }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Continue' }),
    ).not.toBeInTheDocument();
  });
});
