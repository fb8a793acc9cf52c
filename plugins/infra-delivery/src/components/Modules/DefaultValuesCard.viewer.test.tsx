import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  list,
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { awsRegion } from '../../__testUtils__/moduleFixtures';
import { DefaultValuesCard, READ_ONLY_REASON } from './DefaultValuesCard';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('DefaultValuesCard for a VIEWER', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'VIEWER' });

  it('lists the default values with adding disabled and said why, and no change or delete', async () => {
    server.use(
      http.get(`${baseUrl}/default-value-definitions`, () =>
        HttpResponse.json(list([awsRegion])),
      ),
    );
    renderWithService(<DefaultValuesCard />);

    const row = (await screen.findByText('AWS region')).closest('tr')!;
    expect(
      within(row).getByText('eu-west-1', { selector: 'td' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('GET', '/me')).toHaveLength(1));

    const add = screen.getByRole('button', { name: 'Add default value' });
    expect(add).toBeDisabled();
    await userEvent.hover(add.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      READ_ONLY_REASON,
    );
    expect(
      screen.getByText(
        'Members of the organization add, change and delete default values.',
      ),
    ).toBeInTheDocument();
    for (const name of ['Edit AWS region', 'Delete AWS region']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });
});
