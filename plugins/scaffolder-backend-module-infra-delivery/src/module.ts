import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import {
  createCloudAccountAction,
  createStackAction,
  triggerRunAction,
  userClientFactory,
} from './actions';
import { readPortalUrl } from './actions/portalUrl';

/**
 * Scaffolder actions of the infra-delivery service: create a stack, trigger a run, register a
 * cloud account. Each calls the service's API as the user who started the task.
 *
 * @public
 */
export const scaffolderModuleInfraDelivery = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'infra-delivery',
  register(reg) {
    reg.registerInit({
      deps: {
        scaffolder: scaffolderActionsExtensionPoint,
        discovery: coreServices.discovery,
        auth: coreServices.auth,
        config: coreServices.rootConfig,
      },
      async init({ scaffolder, discovery, auth, config }) {
        const clients = userClientFactory(discovery, auth);
        const portalUrl = readPortalUrl(config);
        scaffolder.addActions(
          createStackAction({ clients, portalUrl }),
          triggerRunAction({ clients, portalUrl }),
          createCloudAccountAction({ clients }),
        );
      },
    });
  },
});
