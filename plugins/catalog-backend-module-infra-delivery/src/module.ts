import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { createInfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-node';
import { catalogProcessingExtensionPoint } from '@backstage/plugin-catalog-node';
import { eventsServiceRef } from '@backstage/plugin-events-node';
import { InfraDeliveryEntityProvider } from './InfraDeliveryEntityProvider';
import { readProviderConfig } from './providerConfig';
import { StackRelationsProcessor } from './StackRelationsProcessor';

/**
 * Projects, environments, cloud accounts and stacks of the infra-delivery service in the
 * catalog.
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
        events: eventsServiceRef,
        logger: coreServices.logger,
        processing: catalogProcessingExtensionPoint,
        scheduler: coreServices.scheduler,
      },
      async init({
        auth,
        config,
        discovery,
        events,
        logger,
        processing,
        scheduler,
      }) {
        const { schedule, options } = readProviderConfig(config);
        processing.addEntityProvider(
          new InfraDeliveryEntityProvider({
            client: createInfraDeliveryClient({ discovery, auth }),
            logger,
            taskRunner: scheduler.createScheduledTaskRunner(schedule),
            // The service announces its changes: the catalog follows them within a second.
            events,
            options,
          }),
        );
        processing.addProcessor(new StackRelationsProcessor());
      },
    });
  },
});
