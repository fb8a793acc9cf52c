import { Entity } from '@backstage/catalog-model';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  createExtensionTester,
  registerMswTestHooks,
  renderTestApp,
} from '@backstage/frontend-test-utils';
import { EntityCardBlueprint } from '@backstage/plugin-catalog-react/alpha';
import { FormFieldBlueprint } from '@backstage/plugin-scaffolder-react/alpha';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { portalPages } from '@infra-delivery/plugin-infra-delivery-common';
import { stack } from './__testUtils__/infraDeliveryTestKit';
import {
  cloudAccountPickerFormField,
  codeSourcePickerFormField,
  entityOverviewCard,
  environmentPickerFormField,
  runnerLabelsFormField,
  infraDeliveryPlugin,
} from './plugin';

/** The Infrastructure page's tabs, in order. */
const TABS = [
  'Overview',
  'Runs',
  'Projects',
  'Modules',
  'Accounts',
  'Organization',
  'Status',
];

const list = (data: unknown[]) => ({
  data,
  meta: { limit: 50, totalCount: data.length },
});

function entityWith(annotations: Record<string, string>): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: { name: 'payments', annotations },
  };
}

describe('infraDeliveryPlugin', () => {
  const server = setupServer();
  registerMswTestHooks(server);

  beforeEach(() => {
    server.use(
      http.get('*/api/infra-delivery/health', () =>
        HttpResponse.json({ status: 'ok' }),
      ),
      http.get('*/api/infra-delivery/openapi.json', () =>
        HttpResponse.json({
          info: { title: 'Infrastructure Delivery Service', version: '0.0.0' },
          paths: {},
        }),
      ),
      ...['stacks', 'pipelines', 'pipeline-runs', 'cloud-accounts'].map(
        resource =>
          http.get(`*/api/infra-delivery/${resource}`, () =>
            HttpResponse.json(list([])),
          ),
      ),
    );
  });

  it('opens its page at /infra-delivery on the Overview tab, the API wired to the backend', async () => {
    renderTestApp({
      features: [infraDeliveryPlugin],
      initialRouteEntries: ['/infra-delivery'],
    });

    // The whole app mounts first: on a busy machine that takes more than the default second.
    expect(
      await screen.findByText('No run waits for approval.', undefined, {
        timeout: 10_000,
      }),
    ).toBeInTheDocument();
    const tabs = screen.getAllByRole('tab').map(tab => tab.textContent);
    expect(tabs).toEqual(TABS);
    expect(
      within(screen.getByRole('tab', { selected: true })).getByText('Overview'),
    ).toBeInTheDocument();
  });

  it('keeps the service status in its own tab', async () => {
    renderTestApp({
      features: [infraDeliveryPlugin],
      initialRouteEntries: ['/infra-delivery/status'],
    });

    expect(
      await screen.findByText('Operational', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('says a path under none of its tabs leads nowhere, below the same tabs, and leads to the Overview', async () => {
    renderTestApp({
      features: [infraDeliveryPlugin],
      initialRouteEntries: ['/infra-delivery/settings/members'],
    });

    expect(
      await screen.findByText(
        'The Infrastructure page has no “settings/members”',
        undefined,
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map(tab => tab.textContent)).toEqual(
      TABS,
    );
    await userEvent.click(
      screen.getByRole('button', { name: 'Go to Overview' }),
    );
    expect(
      await screen.findByText('No run waits for approval.', undefined, {
        timeout: 10_000,
      }),
    ).toBeInTheDocument();
  });

  it('opens the stack a link names over the Overview, as a template links a stack it created', async () => {
    const network = stack({ id: 'stack-net', name: 'Network' });
    server.use(
      http.get(`*/api/infra-delivery/stacks/${network.id}`, () =>
        HttpResponse.json({ data: network }),
      ),
      http.get('*/api/infra-delivery/iac-resources', () =>
        HttpResponse.json(list([])),
      ),
    );
    renderTestApp({
      features: [infraDeliveryPlugin],
      initialRouteEntries: [`/infra-delivery${portalPages.stack(network.id)}`],
    });

    // Read by its id: the catalog may not know the stack's entity yet.
    const drawer = await screen.findByRole(
      'dialog',
      { name: 'Network' },
      { timeout: 10_000 },
    );
    expect(
      await within(drawer).findByText('Current resources (0)'),
    ).toBeInTheDocument();
    // Over the Overview tab, which the modal drawer hides from assistive technology.
    expect(
      within(
        screen.getByRole('tab', { selected: true, hidden: true }),
      ).getByText('Overview'),
    ).toBeInTheDocument();
  });

  it('offers its overview card only on entities that name stacks or their ECS service', () => {
    const isShownOn = createExtensionTester(entityOverviewCard).get(
      EntityCardBlueprint.dataRefs.filterFunction,
    )!;

    expect(isShownOn(entityWith({ 'infra-delivery.io/stacks': 'net' }))).toBe(
      true,
    );
    expect(
      isShownOn(
        entityWith({
          'infra-delivery.io/ecs-service': 'payments/payments-api',
        }),
      ),
    ).toBe(true);
    expect(isShownOn(entityWith({}))).toBe(false);
    expect(isShownOn(entityWith({ 'infra-delivery.io/stacks': ' , ' }))).toBe(
      false,
    );
  });

  it("gives the scaffolder's form every field the example template names", async () => {
    const template = readFileSync(
      resolve(
        __dirname,
        '../../scaffolder-backend-module-infra-delivery/templates/infra-delivery-stack/template.yaml',
      ),
      'utf8',
    );
    const named = [...template.matchAll(/ui:field: (InfraDelivery\w+)/g)].map(
      match => match[1],
    );
    expect(named).toHaveLength(4);

    const { formFieldLoader } = FormFieldBlueprint.dataRefs;
    const loaders = [
      createExtensionTester(environmentPickerFormField).get(formFieldLoader),
      createExtensionTester(cloudAccountPickerFormField).get(formFieldLoader),
      createExtensionTester(codeSourcePickerFormField).get(formFieldLoader),
      createExtensionTester(runnerLabelsFormField).get(formFieldLoader),
    ];
    const provided = await Promise.all(
      loaders.map(
        async load => ((await load()) as unknown as { name: string }).name,
      ),
    );
    expect(provided.sort()).toEqual(named.sort());
  });
});
