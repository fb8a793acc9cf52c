import { useApi } from '@backstage/frontend-plugin-api';
import { ModuleVersion } from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { useReloadableAsync } from '../common/useReloadableAsync';
import { CatalogModule } from './useModules';

/** What the drawer shows beyond the catalog's row. */
export interface ModuleDetails {
  /** Newest first. */
  versions: ModuleVersion[];
  /** Environment id → "Payments · Production", for the environments it is deployed in. */
  places: Map<string, string>;
}

/** A module's versions, and the names of the projects and environments it is deployed in. */
export function useModuleDetails(module: CatalogModule) {
  const client = useApi(infraDeliveryApiRef);
  const projectIds = [...new Set(module.instances.map(i => i.projectId))];
  return useReloadableAsync(async (): Promise<ModuleDetails> => {
    const places = new Map<string, string>();
    const [versions] = await Promise.all([
      client.call('listModuleVersions', {
        params: { id: module.id },
        query: { limit: 500 },
      }),
      ...projectIds.map(async projectId => {
        const [project, environments] = await Promise.all([
          client.call('getProject', { params: { id: projectId } }),
          client.call('listEnvironments', {
            params: { projectId },
            query: { limit: 500 },
          }),
        ]);
        for (const environment of environments.data) {
          places.set(
            environment.id,
            `${project.data.name} · ${environment.name}`,
          );
        }
      }),
    ]);
    return { versions: versions.data, places };
  }, [client, module.id, projectIds.join()]);
}
