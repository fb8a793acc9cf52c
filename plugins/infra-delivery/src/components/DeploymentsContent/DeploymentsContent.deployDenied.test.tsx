import {
  renderEntityContent,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { annotatedServiceEntity } from '../../__testUtils__/deploymentFixtures';
import {
  deployDisabledReason,
  deploymentsOf,
  placedDeployment,
} from '../../__testUtils__/deployButton';
import { DeploymentsContent } from './DeploymentsContent';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('DeploymentsContent when the portal’s policy does not allow runs', () => {
  const { server } = setupInfraDeliveryServer();

  it('shows Deploy disabled, naming the policy', async () => {
    server.use(deploymentsOf([placedDeployment('d1', 'SUCCEEDED', 'web:1')]));
    renderEntityContent(<DeploymentsContent />, annotatedServiceEntity(), {
      authorize: name =>
        name === 'infra-delivery.run.execute' ? 'DENY' : 'ALLOW',
    });
    expect(await deployDisabledReason()).toBe(
      "The portal's permission policy does not let you deploy.",
    );
  });
});
