import { CodeSource } from '@infra-delivery/plugin-infra-delivery-common';
import { Stores } from '../database/stores';
import { DeliveryOutcome } from '../database/WebhookDeliveryStore';
import {
  InstallationEvent,
  InstallationRepositoriesEvent,
} from '../gitTriggers/githubEvents';
import {
  ForgeAccessError,
  GithubAppInstallations,
} from '../providers/github/GithubAppInstallations';

/** Installation actions after which the installation reaches nothing. */
const ACCESS_ENDS = ['deleted', 'suspend'];
/** Installation actions after which the code sources are worth asking about again. */
const ACCESS_MAY_RETURN = ['created', 'unsuspend', 'new_permissions_accepted'];

/**
 * `installation` and `installation_repositories` deliveries keep the code sources' `accessLost`
 * current: an uninstalled or suspended App, or a repository taken out of the installation,
 * loses access at once; when access may be back, each code source is verified with the forge
 * as `POST /code-sources/{id}/verify` would.
 */
export class ForgeInstallationEvents {
  constructor(
    private readonly deps: {
      stores: Stores;
      githubApps: GithubAppInstallations;
    },
  ) {}

  async onInstallation(
    forgeHost: string,
    event: InstallationEvent,
    organizationIds: string[],
  ): Promise<Map<string, DeliveryOutcome>> {
    const sources = await this.deps.stores.codeSources.findByInstallation(
      forgeHost,
      String(event.installation.id),
    );
    if (ACCESS_ENDS.includes(event.action)) {
      return this.apply(
        organizationIds,
        sources,
        'lost',
        `installation.${event.action}`,
      );
    }
    if (ACCESS_MAY_RETURN.includes(event.action)) {
      return this.apply(
        organizationIds,
        sources,
        'verify',
        `installation.${event.action}`,
      );
    }
    return this.ignored(
      organizationIds,
      `installation.${event.action} changes nothing`,
    );
  }

  async onInstallationRepositories(
    forgeHost: string,
    event: InstallationRepositoriesEvent,
    organizationIds: string[],
  ): Promise<Map<string, DeliveryOutcome>> {
    const sources = await this.deps.stores.codeSources.findByInstallation(
      forgeHost,
      String(event.installation.id),
    );
    const removed = new Set(event.repositories_removed.map(r => String(r.id)));
    const added = new Set(event.repositories_added.map(r => String(r.id)));
    const outcomes = await this.apply(
      organizationIds,
      sources.filter(source => removed.has(source.gitRepositoryId)),
      'lost',
      'repository removed from the installation',
    );
    const verified = await this.apply(
      organizationIds,
      sources.filter(source => added.has(source.gitRepositoryId)),
      'verify',
      'repository added to the installation',
    );
    for (const [organizationId, outcome] of verified) {
      if (outcome.outcome === 'UPDATED_CODE_SOURCES') {
        outcomes.set(organizationId, outcome);
      }
    }
    return outcomes;
  }

  private async apply(
    organizationIds: string[],
    sources: CodeSource[],
    change: 'lost' | 'verify',
    why: string,
  ): Promise<Map<string, DeliveryOutcome>> {
    const { codeSources } = this.deps.stores;
    const updated = new Map<string, string[]>();
    for (const source of sources) {
      const lost = change === 'lost' || !(await this.reaches(source));
      if (lost) {
        await codeSources.recordAccessLost(source.organizationId, source.id);
      }
      updated.set(source.organizationId, [
        ...(updated.get(source.organizationId) ?? []),
        `${source.repoName} ${lost ? 'lost access' : 'reachable'}`,
      ]);
    }
    const outcomes = this.ignored(
      organizationIds,
      `${why}: no code source concerned`,
    );
    for (const [organizationId, lines] of updated) {
      outcomes.set(organizationId, {
        outcome: 'UPDATED_CODE_SOURCES',
        reason: `${why}: ${lines.join(', ')}`,
      });
    }
    return outcomes;
  }

  /** Asks the forge, and records what it answered when the repository is reached. */
  private async reaches(source: CodeSource): Promise<boolean> {
    try {
      const { repository } = await this.deps.githubApps.open(
        source.repoUrl,
        source.auth.forgeInstallationId,
      );
      if (repository.id !== source.gitRepositoryId) {
        return false;
      }
      await this.deps.stores.codeSources.recordAccess(
        source.organizationId,
        source.id,
        repository,
      );
      return true;
    } catch (error) {
      if (error instanceof ForgeAccessError) {
        return false;
      }
      throw error;
    }
  }

  private ignored(
    organizationIds: string[],
    reason: string,
  ): Map<string, DeliveryOutcome> {
    return new Map(
      organizationIds.map(organizationId => [
        organizationId,
        { outcome: 'IGNORED', reason },
      ]),
    );
  }
}
