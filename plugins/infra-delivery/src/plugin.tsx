import {
  ApiBlueprint,
  createFrontendPlugin,
  PageBlueprint,
  SubPageBlueprint,
} from '@backstage/frontend-plugin-api';
import { EntityContentBlueprint } from '@backstage/plugin-catalog-react/alpha';
import CloudQueueIcon from '@material-ui/icons/CloudQueue';
import { infraDeliveryApiFactory } from './api';
import {
  isInfraDeliveryDeploymentsAvailable,
  isInfraDeliveryStacksAvailable,
} from './availability';
import { isInfraDeliveryMetricsAvailable } from './components/MetricsContent/metricSpecs';
import { rootRouteRef } from './routes';

export const infraDeliveryApi = ApiBlueprint.make({
  params: defineParams => defineParams(infraDeliveryApiFactory),
});

/** The Infrastructure page; its sub-pages are its tabs. */
export const infraDeliveryPage = PageBlueprint.make({
  params: {
    path: '/infra-delivery',
    title: 'Infrastructure',
    icon: <CloudQueueIcon fontSize="inherit" />,
    routeRef: rootRouteRef,
  },
});

/**
 * The self-hosted forge login pages, outside the tabs: where "Log in to …" links lead and the
 * servers' OAuth callback (`infraDelivery.portalUrl` + `/gitforge/callback` on the backend).
 */
export const gitForgeLoginPage = PageBlueprint.make({
  name: 'gitforge-login',
  params: {
    path: '/infra-delivery/gitforge',
    title: 'Infrastructure',
    loader: () =>
      import('./components/GitForgeLogin').then(m => <m.GitForgeLoginPage />),
  },
});

export const serviceStatusSubPage = SubPageBlueprint.make({
  name: 'status',
  params: {
    path: 'status',
    title: 'Service',
    loader: () =>
      import('./components/ServiceStatusPage').then(m => (
        <m.ServiceStatusPage />
      )),
  },
});

export const organizationSubPage = SubPageBlueprint.make({
  name: 'organization',
  params: {
    path: 'organization',
    title: 'Organization',
    loader: () =>
      import('./components/OrganizationSettings').then(m => (
        <m.OrganizationSettingsPage />
      )),
  },
});

export const cloudAccountsSubPage = SubPageBlueprint.make({
  name: 'cloud-accounts',
  params: {
    path: 'cloud-accounts',
    title: 'Cloud accounts',
    loader: () =>
      import('./components/CloudAccounts').then(m => <m.CloudAccountsPage />),
  },
});

export const entityStacksContent = EntityContentBlueprint.make({
  name: 'stacks',
  params: {
    path: 'infra-stacks',
    title: 'Stacks',
    filter: isInfraDeliveryStacksAvailable,
    loader: () =>
      import('./components/StacksContent').then(m => <m.StacksContent />),
  },
});

export const entityPipelineRunsContent = EntityContentBlueprint.make({
  name: 'pipeline-runs',
  params: {
    path: 'infra-runs',
    title: 'Pipeline runs',
    filter: isInfraDeliveryStacksAvailable,
    loader: () =>
      import('./components/PipelineRunsContent').then(m => (
        <m.PipelineRunsContent />
      )),
  },
});

export const entityDeploymentsContent = EntityContentBlueprint.make({
  name: 'deployments',
  params: {
    path: 'infra-deployments',
    title: 'Deployments',
    filter: isInfraDeliveryDeploymentsAvailable,
    loader: () =>
      import('./components/DeploymentsContent').then(m => (
        <m.DeploymentsContent />
      )),
  },
});

export const entityMetricsContent = EntityContentBlueprint.make({
  name: 'metrics',
  params: {
    path: 'infra-metrics',
    title: 'Metrics',
    filter: isInfraDeliveryMetricsAvailable,
    loader: () =>
      import('./components/MetricsContent').then(m => <m.MetricsContent />),
  },
});

/**
 * Infrastructure delivery in the portal.
 *
 * @public
 */
export const infraDeliveryPlugin = createFrontendPlugin({
  pluginId: 'infra-delivery',
  extensions: [
    infraDeliveryApi,
    infraDeliveryPage,
    gitForgeLoginPage,
    serviceStatusSubPage,
    cloudAccountsSubPage,
    organizationSubPage,
    entityStacksContent,
    entityPipelineRunsContent,
    entityDeploymentsContent,
    entityMetricsContent,
  ],
  routes: { root: rootRouteRef },
});
