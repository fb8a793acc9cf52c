import {
  LoggerService,
  SchedulerServiceTaskRunner,
} from '@backstage/backend-plugin-api';
import {
  EntityProvider,
  EntityProviderConnection,
} from '@backstage/plugin-catalog-node';
import {
  CloudAccount,
  CodeSource,
  Environment,
  InfraDeliveryClient,
  ListResponse,
  Project,
  readPages,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { LOCATION } from './entityNames';
import { EntityOptions, entitiesOf } from './stackEntities';

/** Every item of a list operation. */
async function allPages<T>(
  readPage: (cursor?: string) => Promise<ListResponse<T>>,
): Promise<T[]> {
  return (await readPages(readPage)).items;
}

/**
 * Emits the portal organization's projects, environments, cloud accounts and stacks as
 * catalog entities.
 * It reads the service through its REST API with the catalog's own service token (never its
 * tables), and applies a full mutation each time, so deleted stacks leave the catalog.
 */
export class InfraDeliveryEntityProvider implements EntityProvider {
  private connection?: EntityProviderConnection;

  constructor(
    private readonly deps: {
      client: InfraDeliveryClient;
      logger: LoggerService;
      taskRunner?: SchedulerServiceTaskRunner;
      options: EntityOptions;
    },
  ) {}

  getProviderName(): string {
    return 'infra-delivery';
  }

  async connect(connection: EntityProviderConnection): Promise<void> {
    this.connection = connection;
    await this.deps.taskRunner?.run({
      id: 'infra-delivery-entity-provider:refresh',
      fn: async () => {
        try {
          await this.refresh();
        } catch (error) {
          this.deps.logger.error(
            `Could not read the infra-delivery service: ${error}`,
          );
        }
      },
    });
  }

  async refresh(): Promise<void> {
    if (!this.connection) {
      throw new Error('The provider is not connected to the catalog');
    }
    const { client } = this.deps;
    const projects: Project[] = await allPages(cursor =>
      client.call('listProjects', { query: { limit: 500, cursor } }),
    );
    const environments: Environment[] = (
      await Promise.all(
        projects.map(project =>
          allPages(cursor =>
            client.call('listEnvironments', {
              params: { projectId: project.id },
              query: { limit: 500, cursor },
            }),
          ),
        ),
      )
    ).flat();
    const stacks: Stack[] = await allPages(cursor =>
      client.call('listStacks', { query: { limit: 500, cursor } }),
    );
    const cloudAccounts: CloudAccount[] = await allPages(cursor =>
      client.call('listCloudAccounts', { query: { limit: 500, cursor } }),
    );
    const codeSources: CodeSource[] = await allPages(cursor =>
      client.call('listCodeSources', { query: { limit: 500, cursor } }),
    );
    const entities = entitiesOf(
      { projects, environments, stacks, cloudAccounts, codeSources },
      this.deps.options,
    );
    await this.connection.applyMutation({
      type: 'full',
      entities: entities.map(entity => ({ entity, locationKey: LOCATION })),
    });
    this.deps.logger.info(
      `Emitted ${entities.length} entities for ${stacks.length} stacks and ${cloudAccounts.length} cloud accounts`,
    );
  }
}
