import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Deployment } from '@infra-delivery/plugin-infra-delivery-common';
import {
  baseUrl,
  errorResponse,
  fakeSignals,
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { annotatedServiceEntity } from '../../__testUtils__/deploymentFixtures';
import {
  deployDisabledReason,
  deployFromReview,
  deploymentsOf,
  placedDeployment,
  reviewImage,
} from '../../__testUtils__/deployButton';
import { afterUnderWayMessageMinimum } from '../../__testUtils__/actionMessageClock';
import { DeploymentsContent } from './DeploymentsContent';

describe('DeploymentsContent: Deploy', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  /** The tab over `history`; a POST /deployments answers `answer` (its new deployment on top). */
  const renderTab = async (
    history: Deployment[],
    answer: (body: any) => Response | Deployment,
  ) => {
    server.use(
      deploymentsOf(history),
      http.post(`${baseUrl}/deployments`, async ({ request }) => {
        const answered = answer(await request.json());
        if (answered instanceof Response) return answered;
        history.unshift(answered);
        return HttpResponse.json({ data: answered }, { status: 201 });
      }),
    );
    const signals = fakeSignals();
    await renderEntityContent(
      <DeploymentsContent />,
      annotatedServiceEntity(),
      {
        signals: signals.api,
      },
    );
    return signals;
  };

  const openDialog = async () => {
    await userEvent.click(
      await screen.findByRole('button', { name: 'Deploy to payments-api' }),
    );
    return screen.findByRole('dialog', { name: 'Deploy to payments-api' });
  };

  it('deploys a new image after review, and follows the new deployment to its end', async () => {
    const history = [
      placedDeployment(
        'd2',
        'SUCCEEDED',
        'registry.example.com/payments-api:1.1.0',
      ),
      placedDeployment(
        'd1',
        'SUCCEEDED',
        'registry.example.com/payments-api:1.0.0',
      ),
    ];
    const started: Deployment = {
      ...placedDeployment(
        'd3',
        'IN_PROGRESS',
        'registry.example.com/payments-api:1.2.0',
      ),
      description: 'Deploy payments-api:1.2.0 to payments-api',
    };
    const signals = await renderTab(history, () => started);

    const dialog = await openDialog();
    const image = within(dialog).getByRole('textbox', { name: /Image/ });
    // The running image is offered to edit, and said.
    expect(image).toHaveValue('registry.example.com/payments-api:1.1.0');
    expect(dialog).toHaveTextContent(
      'Running now: registry.example.com/payments-api:1.1.0',
    );
    // Found afresh each time: disabled, it is wrapped in the tooltip that says why.
    const review = () => within(dialog).getByRole('button', { name: 'Review' });
    // The running image itself is no new deployment, and Review says so.
    expect(review()).toBeDisabled();
    await userEvent.hover(review().parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'This image runs now: give the new one',
    );

    // Checked as typed, by the service's own rules, before anything is sent.
    await userEvent.clear(image);
    await userEvent.type(image, 'registry.example.com/payments-api 1.2.0');
    expect(dialog).toHaveTextContent('an image reference without spaces');
    expect(review()).toBeDisabled();
    await userEvent.clear(image);
    await userEvent.type(image, 'registry.example.com/payments-api:1.2.0');
    expect(review()).toBeEnabled();
    await userEvent.click(review());

    // Confirm first: what changes against the running release.
    const confirm = await screen.findByRole('dialog', {
      name: 'Deploy payments-api:1.2.0 to payments-api?',
    });
    expect(
      within(confirm).getByText(/containerDefinitions\.app\.image/),
    ).toBeInTheDocument();
    expect(confirm).toHaveTextContent(
      '- "registry.example.com/payments-api:1.1.0"',
    );
    expect(confirm).toHaveTextContent(
      '+ "registry.example.com/payments-api:1.2.0"',
    );
    const post = await deployFromReview(confirm, requestsTo);
    // Where the service's deployments go, and the image alone: the service keeps the rest.
    expect(post.body).toEqual({
      data: {
        cloudAccountId: 'ca1',
        region: 'eu-west-1',
        environmentId: 'e1',
        clusterRef: 'payments',
        serviceRef: 'payments-api',
        image: { image: 'registry.example.com/payments-api:1.2.0' },
      },
    });
    expect(post.headers.get('idempotency-key')).toBeTruthy();

    // The new deployment at the top, in progress, and the message follows it.
    const message = await screen.findByRole('status');
    expect(message).toHaveTextContent(
      '“Deploy payments-api:1.2.0 to payments-api” started.',
    );
    const rows = screen.getAllByRole('row');
    expect(rows[1]).toHaveTextContent(
      'Deploy payments-api:1.2.0 to payments-api',
    );
    expect(rows[1]).toHaveTextContent('In progress');
    // One deployment at a time: Deploy says what it waits for.
    expect(
      screen.getByRole('button', { name: 'Deploy to payments-api' }),
    ).toBeDisabled();

    history[0] = { ...started, status: 'SUCCEEDED' };
    const reads = requestsTo('GET', '/deployments').length;
    act(() =>
      signals.announce('infra-delivery:deployments', {
        deploymentId: started.id,
        status: 'SUCCEEDED',
        clusterName: 'payments',
        serviceName: 'payments-api',
      }),
    );
    await waitFor(() =>
      expect(requestsTo('GET', '/deployments').length).toBeGreaterThan(reads),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      '“Deploy payments-api:1.2.0 to payments-api” succeeded.',
    );
    expect(
      screen.getByRole('button', { name: 'Deploy to payments-api' }),
    ).toBeEnabled();
  });

  it('asks which container gets the image when the release has several, and sends the description', async () => {
    const history = [
      placedDeployment('d1', 'SUCCEEDED', 'web:1', {
        deployedTaskDefinition: {
          ref: 'arn:aws:ecs:eu-west-1:111122223333:task-definition/payments:1',
          revision: 1,
          definition: {
            family: 'payments',
            containerDefinitions: [
              { name: 'app', image: 'web:1' },
              { name: 'proxy', image: 'envoy:1.30' },
            ],
          },
        },
      }),
    ];
    await renderTab(history, () => ({
      ...placedDeployment('d2', 'IN_PROGRESS', 'web:1'),
      description: 'Envoy 1.31',
    }));
    const dialog = await openDialog();
    // Found afresh each time: disabled, it is wrapped in the tooltip that says why.
    const review = () => within(dialog).getByRole('button', { name: 'Review' });
    expect(review()).toBeDisabled();
    await userEvent.click(
      within(dialog).getByRole('button', { name: /Container/ }),
    );
    await userEvent.click(await screen.findByRole('option', { name: 'proxy' }));
    const image = within(dialog).getByRole('textbox', { name: /Image/ });
    expect(image).toHaveValue('envoy:1.30');
    await userEvent.clear(image);
    await userEvent.type(image, 'envoy:1.31');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Description' }),
      'Envoy 1.31',
    );
    await userEvent.click(review());
    const confirm = await screen.findByRole('dialog', {
      name: 'Deploy envoy:1.31 to payments-api?',
    });
    expect(confirm).toHaveTextContent('containerDefinitions.proxy.image');
    expect(confirm).toHaveTextContent('It is named “Envoy 1.31”.');
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Deploy' }),
    );
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments')).toHaveLength(1),
    );
    expect(requestsTo('POST', '/deployments')[0].body).toMatchObject({
      data: {
        image: { image: 'envoy:1.31', containerName: 'proxy' },
        description: 'Envoy 1.31',
      },
    });
  });

  it('shows the service’s ErrorBody when it refuses, and sends the same Idempotency-Key again', async () => {
    const history = [placedDeployment('d1', 'SUCCEEDED', 'web:1')];
    let answers = 0;
    await renderTab(history, () => {
      answers += 1;
      return answers === 1
        ? errorResponse(422, {
            code: 'InfraDelivery:Deployment:CONTAINER_NOT_FOUND',
            message: 'The task definition has no container app',
            description: 'Name one of its containers',
            requestId: 'req-422',
          })
        : placedDeployment('d2', 'IN_PROGRESS', 'web:2');
    });
    const confirm = await reviewImage('web:2');
    expect(confirm).toHaveAccessibleName('Deploy web:2 to payments-api?');
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Deploy' }),
    );
    expect(
      await within(confirm).findByText(
        'The task definition has no container app',
      ),
    ).toBeInTheDocument();
    expect(confirm).toHaveTextContent('Deploy failed');
    expect(confirm).toHaveTextContent(
      'InfraDelivery:Deployment:CONTAINER_NOT_FOUND · Request id: req-422',
    );

    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Deploy' }),
    );
    await waitFor(() =>
      expect(requestsTo('POST', '/deployments')).toHaveLength(2),
    );
    const [first, second] = requestsTo('POST', '/deployments');
    expect(second.headers.get('idempotency-key')).toBe(
      first.headers.get('idempotency-key'),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
  });

  it('says a field the service refused (400) beside it, back in the form', async () => {
    await renderTab([placedDeployment('d1', 'SUCCEEDED', 'web:1')], () =>
      errorResponse(400, {
        code: 'InfraDelivery:Request:VALIDATION_FAILED',
        message: 'The request is not valid',
        details: [
          {
            title: 'Issues',
            render: 'list',
            items: [
              'body.data.image.image: Too big: expected string to have <=1024 characters',
            ],
          },
        ],
        requestId: 'req-400',
      }),
    );
    const confirm = await reviewImage('web:2');
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Deploy' }),
    );
    const form = await screen.findByRole('dialog', {
      name: 'Deploy to payments-api',
    });
    expect(
      await within(form).findByText('At most 1024 characters'),
    ).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Review' })).toBeDisabled();
    // A changed image may be sent again.
    await userEvent.type(
      within(form).getByRole('textbox', { name: /Image/ }),
      'b',
    );
    expect(within(form).getByRole('button', { name: 'Review' })).toBeEnabled();
  });

  it('is disabled, saying why, while another deployment is under way', async () => {
    const history = [
      placedDeployment('d2', 'IN_PROGRESS', 'web:2'),
      placedDeployment('d1', 'SUCCEEDED', 'web:1'),
    ];
    await renderTab(history, () => history[0]);
    expect(await deployDisabledReason()).toContain(
      '“Deploy web:2” is under way: a service takes one deployment at a time.',
    );
  });

  it('is disabled, naming the annotations a first deployment needs, for a service with no deployment yet', async () => {
    await renderTab([], () => placedDeployment('d1', 'IN_PROGRESS', 'web:1'));
    expect(await deployDisabledReason()).toBe(
      "No deployment of payments-api yet: the first one takes where it goes from the entity's annotations. Its catalog entity lacks infra-delivery.io/project, infra-delivery.io/environment, infra-delivery.io/cloud-account and infra-delivery.io/region.",
    );
  });

  it('keeps saying that the new deployment failed', async () => {
    const history = [placedDeployment('d1', 'SUCCEEDED', 'web:1')];
    const started = placedDeployment('d2', 'IN_PROGRESS', 'web:2');
    const signals = await renderTab(history, () => started);
    const confirm = await reviewImage('web:2');
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Deploy' }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      '“Deploy web:2” started.',
    );
    history[0] = { ...started, status: 'FAILED' };
    const restoreClock = afterUnderWayMessageMinimum();
    act(() =>
      signals.announce('infra-delivery:deployments', {
        deploymentId: started.id,
        status: 'FAILED',
        clusterName: 'payments',
        serviceName: 'payments-api',
      }),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        '“Deploy web:2” failed.',
      ),
    );
    restoreClock();
  });
});
