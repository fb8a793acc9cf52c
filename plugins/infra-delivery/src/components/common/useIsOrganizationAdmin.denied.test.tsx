import { mockApis } from '@backstage/frontend-test-utils';
import { screen } from '@testing-library/react';
import {
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { useIsOrganizationAdmin } from './useIsOrganizationAdmin';

const Probe = () => {
  const isAdmin = useIsOrganizationAdmin();
  return <p>{`admin: ${isAdmin}`}</p>;
};

// A file of its own: usePermission caches its answer across the tests of a file.
describe('useIsOrganizationAdmin in a portal whose policy denies administering', () => {
  setupInfraDeliveryServer({ role: 'ADMIN' });

  it('does not count an ADMIN as one when the policy denies infra-delivery.administer', async () => {
    // A company's policy that denies what it does not name, here allowing reads only: the
    // service answers the ADMIN's member, service account and key changes with 403
    // PERMISSION_DENIED, so the buttons for them are not offered.
    const asked: string[] = [];
    await renderWithService(<Probe />, {
      permission: mockApis.permission({
        authorize: request => {
          asked.push(request.permission.name);
          return request.permission.name === 'infra-delivery.read'
            ? 'ALLOW'
            : 'DENY';
        },
      }),
    });

    expect(await screen.findByText('admin: false')).toBeInTheDocument();
    expect(asked).toContain('infra-delivery.administer');
  });
});
