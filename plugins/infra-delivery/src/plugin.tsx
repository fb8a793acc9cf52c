import {
  ApiBlueprint,
  createFrontendPlugin,
  PageBlueprint,
} from '@backstage/frontend-plugin-api';
import CloudQueueIcon from '@material-ui/icons/CloudQueue';
import { infraDeliveryApiFactory } from './api';
import { rootRouteRef } from './routes';

export const infraDeliveryApi = ApiBlueprint.make({
  params: defineParams => defineParams(infraDeliveryApiFactory),
});

export const infraDeliveryPage = PageBlueprint.make({
  params: {
    path: '/infra-delivery',
    title: 'Infrastructure',
    icon: <CloudQueueIcon fontSize="inherit" />,
    routeRef: rootRouteRef,
    loader: () =>
      import('./components/ServiceStatusPage').then(m => (
        <m.ServiceStatusPage />
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
  extensions: [infraDeliveryApi, infraDeliveryPage],
  routes: { root: rootRouteRef },
});
