import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  registerMswTestHooks,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/frontend-test-utils';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { ServiceStatusPage } from './ServiceStatusPage';

const baseUrl = 'http://backend.test/api/infra-delivery';

describe('ServiceStatusPage', () => {
  const server = setupServer();
  registerMswTestHooks(server);

  const client = new InfraDeliveryClient({
    baseUrl: async () => baseUrl,
    fetch: (input, init) => fetch(input, init),
  });

  function renderPage() {
    return renderInTestApp(
      <TestApiProvider apis={[[infraDeliveryApiRef, client]]}>
        <ServiceStatusPage />
      </TestApiProvider>,
    );
  }

  it('shows the status and the API the backend serves', async () => {
    server.use(
      http.get(`${baseUrl}/health`, () => HttpResponse.json({ status: 'ok' })),
      http.get(`${baseUrl}/openapi.json`, () =>
        HttpResponse.json({
          info: { title: 'Infrastructure Delivery Service', version: '0.0.0' },
          paths: { '/health': { get: {} }, '/openapi.json': { get: {} } },
        }),
      ),
    );

    await renderPage();

    expect(await screen.findByText('Operational')).toBeInTheDocument();
    expect(
      screen.getByText('Infrastructure Delivery Service'),
    ).toBeInTheDocument();
    expect(screen.getByText('0.0.0')).toBeInTheDocument();
    expect(screen.getByText('2')).toBeInTheDocument();
  });

  it('shows the ErrorBody message and request id when the service fails', async () => {
    server.use(
      http.get(`${baseUrl}/health`, () =>
        HttpResponse.json(
          {
            code: 'InfraDelivery:Service:UNAVAILABLE',
            message: 'The database does not answer',
            requestId: 'req-42424242',
          },
          { status: 503 },
        ),
      ),
      http.get(`${baseUrl}/openapi.json`, () => HttpResponse.json({})),
    );

    await renderPage();

    expect(
      await screen.findByText('The database does not answer'),
    ).toBeVisible();
    expect(screen.getByText('Request id: req-42424242')).toBeVisible();
  });
});
