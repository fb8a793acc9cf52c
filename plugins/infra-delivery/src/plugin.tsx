import {
  ApiBlueprint,
  createFrontendPlugin,
  PageBlueprint,
  SubPageBlueprint,
} from '@backstage/frontend-plugin-api';
import { EntityContentBlueprint } from '@backstage/plugin-catalog-react/alpha';
import CloudQueueIcon from '@material-ui/icons/CloudQueue';
import { infraDeliveryApiFactory } from './api';
import { isInfraDeliveryStacksAvailable } from './availability';
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
    serviceStatusSubPage,
    organizationSubPage,
    entityStacksContent,
    entityPipelineRunsContent,
  ],
  routes: { root: rootRouteRef },
});
