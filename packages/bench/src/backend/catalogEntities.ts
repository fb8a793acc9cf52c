import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import Router from 'express-promise-router';
import { Entity } from '@backstage/catalog-model';
import {
  catalogProcessingExtensionPoint,
  EntityProvider,
  EntityProviderConnection,
} from '@backstage/plugin-catalog-node';

const LOCATION = 'bench-provider:catalog-entities';

/** `count` Resource entities, shaped like the ones a portal team would register per stack. */
export function benchEntities(count: number): Entity[] {
  const entities: Entity[] = [];
  for (let i = 0; i < count; i++) {
    entities.push({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Resource',
      metadata: {
        name: `bench-stack-${i}`,
        namespace: 'default',
        title: `Stack ${i}`,
        description: `Infrastructure stack ${i} of the bench organization`,
        annotations: {
          'backstage.io/managed-by-location': LOCATION,
          'backstage.io/managed-by-origin-location': LOCATION,
        },
        tags: ['iac', `team-${i % 17}`],
      },
      spec: {
        type: 'infrastructure-stack',
        owner: `group:default/team-${i % 17}`,
        system: `system-${i % 50}`,
      },
    });
  }
  return entities;
}

/**
 * Provides the entities when the bench asks for them (after the plugin's own figures are
 * taken), so that the catalog's processing of them lands in none of those figures.
 */
class BenchEntityProvider implements EntityProvider {
  private connection?: EntityProviderConnection;

  getProviderName() {
    return 'bench-entities';
  }

  async connect(connection: EntityProviderConnection) {
    this.connection = connection;
  }

  async provide(count: number) {
    await this.connection?.applyMutation({
      type: 'full',
      entities: benchEntities(count).map(entity => ({
        entity,
        locationKey: LOCATION,
      })),
    });
  }
}

/**
 * The catalog peer's data: `bench.catalogEntities` entities from one provider, registered when
 * the bench posts to `/api/catalog/bench-entities`.
 */
export const catalogModuleBenchEntities = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'bench-entities',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        httpRouter: coreServices.httpRouter,
        processing: catalogProcessingExtensionPoint,
      },
      async init({ config, httpRouter, processing }) {
        const provider = new BenchEntityProvider();
        processing.addEntityProvider(provider);
        const router = Router();
        router.post('/bench-entities', async (_req, res) => {
          await provider.provide(
            config.getOptionalNumber('bench.catalogEntities') ?? 0,
          );
          res.status(204).end();
        });
        httpRouter.addAuthPolicy({
          path: '/bench-entities',
          allow: 'unauthenticated',
        });
        httpRouter.use(router);
      },
    });
  },
});
