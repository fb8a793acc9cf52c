import {
  LoggerService,
  SchedulerServiceTaskRunner,
} from '@backstage/backend-plugin-api';
import {
  EntityProvider,
  EntityProviderConnection,
} from '@backstage/plugin-catalog-node';
import { EventsService } from '@backstage/plugin-events-node';
import { CATALOG_CHANGES_TOPIC } from '@infra-delivery/plugin-infra-delivery-node';
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

/** How long a refresh asked for by a change waits for the changes that follow it. */
const DEFAULT_CHANGE_DELAY_MS = 500;

/**
 * Emits the portal organization's projects, environments, cloud accounts and stacks as
 * catalog entities.
 * It reads the service through its REST API with the catalog's own service token (never its
 * tables), and applies a full mutation each time, so deleted stacks leave the catalog.
 *
 * It refreshes on its schedule, and soon after each change the service announces on the
 * events service (topic {@link CATALOG_CHANGES_TOPIC}): a burst of changes is read by one
 * refresh, and refreshes never overlap, so an older read never replaces a newer one.
 */
export class InfraDeliveryEntityProvider implements EntityProvider {
  private connection?: EntityProviderConnection;
  /** The refreshes in order: each starts when the one before it ended. */
  private refreshes: Promise<void> = Promise.resolve();
  /** A refresh asked for by changes that has not started reading yet. */
  private changeRefresh?: Promise<void>;

  constructor(
    private readonly deps: {
      client: InfraDeliveryClient;
      logger: LoggerService;
      taskRunner?: SchedulerServiceTaskRunner;
      /** Announces the service's changes; without it, the schedule alone refreshes. */
      events?: EventsService;
      options: EntityOptions;
      /** Wait after an announced change before reading; default 500 ms. */
      changeDelayMs?: number;
    },
  ) {}

  getProviderName(): string {
    return 'infra-delivery';
  }

  async connect(connection: EntityProviderConnection): Promise<void> {
    this.connection = connection;
    await this.deps.events?.subscribe({
      id: 'infra-delivery-entity-provider',
      topics: [CATALOG_CHANGES_TOPIC],
      // The publisher is not held up by the read: the refresh runs on its own.
      onEvent: async () => {
        this.refreshAfterChange().catch(() => {});
      },
    });
    await this.deps.taskRunner?.run({
      id: 'infra-delivery-entity-provider:refresh',
      fn: () => this.inTurn(() => this.refreshOrLog()),
    });
  }

  /**
   * Refreshes soon: after the refresh under way, if any, and a short wait that gathers the
   * changes that come together. Changes announced before that refresh starts reading share it;
   * a change announced while it reads asks for the next one.
   */
  refreshAfterChange(): Promise<void> {
    if (!this.changeRefresh) {
      const delay = this.deps.changeDelayMs ?? DEFAULT_CHANGE_DELAY_MS;
      this.changeRefresh = this.inTurn(async () => {
        await new Promise(resolve => setTimeout(resolve, delay));
        this.changeRefresh = undefined;
        await this.refreshOrLog();
      });
    }
    return this.changeRefresh;
  }

  private inTurn(refresh: () => Promise<void>): Promise<void> {
    const next = this.refreshes.then(refresh);
    this.refreshes = next.catch(() => {});
    return next;
  }

  private async refreshOrLog(): Promise<void> {
    try {
      await this.refresh();
    } catch (error) {
      this.deps.logger.error(
        `Could not read the infra-delivery service: ${error}`,
      );
    }
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
