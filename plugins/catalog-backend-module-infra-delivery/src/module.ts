import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import { InfraDeliveryEntityProvider } from './InfraDeliveryEntityProvider';
import { StackRelationsProcessor } from './StackRelationsProcessor';

/**
 * Projects, environments and stacks of the infra-delivery service in the catalog.
 *
 * @public
 */
export const catalogModuleInfraDelivery = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'infra-delivery',
  register(reg) {
    reg.registerInit({
      deps: {
        auth: coreServices.auth,
        config: coreServices.rootConfig,
        discovery: coreServices.discovery,
        logger: coreServices.logger,
        processing: catalogProcessingExtensionPoint,
        scheduler: coreServices.scheduler,
      },
      async init({ auth, config, discovery, logger, processing, scheduler }) {
        const settings = config.getOptionalConfig(
          'catalog.providers.infraDelivery',
        );
        const schedule = settings?.has('schedule')
          ? {
              frequency: settings.get('schedule.frequency') as {
                minutes: number;
              },
              timeout: settings.get('schedule.timeout') as { minutes: number },
            }
          : { frequency: { minutes: 5 }, timeout: { minutes: 3 } };
        processing.addEntityProvider(
          new InfraDeliveryEntityProvider({
            client: InfraDeliveryEntityProvider.clientFor(discovery, auth),
            logger,
            taskRunner: scheduler.createScheduledTaskRunner(schedule),
            options: {
              defaultOwner:
                settings?.getOptionalString('defaultOwner') ??
                'group:default/guests',
              projectOwners:
                (settings?.getOptional('projectOwners') as Record<
                  string,
                  string
                >) ?? {},
              portalBaseUrl:
                settings?.getOptionalString('portalBaseUrl') ??
                config.getOptionalString('app.baseUrl'),
            },
          }),
        );
        processing.addProcessor(new StackRelationsProcessor());
      },
    });
  },
});
