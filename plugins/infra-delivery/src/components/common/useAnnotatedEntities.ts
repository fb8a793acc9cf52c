import { CompoundEntityRef } from '@backstage/catalog-model';
import { useApiHolder } from '@backstage/frontend-plugin-api';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import useAsync from 'react-use/esm/useAsync';

/**
 * The catalog entities (of `kind`, where given) whose `annotation` holds one of `values`, by
 * that value, read in one request; none in an app without the catalog. The first entity found
 * for a value wins.
 */
export function useAnnotatedEntities(
  annotation: string,
  values: string[],
  kind?: string,
) {
  const catalogApi = useApiHolder().get(catalogApiRef);
  const wanted = [...new Set(values)].sort();
  return useAsync(async () => {
    const byValue = new Map<string, CompoundEntityRef>();
    if (!catalogApi || wanted.length === 0) return byValue;
    const { items } = await catalogApi.getEntities({
      filter: {
        [`metadata.annotations.${annotation}`]: wanted,
        ...(kind ? { kind } : {}),
      },
      fields: [
        'kind',
        'metadata.namespace',
        'metadata.name',
        'metadata.annotations',
      ],
    });
    for (const entity of items) {
      // Asked of the catalog too; checked here as well, for catalogs that ignore the filter.
      if (kind && entity.kind.toLowerCase() !== kind.toLowerCase()) continue;
      const value = entity.metadata.annotations?.[annotation];
      if (value && !byValue.has(value)) {
        byValue.set(value, {
          kind: entity.kind,
          namespace: entity.metadata.namespace ?? 'default',
          name: entity.metadata.name,
        });
      }
    }
    return byValue;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [catalogApi, annotation, kind, wanted.join(',')]);
}
