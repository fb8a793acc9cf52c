import { screen } from '@testing-library/react';
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

describe('DeploymentsContent for a VIEWER', () => {
  const { server } = setupInfraDeliveryServer({ role: 'VIEWER' });

  it('shows Deploy disabled, naming the role it takes', async () => {
    server.use(deploymentsOf([placedDeployment('d1', 'SUCCEEDED', 'web:1')]));
    renderEntityContent(<DeploymentsContent />, annotatedServiceEntity());
    await screen.findByText('Deploy web:1');
    expect(await deployDisabledReason()).toBe(
      'Deploying takes the MEMBER role or above in the organization; yours is VIEWER.',
    );
  });
});
