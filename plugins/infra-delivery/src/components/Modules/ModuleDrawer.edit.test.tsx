import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  baseUrl,
  errorResponse,
  list,
  renderWithService,
  setupInfraDeliveryServer,
} from '../../__testUtils__/infraDeliveryTestKit';
import { moduleHandlers, queue, vpc } from '../../__testUtils__/moduleFixtures';
import { ModulesPage } from './ModulesPage';

describe('ModuleDrawer: editing and deleting a module', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(...moduleHandlers());
  });

  async function openDrawer(moduleId: string, name: string) {
    renderWithService(<ModulesPage />, {
      initialRouteEntries: [`/?module=${moduleId}`],
    });
    return screen.findByRole('dialog', { name });
  }

  it('renames and describes a module, sending only what changed', async () => {
    const renamed = { ...vpc, name: 'Network' };
    let changed = false;
    server.use(
      http.patch(`${baseUrl}/module-definitions/:id`, () => {
        changed = true;
        return HttpResponse.json({ data: renamed });
      }),
      http.get(`${baseUrl}/module-definitions`, () =>
        HttpResponse.json(list([changed ? renamed : vpc, queue])),
      ),
    );
    const drawer = await openDrawer(vpc.id, 'VPC');
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'Edit VPC' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit VPC' });
    const save = within(dialog).getByRole('button', {
      name: 'Save the changes',
    });
    expect(save).toBeDisabled();
    expect(within(dialog).getByText('Its id stays vpc')).toBeInTheDocument();

    const name = within(dialog).getByLabelText(/^Name/);
    await userEvent.clear(name);
    await userEvent.type(name, 'Network');
    await userEvent.click(save);

    expect(
      await screen.findByRole('dialog', { name: 'Network' }),
    ).toBeInTheDocument();
    expect(
      requestsTo('PATCH', `/module-definitions/${vpc.id}`)[0].body,
    ).toEqual({ data: { name: 'Network' } });
    expect(screen.getByText('Module Network changed.')).toBeInTheDocument();
  });

  it('says beside the name what the service refused in it', async () => {
    server.use(
      http.patch(`${baseUrl}/module-definitions/:id`, () =>
        errorResponse(400, {
          code: 'InfraDelivery:Request:VALIDATION_FAILED',
          message: 'The request body is not valid',
          requestId: 'req-name',
          details: [
            {
              title: 'Validation issues',
              render: 'list',
              items: [
                'body.data.name: Too big: expected string to have <=255 characters',
              ],
            },
          ],
        }),
      ),
    );
    const drawer = await openDrawer(vpc.id, 'VPC');
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'Edit VPC' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit VPC' });
    await userEvent.type(within(dialog).getByLabelText(/^Name/), ' network');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Save the changes' }),
    );

    expect(
      await within(dialog).findByText('At most 255 characters'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Name/)).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('offers no delete while instances use the module, saying why', async () => {
    const drawer = await openDrawer(vpc.id, 'VPC');
    const remove = await within(drawer).findByRole('button', {
      name: 'Delete VPC',
    });
    expect(remove).toBeDisabled();
    await userEvent.hover(remove.parentElement!);
    expect(
      await screen.findByText('1 instance uses this module: delete it first'),
    ).toBeInTheDocument();
  });

  it('deletes a module without instances once the person confirms, closing it', async () => {
    let deleted = false;
    server.use(
      http.delete(`${baseUrl}/module-definitions/:id`, () => {
        deleted = true;
        return new HttpResponse(null, { status: 204 });
      }),
      http.get(`${baseUrl}/module-definitions`, () =>
        HttpResponse.json(list(deleted ? [vpc] : [vpc, queue])),
      ),
    );
    const drawer = await openDrawer(queue.id, 'Queue');
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'Delete Queue' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: 'Delete Queue?',
    });
    expect(
      requestsTo('DELETE', `/module-definitions/${queue.id}`),
    ).toHaveLength(0);
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Delete' }),
    );

    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(
      requestsTo('DELETE', `/module-definitions/${queue.id}`),
    ).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Module Queue deleted.',
    );
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: 'Details of Queue' }),
      ).not.toBeInTheDocument(),
    );
  });

  it('says why the service refused a delete', async () => {
    server.use(
      http.delete(`${baseUrl}/module-definitions/:id`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:ModuleDefinition:IN_USE',
          message: 'Module instances still use this module; delete them first',
          requestId: 'req-in-use',
        }),
      ),
    );
    const drawer = await openDrawer(queue.id, 'Queue');
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'Delete Queue' }),
    );
    const confirm = await screen.findByRole('dialog', {
      name: 'Delete Queue?',
    });
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Delete' }),
    );

    expect(
      await within(confirm).findByText(
        'Module instances still use this module; delete them first',
      ),
    ).toBeInTheDocument();
  });
});
