import {
  RunGitSource,
  RunnerCheckout,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Stores } from '../database/stores';
import { InfraDeliveryError } from '../errors';
import { GithubAppInstallations } from '../providers/github/GithubAppInstallations';

/**
 * What a runner checks out for a git-triggered run: the run's commit, with an installation
 * token of the code source's GitHub App limited to that one repository and `contents: read`.
 * A fresh token for every claim: it lives about an hour, long enough to fetch, and no token is
 * stored.
 */
export class RunCheckouts {
  constructor(
    private readonly deps: {
      stores: Stores;
      githubApps: GithubAppInstallations;
    },
  ) {}

  /**
   * Throws an InfraDeliveryError when no token can be had (the code source is gone, the
   * installation suspended or removed, GitHub unreachable): the caller must then not let a
   * runner plan anything else in its place.
   */
  async checkoutOf(
    organizationId: string,
    gitSource: RunGitSource,
  ): Promise<RunnerCheckout> {
    const codeSource = await this.deps.stores.codeSources.get(
      organizationId,
      gitSource.codeSourceId,
    );
    if (!codeSource) {
      throw new InfraDeliveryError({
        status: 422,
        entity: 'CodeSource',
        reason: 'NOT_FOUND',
        message: `The code source of ${gitSource.repository} was removed`,
        metadata: { codeSourceId: gitSource.codeSourceId },
      });
    }
    const { token, expiresAt } = await this.deps.githubApps.repositoryReadToken(
      codeSource.repoUrl,
      codeSource.auth.forgeInstallationId,
    );
    return {
      repoUrl: `${codeSource.repoUrl}.git`,
      sha: gitSource.commit.sha,
      token,
      ...(expiresAt ? { tokenExpiresAt: expiresAt } : {}),
    };
  }
}
