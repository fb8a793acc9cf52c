import { discoveryApiRef } from '@backstage/core-plugin-api';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import {
  mockApis,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Route, Routes } from 'react-router-dom';
import { infraDeliveryApiRef } from './api';
import { InfraDeliveryHomePage } from './legacy';
import {
  baseUrl,
  client,
  list,
  pipelineRun,
  setupInfraDeliveryServer,
  stackList,
  stack,
} from './__testUtils__/infraDeliveryTestKit';

// A whole page with its cards renders in every test.
jest.setTimeout(30_000);

const network = stack({ id: 'net', name: 'Network', givenId: 'network' });
const waiting = pipelineRun({
  id: 'run-1',
  status: 'WAITING_FOR_APPROVAL',
  pipelineId: network.changePipelineId,
  attachedEntityId: 'net',
  description: 'Resize subnets',
});

/**
 * The legacy frontend system, as an app on it mounts the plugin: `InfraDeliveryHomePage` at
 * one path of the app's routes, and nothing else of the plugin's. Every tab and the run pages
 * must be reachable under it.
 */
describe('InfraDeliveryHomePage in a legacy app', () => {
  const { server } = setupInfraDeliveryServer();

  beforeEach(() => {
    const empty = () => HttpResponse.json(list([]));
    server.use(
      stackList([network]),
      http.get(`${baseUrl}/pipeline-runs`, ({ request }) => {
        const statuses = new URL(request.url).searchParams.getAll('status');
        return HttpResponse.json(
          list(
            statuses.length === 0 || statuses.includes(waiting.status)
              ? [waiting]
              : [],
          ),
        );
      }),
      http.get(`${baseUrl}/pipeline-runs/run-1`, () =>
        HttpResponse.json({ data: waiting }),
      ),
      http.get(`${baseUrl}/pipeline-runs/run-1/step-executions`, () =>
        HttpResponse.json({ data: [] }),
      ),
      http.get(`${baseUrl}/health`, () => HttpResponse.json({ status: 'ok' })),
      http.get(`${baseUrl}/openapi.json`, () =>
        HttpResponse.json({
          info: { title: 'Infrastructure Delivery Service', version: '0.1.0' },
          paths: {},
        }),
      ),
      ...[
        'projects',
        'pipelines',
        'cloud-accounts',
        'module-definitions',
        'module-instances',
        'code-sources',
        'default-value-definitions',
        'iac-execution-summaries',
        'iac-resources',
        'memberships',
        'service-accounts',
        'api-keys',
        'gitforge/self-hosted',
        'runners',
      ].map(resource => http.get(`${baseUrl}/${resource}`, empty)),
    );
  });

  const renderAt = (path: string) =>
    renderInTestApp(
      <TestApiProvider
        apis={[
          [infraDeliveryApiRef, client],
          [permissionApiRef, mockApis.permission()],
          [
            discoveryApiRef,
            mockApis.discovery({ baseUrl: new URL(baseUrl).origin }),
          ],
        ]}
      >
        <Routes>
          <Route path="/infra-delivery/*" element={<InfraDeliveryHomePage />} />
        </Routes>
      </TestApiProvider>,
      {
        routeEntries: [path],
        mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
      },
    );

  const selectedTab = () =>
    screen.getByRole('tab', { selected: true }).textContent;

  it('opens on the Overview tab, with the tabs of the new frontend system', async () => {
    await renderAt('/infra-delivery');

    expect(
      await screen.findByText('Failed lately', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map(tab => tab.textContent)).toEqual([
      'Overview',
      'Runs',
      'Projects',
      'Modules',
      'Accounts',
      'Organization',
      'Status',
    ]);
    expect(selectedTab()).toBe('Overview');
  });

  it('leads from a run on the Overview to its page under the Runs tab', async () => {
    await renderAt('/infra-delivery/overview');

    // The run waits for approval, and is its stack's last run: two cards link it.
    const links = await screen.findAllByRole(
      'link',
      { name: 'Resize subnets' },
      { timeout: 10_000 },
    );
    for (const link of links) {
      expect(link).toHaveAttribute('href', '/infra-delivery/runs/run-1');
    }
    await userEvent.click(links[0]);

    const details = await screen.findByRole(
      'region',
      { name: 'Run details' },
      { timeout: 10_000 },
    );
    expect(
      await within(details).findByText('Resize subnets'),
    ).toBeInTheDocument();
    expect(selectedTab()).toBe('Runs');
  });

  it.each([
    ['/infra-delivery/runs', 'Runs', 'Resize subnets'],
    ['/infra-delivery/projects', 'Projects', 'No project yet.'],
    ['/infra-delivery/modules', 'Modules', 'No module yet.'],
    ['/infra-delivery/cloud-accounts', 'Accounts', 'Add AWS account'],
    ['/infra-delivery/organization', 'Organization', 'Members and invitations'],
    ['/infra-delivery/status', 'Status', 'Operational'],
  ])('routes %s to its tab', async (path, tab, text) => {
    await renderAt(path);

    expect(
      await screen.findByText(text, undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(selectedTab()).toBe(tab));
  });

  it('moves between tabs through the header', async () => {
    await renderAt('/infra-delivery/overview');
    await screen.findByText('Failed lately', undefined, { timeout: 10_000 });

    await userEvent.click(screen.getByRole('tab', { name: 'Organization' }));

    expect(
      await screen.findByText('Members and invitations', undefined, {
        timeout: 10_000,
      }),
    ).toBeInTheDocument();
    expect(selectedTab()).toBe('Organization');
  });

  it('says a path under none of its tabs leads nowhere, and leads to the Overview', async () => {
    await renderAt('/infra-delivery/settings');

    expect(
      await screen.findByText('The Infrastructure page has no “settings”'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        "Nothing is at /infra-delivery/settings. The page's tabs are Overview, Runs, Projects, Modules, Accounts, Organization and Status.",
      ),
    ).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('button', { name: 'Go to Overview' }),
    );
    expect(
      await screen.findByText('Failed lately', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});
