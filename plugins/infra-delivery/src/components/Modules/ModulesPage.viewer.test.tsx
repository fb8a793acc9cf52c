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
import { ModulesPage } from './ModulesPage';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('ModulesPage for a VIEWER', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'VIEWER' });

  it('offers a VIEWER no change: adding, editing or deleting a module, releasing a version, a new instance', async () => {
    server.use(
      http.get(`${baseUrl}/module-definitions`, () =>
        HttpResponse.json(
          list([
            {
              id: 'md-vpc',
              organizationId: 'org-1',
              givenId: 'vpc',
              name: 'VPC',
              codeSourceId: 'cs-1',
              path: '',
              createdAt: now,
              updatedAt: now,
            },
          ]),
        ),
      ),
      http.get(`${baseUrl}/code-sources`, () => HttpResponse.json(list([]))),
      http.get(`${baseUrl}/module-instances`, () =>
        HttpResponse.json(list([])),
      ),
      http.get(`${baseUrl}/default-value-definitions`, () =>
        HttpResponse.json(list([])),
      ),
      http.get(`${baseUrl}/module-definitions/:id/versions`, () =>
        HttpResponse.json(
          list([
            {
              id: 'mv-1',
              organizationId: 'org-1',
              moduleDefinitionId: 'md-vpc',
              version: '1.0.0',
              ref: 'v1.0.0',
              commitSha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
              inputs: [],
              createdAt: now,
            },
          ]),
        ),
      ),
    );

    renderWithService(<ModulesPage />);
    await waitFor(() => expect(requestsTo('GET', '/me')).toHaveLength(1));
    expect(
      screen.queryByRole('button', { name: 'Add module' }),
    ).not.toBeInTheDocument();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of VPC' }),
    );
    const drawer = screen.getByRole('dialog', { name: 'VPC' });
    expect(await within(drawer).findByText('1.0.0')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(drawer).queryByRole('button', { name: 'New instance' }),
      ).not.toBeInTheDocument(),
    );
    for (const name of ['Release version', 'Edit VPC', 'Delete VPC']) {
      expect(
        within(drawer).queryByRole('button', { name }),
      ).not.toBeInTheDocument();
    }
  });
});
