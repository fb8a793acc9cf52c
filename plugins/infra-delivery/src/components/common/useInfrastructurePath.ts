import { useRouteRef } from '@backstage/frontend-plugin-api';
import { rootRouteRef } from '../../routes';

/** Where the Infrastructure page is mounted when the app does not say (its default path). */
export const DEFAULT_INFRASTRUCTURE_PATH = '/infra-delivery';

/**
 * The path of the Infrastructure page, as the app mounted it: the Organization tab and the
 * self-hosted login pages are under it.
 */
export function useInfrastructurePath(): string {
  const root = useRouteRef(rootRouteRef);
  return root?.() ?? DEFAULT_INFRASTRUCTURE_PATH;
}
