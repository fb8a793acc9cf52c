import { AuditorService } from '@backstage/backend-plugin-api';
import { CodeSource } from '@infra-delivery/plugin-infra-delivery-common';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { READ, WRITE } from '../auth/requirements';
import { isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { moduleYamlPath } from '../modules/moduleYaml';
import {
  ForgeAccessError,
  GithubAppInstallations,
} from '../providers/github/GithubAppInstallations';
import { audit } from './audit';
import { deleteUnlessInUse } from './deleteUnlessInUse';

/** Repositories connected through GitHub App installations (#6, #26). */
export class CodeSourceService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
      githubApps: GithubAppInstallations;
    },
  ) {}

  async create(
    caller: Caller,
    input: {
      forgeInstallationId: string;
      repoUrl: string;
      type: 'HOSTED_FORGE';
    },
  ): Promise<CodeSource> {
    await this.deps.authorizer.require(caller, WRITE);
    return audit(
      this.deps.auditor,
      'code-source-connect',
      caller,
      {
        repoUrl: input.repoUrl,
        forgeInstallationId: input.forgeInstallationId,
      },
      async () => {
        const { location, repository } = await this.deps.githubApps.open(
          input.repoUrl,
          input.forgeInstallationId,
        );
        try {
          return await this.deps.stores.codeSources.create({
            organizationId: caller.organizationId,
            forgeInstallationId: input.forgeInstallationId,
            forgeHost: location.host,
            gitRepositoryId: repository.id,
            repoName: repository.fullName,
            repoUrl: location.url,
            defaultBranch: repository.defaultBranch,
            visibility: repository.visibility,
          });
        } catch (error) {
          if (isUniqueViolation(error)) {
            throw new InfraDeliveryError({
              status: 409,
              entity: 'CodeSource',
              reason: 'ALREADY_CONNECTED',
              message: `${location.url} is connected already`,
              metadata: { repoUrl: location.url },
            });
          }
          throw error;
        }
      },
    );
  }

  async list(
    caller: Caller,
    page: KeysetRequest,
  ): Promise<KeysetPage<CodeSource>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.codeSources.list(caller.organizationId, page);
  }

  async get(caller: Caller, id: string): Promise<CodeSource> {
    await this.deps.authorizer.require(caller, READ);
    return this.find(caller, id);
  }

  /**
   * Asks the forge again whether the installation reaches the repository. Losing it is an
   * answer (`accessLost: true`), not an error; a forge that does not answer is a 503 and
   * changes nothing.
   */
  async verify(caller: Caller, id: string): Promise<CodeSource> {
    await this.deps.authorizer.require(caller, WRITE);
    const source = await this.find(caller, id);
    const { codeSources } = this.deps.stores;
    try {
      const { repository } = await this.deps.githubApps.open(
        source.repoUrl,
        source.auth.forgeInstallationId,
      );
      // A repository deleted and created again under the same name is another repository.
      if (repository.id !== source.gitRepositoryId) {
        await codeSources.recordAccessLost(caller.organizationId, id);
      } else {
        await codeSources.recordAccess(caller.organizationId, id, repository);
      }
    } catch (error) {
      if (!(error instanceof ForgeAccessError)) {
        throw error;
      }
      await codeSources.recordAccessLost(caller.organizationId, id);
    }
    return this.find(caller, id);
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, WRITE);
    await audit(
      this.deps.auditor,
      'code-source-disconnect',
      caller,
      { codeSourceId: id },
      async () => {
        await deleteUnlessInUse(this.deps.stores, {
          entity: 'CodeSource',
          id,
          inUseMessage:
            'Module definitions or stacks still use this code source; delete them first',
          exists: async tx =>
            Boolean(await tx.codeSources.get(caller.organizationId, id)),
          countUsers: tx =>
            tx.codeSources.countUsers(caller.organizationId, id),
          remove: tx => tx.codeSources.delete(caller.organizationId, id),
        });
      },
    );
  }

  /**
   * #26: whether `module.yaml` exists in `basePath` on `branch` (the default branch when
   * omitted). No such branch means no such file: `exists: false`, which a caller can act on.
   * An unreachable repository or installation is still an error, since nothing was looked at.
   */
  async moduleYamlExists(
    caller: Caller,
    id: string,
    query: { branch?: string; basePath?: string },
  ): Promise<{ exists: boolean }> {
    await this.deps.authorizer.require(caller, READ);
    const source = await this.find(caller, id);
    const repository = await this.deps.githubApps.open(
      source.repoUrl,
      source.auth.forgeInstallationId,
    );
    const branch = query.branch ?? repository.repository.defaultBranch;
    const commitSha = await repository.branchCommit(branch);
    if (!commitSha) {
      return { exists: false };
    }
    const content = await repository.readFile(
      commitSha,
      moduleYamlPath(query.basePath ?? ''),
    );
    return { exists: content !== undefined };
  }

  private async find(caller: Caller, id: string): Promise<CodeSource> {
    const source = await this.deps.stores.codeSources.get(
      caller.organizationId,
      id,
    );
    if (!source) {
      throw notFound('CodeSource', id);
    }
    return source;
  }
}
