import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  registerMswTestHooks,
  renderTestApp,
} from '@backstage/frontend-test-utils';
import { infraDeliveryPlugin } from './plugin';

describe('infraDeliveryPlugin', () => {
  const server = setupServer();
  registerMswTestHooks(server);

  it('mounts its page at /infra-delivery with the API wired to the backend', async () => {
    server.use(
      http.get('*/api/infra-delivery/health', () =>
        HttpResponse.json({ status: 'ok' }),
      ),
      http.get('*/api/infra-delivery/openapi.json', () =>
        HttpResponse.json({
          info: { title: 'Infrastructure Delivery Service', version: '0.0.0' },
          paths: {},
        }),
      ),
    );

    renderTestApp({
      features: [infraDeliveryPlugin],
      initialRouteEntries: ['/infra-delivery'],
    });

    // The whole app mounts first: on a busy machine that takes more than the default second.
    expect(
      await screen.findByText('Operational', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});
