import {
  ModuleInstance,
  ModuleValues,
  ModuleVersion,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { READ, WRITE } from '../auth/requirements';
import { isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { ModuleInstanceFilter } from '../database/ModuleInstanceStore';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import {
  carryModuleValues,
  droppedImmutableValues,
  resolveModuleValues,
} from '../modules/moduleValues';
import { insertUnderParents } from './insertUnderParents';
import { deploymentsInUse } from './deploymentsInUse';

function nameTaken(name: string): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 409,
    entity: 'ModuleInstance',
    reason: 'NAME_TAKEN',
    message: `The environment has a module instance named ${name} already`,
    metadata: { name },
  });
}

/** Module versions deployed into environments, with values checked against their inputs. */
export class ModuleInstanceService {
  constructor(
    private readonly deps: { stores: Stores; authorizer: Authorizer },
  ) {}

  async create(
    caller: Caller,
    input: {
      moduleVersionId: string;
      environmentId: string;
      name: string;
      values?: ModuleValues;
    },
  ): Promise<ModuleInstance> {
    await this.deps.authorizer.require(caller, WRITE);
    const { stores } = this.deps;
    const organizationId = caller.organizationId;
    const requireParents = async () => {
      const version = await this.findVersion(caller, input.moduleVersionId);
      const projectId = await stores.moduleInstances.projectOfEnvironment(
        organizationId,
        input.environmentId,
      );
      if (!projectId) {
        throw notFound('Environment', input.environmentId);
      }
      return { version, projectId };
    };
    const { version, projectId } = await requireParents();
    const values = await this.resolve(caller, version, input.values ?? {});
    try {
      return await insertUnderParents(
        () =>
          stores.moduleInstances.create({
            organizationId,
            projectId,
            environmentId: input.environmentId,
            moduleDefinitionId: version.moduleDefinitionId,
            moduleVersionId: version.id,
            name: input.name,
            values,
          }),
        // The environment, or the module with its versions, was deleted meanwhile.
        requireParents,
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw nameTaken(input.name);
      }
      throw error;
    }
  }

  async list(
    caller: Caller,
    filter: ModuleInstanceFilter,
    page: KeysetRequest,
  ): Promise<KeysetPage<ModuleInstance>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.moduleInstances.list(
      caller.organizationId,
      filter,
      page,
    );
  }

  async get(caller: Caller, id: string): Promise<ModuleInstance> {
    await this.deps.authorizer.require(caller, READ);
    return this.find(caller, id);
  }

  /**
   * Changes the values, the version or the name. `values` merge into the current ones (`null`
   * removes one, so its default applies again). Moving to another version carries the values
   * of inputs it keeps or renamed (`moved_from`) and drops the others; an immutable input
   * must keep the value it had.
   */
  async update(
    caller: Caller,
    id: string,
    patch: {
      moduleVersionId?: string;
      name?: string;
      values?: Record<string, string | null>;
    },
  ): Promise<ModuleInstance> {
    await this.deps.authorizer.require(caller, WRITE);
    const instance = await this.find(caller, id);
    const version = await this.findVersion(
      caller,
      patch.moduleVersionId ?? instance.moduleVersionId,
    );
    if (version.moduleDefinitionId !== instance.moduleDefinitionId) {
      throw new InfraDeliveryError({
        status: 400,
        entity: 'ModuleInstance',
        reason: 'OTHER_MODULE',
        message: `Version ${version.id} belongs to another module; an instance changes versions within its module`,
        metadata: { moduleVersionId: version.id },
      });
    }
    const dropped =
      version.id === instance.moduleVersionId
        ? []
        : droppedImmutableValues(
            instance.values,
            (await this.findVersion(caller, instance.moduleVersionId)).inputs,
            version.inputs,
            version.version,
          );
    const current = carryModuleValues(instance.values, version.inputs);
    const given: ModuleValues = { ...current };
    for (const [key, value] of Object.entries(patch.values ?? {})) {
      if (value === null) {
        delete given[key];
      } else {
        given[key] = value;
      }
    }
    const values = await this.resolve(caller, version, given, current, dropped);
    const name = patch.name ?? instance.name;
    try {
      const updated = await this.deps.stores.moduleInstances.update(
        caller.organizationId,
        id,
        { moduleVersionId: version.id, name, values },
      );
      if (!updated) {
        throw notFound('ModuleInstance', id);
      }
      return updated;
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw nameTaken(name);
      }
      throw error;
    }
  }

  /** Deletes an instance no deployment was made of (their history and rollbacks need it). */
  async delete(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, WRITE);
    const { organizationId } = caller;
    await this.deps.stores.transaction(async tx => {
      if (!(await tx.moduleInstances.lock(organizationId, id, 'update'))) {
        throw notFound('ModuleInstance', id);
      }
      const instance = { kind: 'moduleInstance', id } as const;
      const used = await tx.deployments.countUsing(organizationId, instance);
      if (used.total > 0) {
        throw deploymentsInUse(instance, used);
      }
      if (!(await tx.moduleInstances.delete(organizationId, id))) {
        throw notFound('ModuleInstance', id);
      }
    });
  }

  /** The values to keep, defaults applied; a 400 listing every problem otherwise. */
  private async resolve(
    caller: Caller,
    version: ModuleVersion,
    given: ModuleValues,
    previous?: ModuleValues,
    /** Problems found before: of the move to `version`. */
    found: string[] = [],
  ): Promise<ModuleValues> {
    const definitions =
      await this.deps.stores.moduleDefinitions.defaultValueSchemas(
        caller.organizationId,
        version.inputs.flatMap(i => (i.default_from ? [i.default_from] : [])),
      );
    const resolved = resolveModuleValues({
      inputs: version.inputs,
      given,
      definitions,
      previous,
    });
    const { values } = resolved;
    const problems = [...found, ...resolved.problems];
    if (problems.length > 0) {
      throw new InfraDeliveryError({
        status: 400,
        entity: 'ModuleInstance',
        reason: 'INVALID_VALUES',
        message: `The values do not fit version ${
          version.version
        } of the module (${problems.length} ${
          problems.length === 1 ? 'problem' : 'problems'
        })`,
        details: [{ title: 'Invalid values', render: 'list', items: problems }],
        metadata: { moduleVersionId: version.id },
      });
    }
    return values;
  }

  private async find(caller: Caller, id: string): Promise<ModuleInstance> {
    const instance = await this.deps.stores.moduleInstances.get(
      caller.organizationId,
      id,
    );
    if (!instance) {
      throw notFound('ModuleInstance', id);
    }
    return instance;
  }

  private async findVersion(
    caller: Caller,
    id: string,
  ): Promise<ModuleVersion> {
    const version = await this.deps.stores.moduleDefinitions.getVersion(
      caller.organizationId,
      id,
    );
    if (!version) {
      throw notFound('ModuleVersion', id);
    }
    return version;
  }
}
