import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  list,
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import {
  annotatedServiceEntity,
  pausedHistory,
} from '../../__testUtils__/deploymentFixtures';
import { DeploymentsContent } from './DeploymentsContent';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('DeploymentsContent when the permission policy denies running pipelines', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  it('shows the history without Rollback or Continue', async () => {
    const permissions: string[] = [];
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(pausedHistory())),
      ),
    );
    renderEntityContent(<DeploymentsContent />, annotatedServiceEntity(), {
      authorize: 'DENY',
      onAuthorize: name => permissions.push(name),
    });

    expect(await screen.findByText('Deploy app:1')).toBeInTheDocument();
    await waitFor(() =>
      expect(permissions).toContain('infra-delivery.run.execute'),
    );
    await waitFor(() =>
      expect(requestsTo('GET', '/me').length).toBeGreaterThan(0),
    );
    expect(
      screen.queryByRole('button', { name: /^Roll back/ }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /^Continue/ }),
    ).not.toBeInTheDocument();
  });
});
