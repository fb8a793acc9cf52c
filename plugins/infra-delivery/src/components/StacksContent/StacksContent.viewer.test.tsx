import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  entityNaming,
  list,
  renderEntityContent,
  setupInfraDeliveryServer,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import { StacksContent } from './StacksContent';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('StacksContent for a VIEWER whom the permission policy allows', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'VIEWER' });
  const network = stack({ id: 'stack-network', name: 'Network' });

  it('hides the actions the VIEWER role may not take', async () => {
    server.use(
      http.get(`${baseUrl}/stacks/resource-count`, () =>
        HttpResponse.json({ data: { counts: [] } }),
      ),
      http.get(`${baseUrl}/stacks/:id`, () =>
        HttpResponse.json({ data: network }),
      ),
      http.get(`${baseUrl}/pipeline-runs`, () => HttpResponse.json(list([]))),
    );

    renderEntityContent(<StacksContent />, entityNaming(network.id), {
      authorize: 'ALLOW',
    });

    expect(await screen.findByText('Network')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('GET', '/me')).toHaveLength(1));
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: 'Plan & apply' }),
      ).not.toBeInTheDocument(),
    );
    expect(
      screen.queryByRole('button', { name: 'Destroy' }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Details' })).toBeInTheDocument();
  });
});
