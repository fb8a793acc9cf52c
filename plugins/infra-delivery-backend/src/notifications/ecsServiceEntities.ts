import { AuthService } from '@backstage/backend-plugin-api';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { ANNOTATION_ECS_SERVICE } from '@infra-delivery/plugin-infra-delivery-common';
import { RecipientLookup } from '../database/NotificationOutboxStore';

/** Who a looked-up notification goes to, and the page it should link to. */
export interface LookedUpRecipients {
  entityRefs: string[];
  link?: string;
}

export type LookUpRecipients = (
  lookup: RecipientLookup,
) => Promise<LookedUpRecipients>;

/**
 * The catalog entities showing an ECS service (`infra-delivery.io/ecs-service`), whose owners
 * hear of its deployments, and the first one's Deployments tab.
 */
export function ecsServiceEntities(deps: {
  catalog: CatalogService;
  auth: AuthService;
}): LookUpRecipients {
  return async ({ ecsService }) => {
    const { items } = await deps.catalog.getEntities(
      {
        filter: {
          [`metadata.annotations.${ANNOTATION_ECS_SERVICE}`]: ecsService,
        },
        fields: ['kind', 'metadata.name', 'metadata.namespace'],
      },
      { credentials: await deps.auth.getOwnServiceCredentials() },
    );
    const entities = items.map(entity => ({
      kind: entity.kind.toLowerCase(),
      namespace: entity.metadata.namespace ?? 'default',
      name: entity.metadata.name,
    }));
    const [first] = entities;
    return {
      entityRefs: entities.map(e => `${e.kind}:${e.namespace}/${e.name}`),
      link:
        first &&
        `/catalog/${first.namespace}/${first.kind}/${first.name}/infra-deployments`,
    };
  };
}
