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
import { ProjectsPage, READ_ONLY_REASON } from './ProjectsPage';

// A file of its own: usePermission caches its answer across the tests of a file.
describe('ProjectsPage for a VIEWER', () => {
  const { server, requestsTo } = setupInfraDeliveryServer({ role: 'VIEWER' });

  it('shows the projects and their environments, and offers no change', async () => {
    server.use(
      http.get(`${baseUrl}/projects`, () =>
        HttpResponse.json(
          list([
            {
              id: 'p-1',
              organizationId: 'org-1',
              givenId: 'payments',
              name: 'Payments',
              createdAt: now,
              updatedAt: now,
            },
          ]),
        ),
      ),
      http.get(`${baseUrl}/projects/p-1/environments`, () =>
        HttpResponse.json(
          list([
            {
              id: 'e-1',
              organizationId: 'org-1',
              projectId: 'p-1',
              givenId: 'staging',
              name: 'Staging',
              createdAt: now,
              updatedAt: now,
            },
          ]),
        ),
      ),
    );
    renderWithService(<ProjectsPage />);
    await waitFor(() => expect(requestsTo('GET', '/me')).toHaveLength(1));

    const create = screen.getByRole('button', { name: 'Create project' });
    await waitFor(() => expect(create).toBeDisabled());
    await userEvent.hover(create.parentElement!);
    expect(await screen.findByText(READ_ONLY_REASON)).toBeInTheDocument();

    await userEvent.click(
      await screen.findByRole('button', { name: 'Details of Payments' }),
    );
    const drawer = await screen.findByRole('dialog', { name: 'Payments' });
    expect(within(drawer).getByText('Staging')).toBeInTheDocument();
    for (const name of [
      'Edit project',
      'Delete project',
      'Add environment',
      'Edit Staging',
      'Delete Staging',
    ]) {
      expect(
        within(drawer).queryByRole('button', { name }),
      ).not.toBeInTheDocument();
    }
  });
});
