import { CompoundEntityRef, Entity } from '@backstage/catalog-model';
import { useRouteRef } from '@backstage/core-plugin-api';
import {
  entityRouteParams,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import { useCallback } from 'react';
import { ENTITY_TAB_PATHS, EntityTab } from '../../entityTabPaths';

/** The route of the catalog's entity pages, or undefined in an app without them. */
function useEntityRoute() {
  try {
    // Backstage's useRouteRef throws when the route is not mounted, once all of its own hooks
    // have run: catching it keeps the order of hooks the same on every render.
    return useRouteRef(entityRouteRef);
  } catch {
    return undefined;
  }
}

/**
 * The link to an entity's page in the catalog, or undefined in an app without entity pages.
 */
export function useEntityPageLink(): (
  entity: Entity | CompoundEntityRef,
) => string | undefined {
  const entityRoute = useEntityRoute();
  return useCallback(
    entity =>
      entityRoute &&
      entityRoute(entityRouteParams(entity, { encodeParams: true })),
    [entityRoute],
  );
}

/**
 * The link to one of the plugin's tabs on an entity's page in the catalog (in both frontend
 * systems); undefined in an app without entity pages, where views show names without links.
 */
export function useEntityTabLink(): (
  entity: Entity | CompoundEntityRef,
  tab: EntityTab,
) => string | undefined {
  const pageLink = useEntityPageLink();
  return useCallback(
    (entity, tab) => {
      const page = pageLink(entity);
      return page && `${page}/${ENTITY_TAB_PATHS[tab]}`;
    },
    [pageLink],
  );
}

/**
 * The link to one run's page under an entity's Pipeline runs tab, or undefined in an app
 * without entity pages.
 */
export function useEntityRunLink(): (
  entity: Entity | CompoundEntityRef,
  runId: string,
) => string | undefined {
  const tabLink = useEntityTabLink();
  return useCallback(
    (entity, runId) => {
      const runs = tabLink(entity, 'runs');
      return runs && `${runs}/${encodeURIComponent(runId)}`;
    },
    [tabLink],
  );
}
