import { useApiHolder } from '@backstage/frontend-plugin-api';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import { ANNOTATION_ECS_SERVICE } from '@infra-delivery/plugin-infra-delivery-common';
import { CompoundEntityRef } from '@backstage/catalog-model';
import useAsync from 'react-use/esm/useAsync';
import { ecsName } from '../common/useLiveDeployments';

/** A service as its catalog annotation names it: `cluster/service`, names not ARNs. */
export function ecsServiceKey(clusterRef: string, serviceRef: string): string {
  return `${ecsName(clusterRef)}/${ecsName(serviceRef)}`;
}

/**
 * The catalog entities that name these ECS services in their `infra-delivery.io/ecs-service`
 * annotation, by service key, read in one request; none in an app without the catalog.
 */
export function useServiceEntities(keys: string[]) {
  const catalogApi = useApiHolder().get(catalogApiRef);
  const wanted = [...new Set(keys)].sort();
  return useAsync(async () => {
    const byService = new Map<string, CompoundEntityRef>();
    if (!catalogApi || wanted.length === 0) return byService;
    const { items } = await catalogApi.getEntities({
      filter: { [`metadata.annotations.${ANNOTATION_ECS_SERVICE}`]: wanted },
      fields: [
        'kind',
        'metadata.namespace',
        'metadata.name',
        'metadata.annotations',
      ],
    });
    for (const entity of items) {
      const key = entity.metadata.annotations?.[ANNOTATION_ECS_SERVICE];
      if (key && !byService.has(key)) {
        byService.set(key, {
          kind: entity.kind,
          namespace: entity.metadata.namespace ?? 'default',
          name: entity.metadata.name,
        });
      }
    }
    return byService;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [catalogApi, wanted.join(',')]);
}
