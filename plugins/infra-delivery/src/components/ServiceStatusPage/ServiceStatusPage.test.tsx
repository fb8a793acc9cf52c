import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  registerMswTestHooks,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/frontend-test-utils';
import { discoveryApiRef, RouteRef } from '@backstage/frontend-plugin-api';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { rootRouteRef } from '../../routes';
import { ServiceStatusPage } from './ServiceStatusPage';

const baseUrl = 'http://backend.test/api/infra-delivery';

describe('ServiceStatusPage', () => {
  const server = setupServer();
  registerMswTestHooks(server);

  const client = new InfraDeliveryClient({
    baseUrl: async () => baseUrl,
    fetch: (input, init) => fetch(input, init),
  });

  function renderPage(mountedRoutes?: Record<string, RouteRef>) {
    return renderInTestApp(
      <TestApiProvider
        apis={[
          [infraDeliveryApiRef, client],
          [discoveryApiRef, { getBaseUrl: async () => baseUrl }],
        ]}
      >
        <ServiceStatusPage />
      </TestApiProvider>,
      { mountedRoutes },
    );
  }

  /** `{ data: [], meta }` of a list with `totalCount` items. */
  const counted = (totalCount: number) =>
    HttpResponse.json({ data: [], meta: { limit: 1, totalCount } });

  function serveService() {
    server.use(
      http.get(`${baseUrl}/health`, () => HttpResponse.json({ status: 'ok' })),
      http.get(`${baseUrl}/openapi.json`, () =>
        HttpResponse.json({
          info: { title: 'Infrastructure Delivery Service', version: '0.0.0' },
          paths: { '/health': { get: {} }, '/openapi.json': { get: {} } },
        }),
      ),
      http.get(`${baseUrl}/runners`, ({ request }) =>
        counted(
          new URL(request.url).searchParams.get('status') === 'ONLINE' ? 1 : 3,
        ),
      ),
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) =>
        counted(
          new URL(request.url).searchParams.get('status') === 'QUEUED' ? 4 : 2,
        ),
      ),
    );
  }

  const valueOf = (title: string) =>
    screen.getByText(title).closest('tr')!.querySelector('td:last-child');

  it('shows the status, the work waiting, and the API the backend serves', async () => {
    serveService();

    await renderPage();

    expect(await screen.findByText('Operational')).toBeInTheDocument();
    expect(valueOf('Runners')).toHaveTextContent('1 online of 3');
    expect(valueOf('Queued runs')).toHaveTextContent('4');
    expect(valueOf('Waiting for approval')).toHaveTextContent('2');
    expect(
      screen.getByText('Infrastructure Delivery Service'),
    ).toBeInTheDocument();
    expect(screen.getByText('0.0.0')).toBeInTheDocument();
    expect(valueOf('Operations')).toHaveTextContent(/^2 \(OpenAPI document/);
    // The document opens in a tab of its own, for tools that generate clients from it.
    expect(
      screen.getByRole('link', { name: /^OpenAPI document/ }),
    ).toHaveAttribute('href', `${baseUrl}/openapi.json`);
  });

  it('links each figure to the list it counts, where the app has the Infrastructure page', async () => {
    serveService();

    await renderPage({ '/infra-delivery': rootRouteRef });

    expect(await screen.findByText('Operational')).toBeInTheDocument();
    const linkIn = (title: string) =>
      within(valueOf(title) as HTMLElement).getByRole('link');
    expect(linkIn('Runners')).toHaveAttribute(
      'href',
      '/infra-delivery/organization#runners',
    );
    expect(linkIn('Queued runs')).toHaveAttribute(
      'href',
      '/infra-delivery/runs?status=QUEUED',
    );
    expect(linkIn('Waiting for approval')).toHaveAttribute(
      'href',
      '/infra-delivery/runs?status=WAITING_FOR_APPROVAL',
    );
  });

  it('says that work waits when no runner is connected', async () => {
    serveService();
    server.use(http.get(`${baseUrl}/runners`, () => counted(0)));

    await renderPage();

    expect(await screen.findByText('Operational')).toBeInTheDocument();
    expect(valueOf('Runners')).toHaveTextContent(
      'None connected: plans, applies and destroys wait for one',
    );
  });

  it('leaves out a figure the caller may not read', async () => {
    serveService();
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(
          {
            code: 'InfraDelivery:Runner:FORBIDDEN',
            message: 'No',
            requestId: 'req-1',
          },
          { status: 403 },
        ),
      ),
    );

    await renderPage();

    expect(await screen.findByText('Operational')).toBeInTheDocument();
    expect(screen.queryByText('Runners')).not.toBeInTheDocument();
    expect(valueOf('Queued runs')).toHaveTextContent('4');
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
