import { SchedulerServiceTaskScheduleDefinitionConfig } from '@backstage/backend-plugin-api';

export interface Config {
  catalog?: {
    providers?: {
      /**
       * Emits the infra-delivery service's projects, environments, cloud accounts and stacks
       * as entities (Systems and Resources: `catalog.rules` must allow both kinds).
       */
      infraDelivery?: {
        /** How often to read the service. Default every 5 minutes. */
        schedule?: SchedulerServiceTaskScheduleDefinitionConfig;
        /** Owner of emitted entities that have no entry in the maps below. */
        defaultOwner?: string;
        /** Project givenId → owner entity ref, e.g. `group:default/payments-team`. */
        projectOwners?: { [projectGivenId: string]: string };
        /** Cloud account givenId → owner entity ref, e.g. `group:default/platform`. */
        cloudAccountOwners?: { [cloudAccountGivenId: string]: string };
        /** Base URL of the portal, for links from entities back to their tabs. */
        portalBaseUrl?: string;
      };
    };
  };
}
