export interface Config {
  catalog?: {
    providers?: {
      /** Emits the infra-delivery service's projects, environments and stacks as entities. */
      infraDelivery?: {
        /** How often to read the service. Default every 5 minutes. */
        schedule?: {
          frequency: { minutes?: number; seconds?: number };
          timeout: { minutes?: number; seconds?: number };
        };
        /** Owner of emitted entities whose project has no entry in `projectOwners`. */
        defaultOwner?: string;
        /** Project givenId → owner entity ref, e.g. `group:default/payments-team`. */
        projectOwners?: { [projectGivenId: string]: string };
        /** Base URL of the portal, for links from entities back to their tabs. */
        portalBaseUrl?: string;
      };
    };
  };
}
