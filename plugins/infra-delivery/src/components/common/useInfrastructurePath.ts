import { useRouteRef as useLegacyRouteRef } from '@backstage/core-plugin-api';
import { useRouteRef } from '@backstage/frontend-plugin-api';
import { legacyInfrastructureRouteRef, rootRouteRef } from '../../routes';

/** Where the Infrastructure page is mounted when the app does not say (its default path). */
export const DEFAULT_INFRASTRUCTURE_PATH = '/infra-delivery';

/** The page's route in the new frontend system; undefined in a legacy app, which has no route resolution API. */
function usePageRoute() {
  try {
    return useRouteRef(rootRouteRef);
  } catch {
    return undefined;
  }
}

/** The page's route in a legacy app; undefined where `InfraDeliveryHomePage` is not mounted. */
function useLegacyPageRoute() {
  try {
    // Throws when the route is not mounted, after all of its own hooks have run, so the
    // order of hooks stays the same on every render.
    return useLegacyRouteRef(legacyInfrastructureRouteRef);
  } catch {
    return undefined;
  }
}

/**
 * The path of the Infrastructure page as the app mounted it, in either frontend system, or
 * undefined in an app without the page.
 */
export function useMountedInfrastructurePath(): string | undefined {
  const page = usePageRoute();
  const legacyPage = useLegacyPageRoute();
  return page?.() ?? legacyPage?.();
}

/**
 * The path of the Infrastructure page, as the app mounted it: the Organization tab and the
 * self-hosted login pages are under it.
 */
export function useInfrastructurePath(): string {
  return useMountedInfrastructurePath() ?? DEFAULT_INFRASTRUCTURE_PATH;
}

/** The Infrastructure page's tab of every run, under the page's path (both frontend systems mount it there). */
export const RUNS_TAB_PATH = 'runs';

/** The Runs tab of the Infrastructure page mounted at `infrastructurePath`. */
export function runsTabPath(infrastructurePath: string): string {
  return `${infrastructurePath}/${RUNS_TAB_PATH}`;
}

/** The page of a run under the Infrastructure page's Runs tab, by the run's id. */
export function useRunPagePath(): (runId: string) => string {
  const infrastructurePath = useInfrastructurePath();
  return runId =>
    `${runsTabPath(infrastructurePath)}/${encodeURIComponent(runId)}`;
}
