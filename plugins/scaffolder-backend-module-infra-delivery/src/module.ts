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
      },
      async init({ scaffolder, discovery, auth }) {
        const clients = userClientFactory(discovery, auth);
        scaffolder.addActions(
          createStackAction({ clients }),
          triggerRunAction({ clients }),
          createCloudAccountAction({ clients }),
        );
      },
    });
  },
});
