import { createRouteRef as createLegacyRouteRef } from '@backstage/core-plugin-api';
import { createRouteRef } from '@backstage/frontend-plugin-api';

export const rootRouteRef = createRouteRef();

/**
 * Where a legacy app mounted the Infrastructure page (`InfraDeliveryHomePage`): the views
 * that link to the page's tabs find it through this route ref there, and through
 * `rootRouteRef` in the new frontend system.
 */
export const legacyInfrastructureRouteRef = createLegacyRouteRef({
  id: 'infra-delivery-home',
});
