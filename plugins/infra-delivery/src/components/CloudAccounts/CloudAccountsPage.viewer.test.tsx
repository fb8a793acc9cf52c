import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  list,
  now,
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { ADMIN_ONLY_REASON, CloudAccountsPage } from './CloudAccountsPage';

// A file of its own: the role is the test server's, one per file.
describe('CloudAccountsPage for a VIEWER', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'VIEWER' });

  it('shows the accounts, and greys adding and connecting with the reason', async () => {
    server.use(
      http.get(`${baseUrl}/cloud-accounts`, () =>
        HttpResponse.json(
          list([
            {
              id: 'ca-1',
              givenId: 'sandbox',
              name: 'Sandbox',
              organizationId: 'org-1',
              status: 'AWAITING_CONNECTION',
              cloudId: '111122223333',
              latestRoleVersion: 'v3',
              latestRoleVersionDescription: 'Adds CloudWatch read access',
              createdAt: now,
              updatedAt: now,
            },
          ]),
        ),
      ),
    );
    renderWithService(<CloudAccountsPage />);
    await waitFor(() => expect(requestsTo('GET', '/me')).toHaveLength(1));
    const row = (await screen.findByText('Sandbox')).closest('tr')!;

    // The service refuses a VIEWER both (ADMINISTER): greyed, saying why, not a 403 after
    // the form.
    const add = screen.getByRole('button', { name: 'Add AWS account' });
    await waitFor(() => expect(add).toBeDisabled());
    await userEvent.hover(add.parentElement!);
    expect(
      await screen.findByRole('tooltip', { name: ADMIN_ONLY_REASON }),
    ).toBeInTheDocument();
    await userEvent.unhover(add.parentElement!);

    const connect = within(row).getByRole('button', {
      name: 'Connect Sandbox',
    });
    expect(connect).toBeDisabled();
    await userEvent.hover(connect.parentElement!);
    expect(
      await screen.findByRole('tooltip', { name: ADMIN_ONLY_REASON }),
    ).toBeInTheDocument();
    expect(
      within(row).queryByRole('button', { name: 'Remove Sandbox' }),
    ).not.toBeInTheDocument();
    expect(requestsTo('POST', '/cloud-accounts')).toHaveLength(0);
  });
});
