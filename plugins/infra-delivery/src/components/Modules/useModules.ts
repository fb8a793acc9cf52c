import { useApi } from '@backstage/frontend-plugin-api';
import {
  CodeSource,
  ModuleDefinition,
  ModuleInstance,
} from '@infra-delivery/plugin-infra-delivery-common';
import { infraDeliveryApiRef } from '../../api';
import { useReloadableAsync } from '../common/useReloadableAsync';

/** A module of the catalog: its repository, and the instances deployed from it. */
export interface CatalogModule extends ModuleDefinition {
  /** Absent when the repository is no longer connected. */
  codeSource?: CodeSource;
  instances: ModuleInstance[];
}

const ALL = { limit: 500 } as const;

/**
 * The organization's modules with their repositories and instances, read in three requests
 * (the first 500 of each), newest module first.
 */
export function useModules() {
  const client = useApi(infraDeliveryApiRef);
  return useReloadableAsync(async (): Promise<CatalogModule[]> => {
    const [definitions, sources, instances] = await Promise.all([
      client.call('listModuleDefinitions', { query: ALL }),
      client.call('listCodeSources', { query: ALL }),
      client.call('listModuleInstances', { query: ALL }),
    ]);
    const sourceById = new Map(sources.data.map(s => [s.id, s]));
    return definitions.data.map(definition => ({
      ...definition,
      codeSource: sourceById.get(definition.codeSourceId),
      instances: instances.data.filter(
        instance => instance.moduleDefinitionId === definition.id,
      ),
    }));
  }, [client]);
}
