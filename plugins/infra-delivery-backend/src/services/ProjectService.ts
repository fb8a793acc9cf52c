import {
  Environment,
  Project,
} from '@infra-delivery/plugin-infra-delivery-common';
import { READ, WRITE } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { isForeignKeyViolation, isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { NamedResourcePatch } from '../database/namedPatch';
import { NamedResourceInput } from '../database/ProjectStore';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { insertUnderParents } from './insertUnderParents';
import { deploymentsInUse } from './deploymentsInUse';
import {
  CatalogChange,
  CatalogChanges,
  noCatalogChanges,
} from '../catalog/CatalogChanges';

function givenIdTaken(entity: string, givenId: string) {
  return new InfraDeliveryError({
    status: 409,
    entity,
    reason: 'GIVEN_ID_TAKEN',
    message: `${entity} ${givenId} exists already`,
    metadata: { givenId },
  });
}

function hasEnvironments() {
  return new InfraDeliveryError({
    status: 409,
    entity: 'Project',
    reason: 'HAS_ENVIRONMENTS',
    message: 'Delete the environments of the project first',
  });
}

async function uniqueGivenId<T>(
  entity: string,
  givenId: string,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw givenIdTaken(entity, givenId);
    }
    throw error;
  }
}

/** Projects and their environments. */
export class ProjectService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      /** Told after each committed create, update and delete, for the catalog module. */
      catalogChanges?: CatalogChanges;
    },
  ) {}

  private changed(
    caller: Caller,
    kind: CatalogChange['kind'],
    id: string,
    change: CatalogChange['change'],
  ) {
    (this.deps.catalogChanges ?? noCatalogChanges).changed({
      organizationId: caller.organizationId,
      kind,
      id,
      change,
    });
  }

  async createProject(caller: Caller, input: NamedResourceInput) {
    await this.deps.authorizer.require(caller, WRITE);
    const project = await uniqueGivenId('Project', input.givenId, () =>
      this.deps.stores.projects.createProject(caller.organizationId, input),
    );
    this.changed(caller, 'project', project.id, 'created');
    return project;
  }

  async listProjects(
    caller: Caller,
    page: KeysetRequest,
  ): Promise<KeysetPage<Project>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.projects.listProjects(caller.organizationId, page);
  }

  async getProject(caller: Caller, id: string): Promise<Project> {
    await this.deps.authorizer.require(caller, READ);
    return this.requireProject(caller.organizationId, id);
  }

  async updateProject(caller: Caller, id: string, patch: NamedResourcePatch) {
    await this.deps.authorizer.require(caller, WRITE);
    const project = await this.deps.stores.projects.updateProject(
      caller.organizationId,
      id,
      patch,
    );
    if (!project) {
      throw notFound('Project', id);
    }
    this.changed(caller, 'project', id, 'updated');
    return project;
  }

  async deleteProject(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, WRITE);
    await this.requireProject(caller.organizationId, id);
    if (
      (await this.deps.stores.projects.countEnvironments(
        caller.organizationId,
        id,
      )) > 0
    ) {
      throw hasEnvironments();
    }
    try {
      await this.deps.stores.projects.deleteProject(caller.organizationId, id);
      this.changed(caller, 'project', id, 'deleted');
    } catch (error) {
      // Pipelines or stacks of the project, or an environment created since the count.
      if (isForeignKeyViolation(error)) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'Project',
          reason: 'IN_USE',
          message:
            'The project still has environments, stacks or pipelines; delete them first',
        });
      }
      throw error;
    }
  }

  async createEnvironment(
    caller: Caller,
    projectId: string,
    input: NamedResourceInput,
  ): Promise<Environment> {
    await this.deps.authorizer.require(caller, WRITE);
    await this.requireProject(caller.organizationId, projectId);
    const environment = await insertUnderParents(
      () =>
        uniqueGivenId('Environment', input.givenId, () =>
          this.deps.stores.projects.createEnvironment(
            caller.organizationId,
            projectId,
            input,
          ),
        ),
      () => this.requireProject(caller.organizationId, projectId),
    );
    this.changed(caller, 'environment', environment.id, 'created');
    return environment;
  }

  async listEnvironments(
    caller: Caller,
    projectId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<Environment>> {
    await this.deps.authorizer.require(caller, READ);
    await this.requireProject(caller.organizationId, projectId);
    return this.deps.stores.projects.listEnvironments(
      caller.organizationId,
      projectId,
      page,
    );
  }

  async getEnvironment(
    caller: Caller,
    projectId: string,
    id: string,
  ): Promise<Environment> {
    await this.deps.authorizer.require(caller, READ);
    const environment = await this.deps.stores.projects.getEnvironment(
      caller.organizationId,
      projectId,
      id,
    );
    if (!environment) {
      throw notFound('Environment', id);
    }
    return environment;
  }

  async updateEnvironment(
    caller: Caller,
    projectId: string,
    id: string,
    patch: NamedResourcePatch,
  ): Promise<Environment> {
    await this.deps.authorizer.require(caller, WRITE);
    const environment = await this.deps.stores.projects.updateEnvironment(
      caller.organizationId,
      projectId,
      id,
      patch,
    );
    if (!environment) {
      throw notFound('Environment', id);
    }
    this.changed(caller, 'environment', id, 'updated');
    return environment;
  }

  /**
   * Deletes an environment that nothing uses: stacks in it refuse the deletion (their foreign
   * key), and so do deployments made in it (their history and rollbacks need it).
   */
  async deleteEnvironment(
    caller: Caller,
    projectId: string,
    id: string,
  ): Promise<void> {
    await this.deps.authorizer.require(caller, WRITE);
    const { organizationId } = caller;
    try {
      await this.deps.stores.transaction(async tx => {
        if (
          !(await tx.projects.lockEnvironment(organizationId, id, 'update'))
        ) {
          throw notFound('Environment', id);
        }
        const environment = { kind: 'environment', id } as const;
        const used = await tx.deployments.countUsing(
          organizationId,
          environment,
        );
        if (used.total > 0) {
          throw deploymentsInUse(environment, used);
        }
        if (
          !(await tx.projects.deleteEnvironment(organizationId, projectId, id))
        ) {
          throw notFound('Environment', id);
        }
      });
      this.changed(caller, 'environment', id, 'deleted');
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        throw await this.environmentInUse(organizationId, id);
      }
      throw error;
    }
  }

  /**
   * The refusal to delete an environment that stacks or module instances are in, naming the
   * first of them: "delete them first" left people looking for which.
   */
  private async environmentInUse(organizationId: string, id: string) {
    const shown = 3;
    const [stacks, instances] = await Promise.all([
      this.deps.stores.stacks.list(
        organizationId,
        { environmentId: id },
        { limit: shown },
      ),
      this.deps.stores.moduleInstances.list(
        organizationId,
        { environmentId: id },
        { limit: shown },
      ),
    ]);
    const users = [
      ...stacks.items.map(stack => `stack ${stack.name}`),
      ...instances.items.map(instance => `module instance ${instance.name}`),
    ].slice(0, shown);
    const total = stacks.totalCount + instances.totalCount;
    const more = total - users.length;
    // "A and B", "A, B and C", "A, B, C and 2 more".
    const parts = more > 0 ? [...users, `${more} more`] : users;
    const listed =
      parts.length > 1
        ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`
        : parts.join('');
    const named =
      users.length === 0
        ? 'Stacks or module instances'
        : `${listed[0].toUpperCase()}${listed.slice(1)}`;
    const [uses, them] = total === 1 ? ['uses', 'it'] : ['use', 'them'];
    return new InfraDeliveryError({
      status: 409,
      entity: 'Environment',
      reason: 'IN_USE',
      message: `${named} still ${uses} this environment: delete ${them} first`,
      metadata: {
        environmentId: id,
        stacks: stacks.totalCount,
        moduleInstances: instances.totalCount,
      },
    });
  }

  private async requireProject(organizationId: string, id: string) {
    const project = await this.deps.stores.projects.getProject(
      organizationId,
      id,
    );
    if (!project) {
      throw notFound('Project', id);
    }
    return project;
  }
}
