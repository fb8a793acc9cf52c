import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

const entity = (annotations: Record<string, string> = {}) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'payments-api', annotations },
  spec: {},
});

function deployment(
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
        ref: `arn:aws:ecs:eu-west-1:1:task-definition/payments:${id}`,
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

describe('DeploymentsContent', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();
  const annotated = entity({
    'infra-delivery.io/ecs-service': 'payments/payments-api',
  });

  it('asks for the ECS service annotation', async () => {
    await renderEntityContent(<DeploymentsContent />, entity());
    expect(
      await screen.findByText(/infra-delivery.io\/ecs-service/),
    ).toBeInTheDocument();
  });

  it('rolls back to an earlier successful deployment after showing what changes', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            deployment('d3', 'SUCCEEDED', 'app:3'),
            deployment('d2', 'FAILED', 'app:2'),
            deployment('d1', 'SUCCEEDED', 'app:1'),
          ]),
        ),
      ),
      http.post(`${baseUrl}/deployments/d1/rollback`, () =>
        HttpResponse.json(
          { data: deployment('d4', 'PENDING', 'app:1') },
          { status: 201 },
        ),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);

    expect(await screen.findByText('Deploy app:3')).toBeInTheDocument();
    const listRequest = requestsTo('GET', '/deployments')[0];
    expect(listRequest.query.get('clusterRef')).toBe('payments');
    expect(listRequest.query.get('serviceRef')).toBe('payments-api');
    // Only the earlier successful deployment offers a rollback.
    const buttons = screen.getAllByRole('button', { name: 'Rollback' });
    expect(buttons).toHaveLength(1);

    await userEvent.click(buttons[0]);
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(/containerDefinitions\.0\.image/),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/- "app:3"/)).toBeInTheDocument();
    expect(within(dialog).getByText(/\+ "app:1"/)).toBeInTheDocument();
    expect(requestsTo('POST', '/deployments/d1/rollback')).toHaveLength(0);

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Roll back' }),
    );
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments/d1/rollback')).toHaveLength(1),
    );
  });

  it('offers to continue a deployment paused at a hook', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(
          list([
            deployment('d5', 'IN_PROGRESS', 'app:5', {
              events: [
                {
                  stepCode: 'PAUSED',
                  currentStep: 2,
                  totalSteps: 4,
                  hookId: 'hook-1',
                  lifecycleStage: 'POST_TEST_TRAFFIC_SHIFT',
                  startedAt: now,
                },
              ],
            }),
          ]),
        ),
      ),
      http.post(`${baseUrl}/deployments/d5/continue`, () =>
        HttpResponse.json({ data: deployment('d5', 'IN_PROGRESS', 'app:5') }),
      ),
    );
    await renderEntityContent(<DeploymentsContent />, annotated);
    expect(
      await screen.findByText(/2\/4 · POST_TEST_TRAFFIC_SHIFT/),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Continue' }),
    );
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments/d5/continue')).toHaveLength(1),
    );
  });
});
