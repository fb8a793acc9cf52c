import {
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  createRouteRef,
} from '@backstage/core-plugin-api';
import { infraDeliveryApiFactory } from './api';
import {
  legacyCreateStackRouteRef,
  legacyInfrastructureRouteRef,
} from './routes';

/**
 * The same components for apps on the legacy frontend system: add the plugin to the app and
 * place the entity contents in the entity pages, e.g.
 * `<EntityLayout.Route path="/infra-stacks" title="Stacks" if={isInfraDeliveryStacksAvailable}>`.
 * The overview card goes in the entity's Overview, e.g.
 * `<EntitySwitch.Case if={isInfraDeliveryOverviewAvailable}><EntityInfraDeliveryOverviewCard /></EntitySwitch.Case>`;
 * its links lead to the tabs at the paths above (`/infra-stacks`, `/infra-runs`,
 * `/infra-deployments`).
 */
export const legacyInfraDeliveryPlugin = createPlugin({
  id: 'infra-delivery',
  apis: [infraDeliveryApiFactory],
  routes: {
    root: createRouteRef({ id: 'infra-delivery' }),
    home: legacyInfrastructureRouteRef,
    stacks: createRouteRef({ id: 'infra-delivery-entity-stacks' }),
    runs: createRouteRef({ id: 'infra-delivery-entity-runs' }),
    metrics: createRouteRef({ id: 'infra-delivery-entity-metrics' }),
    deployments: createRouteRef({ id: 'infra-delivery-entity-deployments' }),
    cloudAccounts: createRouteRef({ id: 'infra-delivery-cloud-accounts' }),
  },
  externalRoutes: { createStack: legacyCreateStackRouteRef },
});

export const InfraDeliveryStatusPage = legacyInfraDeliveryPlugin.provide(
  createRoutableExtension({
    name: 'InfraDeliveryStatusPage',
    component: () =>
      import('./components/ServiceStatusPage').then(m => m.ServiceStatusPage),
    mountPoint: legacyInfraDeliveryPlugin.routes.root,
  }),
);

/**
 * The Infrastructure page, as the new frontend system's page with its tabs: Overview (runs
 * waiting for approval, runs that failed lately, the stacks with their last run, the cloud
 * accounts to upgrade), Runs with a page per run (`runs/<runId>`), Cloud accounts,
 * Organization and Status, and the self-hosted forge login pages (`gitforge/…`). Mount it at
 * one path, e.g. `<Route path="/infra-delivery" element={<InfraDeliveryHomePage />} />`; its
 * links lead to its own tabs under that path.
 */
export const InfraDeliveryHomePage = legacyInfraDeliveryPlugin.provide(
  createRoutableExtension({
    name: 'InfraDeliveryHomePage',
    component: () =>
      import('./components/LegacyInfrastructurePage').then(
        m => m.LegacyInfrastructurePage,
      ),
    mountPoint: legacyInfraDeliveryPlugin.routes.home,
  }),
);

/**
 * The Infrastructure card for an entity's Overview: the newest run of its stacks, the stacks
 * with their last run and its service's newest deployment.
 */
export const EntityInfraDeliveryOverviewCard =
  legacyInfraDeliveryPlugin.provide(
    createComponentExtension({
      name: 'EntityInfraDeliveryOverviewCard',
      component: {
        lazy: () =>
          import('./components/EntityOverviewCard').then(
            m => m.InfraDeliveryOverviewCard,
          ),
      },
    }),
  );

export const EntityInfraDeliveryStacksContent =
  legacyInfraDeliveryPlugin.provide(
    createRoutableExtension({
      name: 'EntityInfraDeliveryStacksContent',
      component: () =>
        import('./components/StacksContent').then(m => m.StacksContent),
      mountPoint: legacyInfraDeliveryPlugin.routes.stacks,
    }),
  );

export const EntityInfraDeliveryPipelineRunsContent =
  legacyInfraDeliveryPlugin.provide(
    createRoutableExtension({
      name: 'EntityInfraDeliveryPipelineRunsContent',
      component: () =>
        import('./components/PipelineRunsContent').then(
          m => m.PipelineRunsContent,
        ),
      mountPoint: legacyInfraDeliveryPlugin.routes.runs,
    }),
  );

export const EntityInfraDeliveryMetricsContent =
  legacyInfraDeliveryPlugin.provide(
    createRoutableExtension({
      name: 'EntityInfraDeliveryMetricsContent',
      component: () =>
        import('./components/MetricsContent').then(m => m.MetricsContent),
      mountPoint: legacyInfraDeliveryPlugin.routes.metrics,
    }),
  );

export const InfraDeliveryCloudAccountsPage = legacyInfraDeliveryPlugin.provide(
  createRoutableExtension({
    name: 'InfraDeliveryCloudAccountsPage',
    component: () =>
      import('./components/CloudAccounts').then(m => m.CloudAccountsPage),
    mountPoint: legacyInfraDeliveryPlugin.routes.cloudAccounts,
  }),
);

export const EntityInfraDeliveryDeploymentsContent =
  legacyInfraDeliveryPlugin.provide(
    createRoutableExtension({
      name: 'EntityInfraDeliveryDeploymentsContent',
      component: () =>
        import('./components/DeploymentsContent').then(
          m => m.DeploymentsContent,
        ),
      mountPoint: legacyInfraDeliveryPlugin.routes.deployments,
    }),
  );
