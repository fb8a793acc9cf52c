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
import {
  moduleHandlers,
  version,
  versions,
  vpc,
} from '../../__testUtils__/moduleFixtures';
import { ModulesPage } from './ModulesPage';

describe('ModuleDrawer: releasing a version', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(...moduleHandlers());
  });

  async function openDialog(moduleId = vpc.id, name = 'VPC') {
    renderWithService(<ModulesPage />, {
      initialRouteEntries: [`/?module=${moduleId}`],
    });
    const drawer = await screen.findByRole('dialog', { name });
    await userEvent.click(
      await within(drawer).findByRole('button', { name: 'Release version' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: `Release a version of ${name}`,
    });
    return { drawer, dialog };
  }

  it("releases a version from the repository's default branch, then lists it", async () => {
    const released = version({ id: 'mv-3', version: '1.2.0', ref: 'main' });
    let done = false;
    server.use(
      http.post(`${baseUrl}/module-definitions/:id/versions`, () => {
        done = true;
        return HttpResponse.json({ data: released }, { status: 201 });
      }),
      http.get(`${baseUrl}/module-definitions/:id/versions`, () =>
        HttpResponse.json(list(done ? [released, ...versions] : versions)),
      ),
    );
    const { drawer, dialog } = await openDialog();
    expect(within(dialog).getByLabelText(/^Git ref/)).toHaveValue('main');
    expect(
      within(dialog).getByText(
        'A semantic version: 1.2.0, v1.2.0-rc.1 (newest: 1.1.0)',
      ),
    ).toBeInTheDocument();
    const release = within(dialog).getByRole('button', { name: 'Release' });
    expect(release).toBeDisabled();

    await userEvent.type(within(dialog).getByLabelText(/^Version/), '1.2');
    expect(
      within(dialog).getByText(
        'a semantic version such as 1.2.3 or v1.2.3-rc.1',
      ),
    ).toBeInTheDocument();
    expect(release).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText(/^Version/), '.0');
    await userEvent.click(release);

    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Release a version of VPC' }),
      ).not.toBeInTheDocument(),
    );
    expect(
      requestsTo('POST', `/module-definitions/${vpc.id}/versions`)[0].body,
    ).toEqual({ data: { version: '1.2.0', ref: 'main' } });
    expect(
      within(drawer).getByText('Version 1.2.0 released.'),
    ).toBeInTheDocument();
    const versionsSection = within(drawer)
      .getByRole('heading', { name: 'Versions' })
      .closest('section')!;
    expect(
      await within(versionsSection).findByText('1.2.0'),
    ).toBeInTheDocument();
  });

  it('says beside the Git ref that module.yaml is missing there, and keeps the dialog open', async () => {
    server.use(
      http.post(`${baseUrl}/module-definitions/:id/versions`, () =>
        errorResponse(422, {
          code: 'InfraDelivery:ModuleVersion:MODULE_YAML_NOT_FOUND',
          message: 'acme/modules has no network/vpc/module.yaml at feature-x',
          requestId: 'req-missing',
        }),
      ),
    );
    const { dialog } = await openDialog();
    const ref = within(dialog).getByLabelText(/^Git ref/);
    await userEvent.clear(ref);
    await userEvent.type(ref, 'feature-x');
    await userEvent.type(within(dialog).getByLabelText(/^Version/), '1.2.0');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Release' }),
    );

    expect(
      await within(dialog).findByText(
        'acme/modules has no network/vpc/module.yaml at feature-x',
      ),
    ).toBeInTheDocument();
    expect(ref).toHaveAttribute('aria-invalid', 'true');
  });

  it('says beside the version that it is taken', async () => {
    server.use(
      http.post(`${baseUrl}/module-definitions/:id/versions`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:ModuleVersion:VERSION_TAKEN',
          message: 'Version 1.1.0 of vpc exists already',
          requestId: 'req-taken',
        }),
      ),
    );
    const { dialog } = await openDialog();
    await userEvent.type(within(dialog).getByLabelText(/^Version/), '1.1.0');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Release' }),
    );

    expect(
      await within(dialog).findByText('Version 1.1.0 of vpc exists already'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Version/)).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('lists the problems of an invalid module.yaml', async () => {
    server.use(
      http.post(`${baseUrl}/module-definitions/:id/versions`, () =>
        errorResponse(422, {
          code: 'InfraDelivery:ModuleVersion:INVALID_MODULE_YAML',
          message:
            'network/vpc/module.yaml at main is not a valid module description',
          requestId: 'req-invalid',
          details: [
            {
              title: 'network/vpc/module.yaml',
              render: 'list',
              items: ['inputs[0].label: required'],
            },
          ],
        }),
      ),
    );
    const { dialog } = await openDialog();
    await userEvent.type(within(dialog).getByLabelText(/^Version/), '1.2.0');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Release' }),
    );

    expect(
      await within(dialog).findByText(/The version could not be released/),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('inputs[0].label: required'),
    ).toBeInTheDocument();
  });

  it('offers no release of a module whose repository is no longer connected, saying why', async () => {
    renderWithService(<ModulesPage />, {
      initialRouteEntries: ['/?module=md-queue'],
    });
    const drawer = await screen.findByRole('dialog', { name: 'Queue' });

    const release = await within(drawer).findByRole('button', {
      name: 'Release version',
    });
    expect(release).toBeDisabled();
    await userEvent.hover(release.parentElement!);
    expect(
      await screen.findByText(
        'Its repository is no longer connected: there is no module.yaml to read',
      ),
    ).toBeInTheDocument();
  });
});
