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
describe('DeploymentsContent when the policy allows runs but not rollbacks', () => {
  const { server } = setupInfraDeliveryServer();

  it('offers Continue but no Roll back', async () => {
    server.use(
      http.get(`${baseUrl}/deployments`, () =>
        HttpResponse.json(list(pausedHistory())),
      ),
    );
    renderEntityContent(<DeploymentsContent />, annotatedServiceEntity(), {
      authorize: name =>
        name === 'infra-delivery.deployment.rollback' ? 'DENY' : 'ALLOW',
    });

    expect(
      await screen.findByRole('button', { name: /^Continue/ }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: /^Roll back/ }),
      ).not.toBeInTheDocument(),
    );
  });
});
