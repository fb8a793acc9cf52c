import {
  createExternalRouteRef as createLegacyExternalRouteRef,
  createRouteRef as createLegacyRouteRef,
} from '@backstage/core-plugin-api';
import {
  createExternalRouteRef,
  createRouteRef,
} from '@backstage/frontend-plugin-api';

export const rootRouteRef = createRouteRef();

/**
 * Where a legacy app mounted the Infrastructure page (`InfraDeliveryHomePage`): the views
 * that link to the page's tabs find it through this route ref there, and through
 * `rootRouteRef` in the new frontend system.
 */
export const legacyInfrastructureRouteRef = createLegacyRouteRef({
  id: 'infra-delivery-home',
});

/**
 * Where a new stack is created: the scaffolder's page of the stack template that
 * `@infra-delivery/plugin-scaffolder-backend-module-infra-delivery` ships. Optional: where the
 * app binds it to nothing (an app without the scaffolder), the views offer no link.
 */
export const createStackRouteRef = createExternalRouteRef({
  params: ['namespace', 'templateName'],
  defaultTarget: 'scaffolder.selectedTemplate',
});

/** The same in a legacy app, bound with `bindRoutes` to `scaffolderPlugin.routes.selectedTemplate`. */
export const legacyCreateStackRouteRef = createLegacyExternalRouteRef({
  id: 'infra-delivery-create-stack',
  params: ['namespace', 'templateName'],
  optional: true,
});
