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
  definition,
  moduleHandlers,
  repository,
  vpc,
} from '../../__testUtils__/moduleFixtures';
import { rootRouteRef } from '../../routes';
import { ModulesPage } from './ModulesPage';

describe('ModulesPage: adding a module', () => {
  const { server, requestsTo } = setupInfraDeliveryServer();

  beforeEach(() => {
    server.use(
      ...moduleHandlers(),
      http.get(`${baseUrl}/code-source/:id/module-yaml-exists`, ({ request }) =>
        HttpResponse.json({
          data: {
            exists:
              new URL(request.url).searchParams.get('basePath') ===
              'network/dns',
          },
        }),
      ),
    );
  });

  async function openDialog() {
    renderWithService(<ModulesPage />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Add module' }),
    );
    return screen.findByRole('dialog', { name: 'Add a module' });
  }

  it('adds a module, then lists it and opens it', async () => {
    const dns = definition({
      id: 'md-dns',
      givenId: 'dns-zone',
      name: 'DNS zone',
      path: 'network/dns',
    });
    let added = false;
    server.use(
      http.post(`${baseUrl}/module-definitions`, () => {
        added = true;
        return HttpResponse.json({ data: dns }, { status: 201 });
      }),
      http.get(`${baseUrl}/module-definitions`, () =>
        HttpResponse.json(list(added ? [dns, vpc] : [vpc])),
      ),
    );
    const dialog = await openDialog();
    const add = within(dialog).getByRole('button', { name: 'Add the module' });
    expect(add).toBeDisabled();

    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'DNS zone');
    // The id follows the name.
    expect(within(dialog).getByLabelText(/^Id/)).toHaveValue('dns-zone');
    await userEvent.type(
      within(dialog).getByLabelText(/^Description/),
      'A hosted zone',
    );
    // The only repository is chosen.
    expect(within(dialog).getByLabelText(/^Repository/)).toHaveTextContent(
      'acme/modules',
    );
    await userEvent.type(
      within(dialog).getByLabelText(/^Directory/),
      '/network/dns/',
    );
    expect(
      await within(dialog).findByText(
        'module.yaml found at acme/modules/network/dns on main',
      ),
    ).toBeInTheDocument();
    // The root looked in first (an empty directory), then the path once typed: not a
    // request per keystroke (on a loaded machine, one pause between two keystrokes may outlast
    // the delay and ask for the path typed so far).
    const asked = requestsTo('GET', '/code-source/cs-1/module-yaml-exists').map(
      r => r.query.get('basePath'),
    );
    expect(asked[0]).toBeNull();
    expect(asked[asked.length - 1]).toBe('network/dns');
    expect(asked.length).toBeLessThanOrEqual(3);

    await userEvent.click(add);

    const drawer = await screen.findByRole('dialog', { name: 'DNS zone' });
    expect(drawer).toBeInTheDocument();
    expect(requestsTo('POST', '/module-definitions')[0].body).toEqual({
      data: {
        name: 'DNS zone',
        givenId: 'dns-zone',
        description: 'A hosted zone',
        codeSourceId: repository.id,
        path: 'network/dns',
      },
    });
    await userEvent.click(
      within(drawer).getByRole('button', { name: 'Close' }),
    );
    expect(
      screen.getByRole('button', { name: 'Details of DNS zone' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Module DNS zone added.',
    );
  });

  it('says before adding that the directory holds no module.yaml', async () => {
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'VPC');
    await userEvent.type(
      within(dialog).getByLabelText(/^Directory/),
      'network/vcp',
    );

    expect(
      await within(dialog).findByText(
        /^module\.yaml not found at acme\/modules\/network\/vcp on main/,
      ),
    ).toBeInTheDocument();
    // Only a warning: the file may come with a later commit.
    expect(
      within(dialog).getByRole('button', { name: 'Add the module' }),
    ).toBeEnabled();
  });

  it('says what to do when the service cannot look into the repository, and still adds', async () => {
    server.use(
      http.get(`${baseUrl}/code-source/:id/module-yaml-exists`, () =>
        errorResponse(422, {
          code: 'InfraDelivery:ForgeIntegration:NOT_CONFIGURED',
          message:
            'No GitHub App is configured for github.com in integrations.github',
          description:
            'Add the host with an apiBaseUrl and an App (appId, privateKey) under integrations.github in the app config.',
          requestId: 'req-yaml',
        }),
      ),
    );
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'VPC');

    expect(
      await within(dialog).findByText(
        'Could not look for module.yaml at acme/modules on main: No GitHub App is configured for github.com in integrations.github. Add the host with an apiBaseUrl and an App (appId, privateKey) under integrations.github in the app config. The module can be added meanwhile; its versions are released once the service can read the repository.',
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Add the module' }),
    ).toBeEnabled();
  });

  it('keeps an id the person wrote, and says beside it when it is taken', async () => {
    server.use(
      http.post(`${baseUrl}/module-definitions`, () =>
        errorResponse(409, {
          code: 'InfraDelivery:ModuleDefinition:GIVEN_ID_TAKEN',
          message: 'A module definition vpc exists already',
          requestId: 'req-taken',
        }),
      ),
    );
    const dialog = await openDialog();
    const id = within(dialog).getByLabelText(/^Id/);
    await userEvent.type(id, 'Vpc');
    expect(
      within(dialog).getByText('lowercase letters, digits and inner dashes'),
    ).toBeInTheDocument();
    await userEvent.clear(id);
    await userEvent.type(id, 'vpc');
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Network');
    expect(id).toHaveValue('vpc');

    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Add the module' }),
    );

    expect(
      await within(dialog).findByText('A module definition vpc exists already'),
    ).toBeInTheDocument();
    expect(id).toHaveAttribute('aria-invalid', 'true');
  });

  it('says where a repository is connected when the organization has none', async () => {
    server.use(
      http.get(`${baseUrl}/code-sources`, () => HttpResponse.json(list([]))),
    );
    renderWithService(<ModulesPage />, {
      mountedRoutes: { '/infra-delivery': rootRouteRef },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Add module' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add a module' });

    expect(
      await within(dialog).findByText(/No repository is connected/),
    ).toBeInTheDocument();
    // Where repositories are connected, rather than the API to call.
    expect(
      within(dialog).getByRole('link', {
        name: 'Code sources on the Organization page',
      }),
    ).toHaveAttribute('href', '/infra-delivery/organization#code-sources');
    expect(within(dialog).queryByLabelText(/^Repository/)).toBeNull();
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'VPC');
    expect(
      within(dialog).getByRole('button', { name: 'Add the module' }),
    ).toBeDisabled();
  });

  it('offers adding the first module where the list is empty, saying what a module is', async () => {
    server.use(
      http.get(`${baseUrl}/module-definitions`, () =>
        HttpResponse.json(list([])),
      ),
    );
    renderWithService(<ModulesPage />);

    expect(await screen.findByText('No module yet.')).toBeInTheDocument();
    expect(
      screen.getByText(/^A module is a directory with a module\.yaml/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/POST \/module-definitions/)).toBeNull();
    await waitFor(() =>
      expect(
        screen.getAllByRole('button', { name: 'Add module' }),
      ).toHaveLength(1),
    );
  });
});
