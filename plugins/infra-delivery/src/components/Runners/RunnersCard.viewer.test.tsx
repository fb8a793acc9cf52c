import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  list,
  renderWithService,
  runner,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { RunnersCard } from './RunnersCard';

// A file of its own: the caller's role is set for the whole fake service.
describe('RunnersCard for a VIEWER', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'VIEWER' });

  it('lists the runners without offering to connect one', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () =>
        HttpResponse.json(list([runner({ runnerId: 'runner-ci-1' })])),
      ),
    );
    renderWithService(<RunnersCard />);

    expect(await screen.findByText('runner-ci-1')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('GET', '/me')).toHaveLength(1));
    expect(
      screen.queryByRole('button', { name: 'Connect a runner' }),
    ).not.toBeInTheDocument();
  });

  it('says who can connect a runner when none has connected', async () => {
    server.use(
      http.get(`${baseUrl}/runners`, () => HttpResponse.json(list([]))),
    );
    renderWithService(<RunnersCard />);

    expect(
      await screen.findByText('An organization admin can connect one.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(requestsTo('GET', '/me')).toHaveLength(1));
    expect(
      screen.queryByRole('button', { name: 'Connect a runner' }),
    ).not.toBeInTheDocument();
  });
});
