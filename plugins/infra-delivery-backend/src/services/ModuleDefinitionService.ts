import {
  ModuleDefinition,
  ModuleVersion,
  normalizeRepositoryPath,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { READ, WRITE } from '../auth/requirements';
import { isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { moduleYamlPath, parseModuleYaml } from '../modules/moduleYaml';
import { GithubAppInstallations } from '../providers/github/GithubAppInstallations';
import { deleteUnlessInUse } from './deleteUnlessInUse';
import { insertUnderParents } from './insertUnderParents';

function invalidModuleYaml(
  path: string,
  ref: string,
  problems: string[],
): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 422,
    entity: 'ModuleVersion',
    reason: 'INVALID_MODULE_YAML',
    message: `${path} at ${ref} is not a valid module description`,
    details: [{ title: path, render: 'list', items: problems }],
    metadata: { path, ref },
  });
}

/** Module definitions and the versions read from their `module.yaml`. */
export class ModuleDefinitionService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      githubApps: GithubAppInstallations;
    },
  ) {}

  async create(
    caller: Caller,
    input: {
      givenId: string;
      name: string;
      description?: string;
      codeSourceId: string;
      path: string;
    },
  ): Promise<ModuleDefinition> {
    await this.deps.authorizer.require(caller, WRITE);
    const { stores } = this.deps;
    const requireCodeSource = async () => {
      if (
        !(await stores.codeSources.get(
          caller.organizationId,
          input.codeSourceId,
        ))
      ) {
        throw notFound('CodeSource', input.codeSourceId);
      }
    };
    await requireCodeSource();
    try {
      return await insertUnderParents(
        () =>
          stores.moduleDefinitions.create({
            ...input,
            organizationId: caller.organizationId,
            path: normalizeRepositoryPath(input.path),
          }),
        requireCodeSource,
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'ModuleDefinition',
          reason: 'GIVEN_ID_TAKEN',
          message: `A module definition ${input.givenId} exists already`,
          metadata: { givenId: input.givenId },
        });
      }
      throw error;
    }
  }

  async list(
    caller: Caller,
    filter: { codeSourceId?: string },
    page: KeysetRequest,
  ): Promise<KeysetPage<ModuleDefinition>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.moduleDefinitions.list(
      caller.organizationId,
      filter,
      page,
    );
  }

  async get(caller: Caller, id: string): Promise<ModuleDefinition> {
    await this.deps.authorizer.require(caller, READ);
    return this.find(caller, id);
  }

  async update(
    caller: Caller,
    id: string,
    patch: { name?: string; description?: string },
  ): Promise<ModuleDefinition> {
    await this.deps.authorizer.require(caller, WRITE);
    const definition = await this.deps.stores.moduleDefinitions.update(
      caller.organizationId,
      id,
      patch,
    );
    if (!definition) {
      throw notFound('ModuleDefinition', id);
    }
    return definition;
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, WRITE);
    await deleteUnlessInUse(this.deps.stores, {
      entity: 'ModuleDefinition',
      id,
      inUseMessage: 'Module instances still use this module; delete them first',
      exists: async tx =>
        Boolean(await tx.moduleDefinitions.get(caller.organizationId, id)),
      countUsers: tx =>
        tx.moduleInstances.countByDefinition(caller.organizationId, id),
      remove: tx => tx.moduleDefinitions.delete(caller.organizationId, id),
    });
  }

  /**
   * Publishes a version: resolves the ref to its commit, reads `module.yaml` there through the
   * URL reader and keeps its inputs. Every problem of the file, and every `default_from` that
   * names no default-value definition of the organization, is listed in one 422.
   */
  async createVersion(
    caller: Caller,
    moduleDefinitionId: string,
    input: { version: string; ref: string },
  ): Promise<ModuleVersion> {
    await this.deps.authorizer.require(caller, WRITE);
    const { stores } = this.deps;
    const organizationId = caller.organizationId;
    const definition = await this.find(caller, moduleDefinitionId);
    const source = await stores.codeSources.get(
      organizationId,
      definition.codeSourceId,
    );
    if (!source) {
      throw notFound('CodeSource', definition.codeSourceId);
    }

    const repository = await this.deps.githubApps.open(
      source.repoUrl,
      source.auth.forgeInstallationId,
    );
    const commitSha = await repository.resolveCommit(input.ref);
    if (!commitSha) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'ModuleVersion',
        reason: 'REF_NOT_FOUND',
        message: `${source.repoName} has no branch or tag ${input.ref}`,
        metadata: { ref: input.ref },
      });
    }
    const path = moduleYamlPath(definition.path);
    const text = await repository.readFile(commitSha, path);
    if (text === undefined) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'ModuleVersion',
        reason: 'MODULE_YAML_NOT_FOUND',
        message: `${source.repoName} has no ${path} at ${input.ref}`,
        details: [
          {
            title: path,
            render: 'list',
            items: [`${path} does not exist at ${input.ref} (${commitSha})`],
          },
        ],
        metadata: { path, ref: input.ref, commitSha },
      });
    }
    const parsed = parseModuleYaml(text);
    if (!parsed.ok) {
      throw invalidModuleYaml(path, input.ref, parsed.problems);
    }
    const named = parsed.inputs.flatMap(i =>
      i.default_from ? [i.default_from] : [],
    );

    try {
      return await insertUnderParents(
        // The definitions it names are read and share-locked in the version's transaction: a
        // definition deleted at the same moment is either gone here (422) or, deleted after,
        // refused there, since the version is found by its in-use check (409).
        () =>
          stores.transaction(async tx => {
            const definitions = await tx.moduleDefinitions.defaultValueSchemas(
              organizationId,
              named,
              'share',
            );
            const unknownDefaults = parsed.inputs.flatMap((i, index) =>
              i.default_from && !definitions.has(i.default_from)
                ? [
                    `inputs[${index}].default_from: no default-value definition ${JSON.stringify(
                      i.default_from,
                    )} in the organization`,
                  ]
                : [],
            );
            if (unknownDefaults.length > 0) {
              throw invalidModuleYaml(path, input.ref, unknownDefaults);
            }
            return tx.moduleDefinitions.createVersion({
              organizationId,
              moduleDefinitionId,
              version: input.version,
              ref: input.ref,
              commitSha,
              inputs: parsed.inputs,
            });
          }),
        // Deleted while its module.yaml was read.
        () => this.find(caller, moduleDefinitionId),
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'ModuleVersion',
          reason: 'VERSION_TAKEN',
          message: `Version ${input.version} of ${definition.givenId} exists already`,
          metadata: { version: input.version },
        });
      }
      throw error;
    }
  }

  async listVersions(
    caller: Caller,
    moduleDefinitionId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<ModuleVersion>> {
    await this.deps.authorizer.require(caller, READ);
    await this.find(caller, moduleDefinitionId);
    return this.deps.stores.moduleDefinitions.listVersions(
      caller.organizationId,
      moduleDefinitionId,
      page,
    );
  }

  async getVersion(caller: Caller, id: string): Promise<ModuleVersion> {
    await this.deps.authorizer.require(caller, READ);
    const version = await this.deps.stores.moduleDefinitions.getVersion(
      caller.organizationId,
      id,
    );
    if (!version) {
      throw notFound('ModuleVersion', id);
    }
    return version;
  }

  private async find(caller: Caller, id: string): Promise<ModuleDefinition> {
    const definition = await this.deps.stores.moduleDefinitions.get(
      caller.organizationId,
      id,
    );
    if (!definition) {
      throw notFound('ModuleDefinition', id);
    }
    return definition;
  }
}
