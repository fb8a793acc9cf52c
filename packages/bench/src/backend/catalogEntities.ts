import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
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

class BenchEntityProvider implements EntityProvider {
  constructor(private readonly count: number) {}

  getProviderName() {
    return 'bench-entities';
  }

  async connect(connection: EntityProviderConnection) {
    await connection.applyMutation({
      type: 'full',
      entities: benchEntities(this.count).map(entity => ({
        entity,
        locationKey: LOCATION,
      })),
    });
  }
}

/** The catalog peer's data: `bench.catalogEntities` entities from one provider. */
export const catalogModuleBenchEntities = createBackendModule({
  pluginId: 'catalog',
  moduleId: 'bench-entities',
  register(env) {
    env.registerInit({
      deps: {
        config: coreServices.rootConfig,
        processing: catalogProcessingExtensionPoint,
      },
      async init({ config, processing }) {
        processing.addEntityProvider(
          new BenchEntityProvider(
            config.getOptionalNumber('bench.catalogEntities') ?? 0,
          ),
        );
      },
    });
  },
});
