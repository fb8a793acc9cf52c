import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  list,
  renderWithService,
  setupInfraDeliveryServer,
  stack,
} from '../../__testUtils__/infraDeliveryTestKit';
import { DriftedStacksCard } from './DriftedStacksCard';

jest.setTimeout(20_000);

describe('DriftedStacksCard', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  it('lists the drifted stacks, linked to their Stacks tab', async () => {
    server.use(
      http.get(`${baseUrl}/stacks`, () =>
        HttpResponse.json(
          list([
            stack({
              id: 'net',
              name: 'Network',
              driftStatus: 'DRIFTED',
              driftedResourceCount: 3,
              lastDriftCheckAt: new Date().toISOString(),
            }),
          ]),
        ),
      ),
    );
    await renderWithService(<DriftedStacksCard />);

    const link = await screen.findByRole('link', { name: 'Network' });
    expect(link).toHaveAttribute(
      'href',
      '/catalog/default/resource/stack-net/infra-stacks',
    );
    expect(screen.getByText('Drifted (3 resources)')).toBeInTheDocument();
    expect(requestsTo('GET', '/stacks')[0].query.getAll('driftStatus')).toEqual(
      ['DRIFTED'],
    );
  });

  it('says so when nothing drifted', async () => {
    server.use(
      http.get(`${baseUrl}/stacks`, () =>
        HttpResponse.json(
          // A service that ignored the filter: an in-sync stack is not listed as drifted.
          list([stack({ id: 'db', name: 'Database', driftStatus: 'IN_SYNC' })]),
        ),
      ),
    );
    await renderWithService(<DriftedStacksCard />);

    expect(
      await screen.findByText(
        'No drift found: every checked stack matches its code.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Database')).not.toBeInTheDocument();
  });
});
