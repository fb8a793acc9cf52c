import { LoggerService } from '@backstage/backend-plugin-api';
import { EventsService } from '@backstage/plugin-events-node';
import {
  CATALOG_CHANGES_TOPIC,
  CatalogChangeEvent,
} from '@infra-delivery/plugin-infra-delivery-node';

/** A committed change of what the catalog module shows of an organization. */
export interface CatalogChange extends CatalogChangeEvent {
  organizationId: string;
}

/** Where the services announce committed changes of stacks, projects and environments. */
export interface CatalogChanges {
  /** Announces the change without holding up the caller; never throws. */
  changed(change: CatalogChange): void;
}

/** Announces nothing: tests and callers without an events service. */
export const noCatalogChanges: CatalogChanges = { changed: () => {} };

/**
 * Announces the portal organization's changes on the events service, so that the catalog
 * module refreshes its entities at once (its scheduled refresh stays the safety net). Other
 * organizations' changes are not announced: the catalog shows the portal organization only,
 * and the events bus may reach other plugins.
 */
export class EventsCatalogChanges implements CatalogChanges {
  constructor(
    private readonly events: EventsService,
    private readonly portalOrganizationId: string,
    private readonly logger: LoggerService,
  ) {}

  changed({ organizationId, ...change }: CatalogChange): void {
    if (organizationId !== this.portalOrganizationId) {
      return;
    }
    const eventPayload: CatalogChangeEvent = change;
    this.events
      .publish({ topic: CATALOG_CHANGES_TOPIC, eventPayload })
      .catch(error =>
        this.logger.warn(
          `Could not announce the ${change.kind} ${change.id} change to the catalog; its scheduled refresh will show it: ${error}`,
        ),
      );
  }
}
