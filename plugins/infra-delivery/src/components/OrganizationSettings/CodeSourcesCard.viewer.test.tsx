import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  list,
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { repository } from '../../__testUtils__/moduleFixtures';
import { CodeSourcesCard } from './CodeSourcesCard';

// A file of its own: the caller's role is the test server's, and usePermission caches its
// answer across the tests of a file.
describe('CodeSourcesCard for a VIEWER', () => {
  const { server } = setupInfraDeliveryServer({ role: 'VIEWER' });

  it('lists the repositories without offering to connect, verify or remove one', async () => {
    server.use(
      http.get(`${baseUrl}/code-sources`, () =>
        HttpResponse.json(list([repository])),
      ),
    );
    await renderWithService(<CodeSourcesCard />);

    expect(
      await screen.findByRole('link', { name: /^acme\/modules/ }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Members of the organization connect, verify and remove repositories.',
      ),
    ).toBeInTheDocument();
    for (const name of [/^Verify/, /^Remove/, /^Connect/]) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });
});
