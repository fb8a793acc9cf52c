import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerGitSelfHostedRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  bind(operations.createGitSelfHostedServer, async ({ caller, body }) => ({
    data: await services.gitSelfHosted.create(caller, body.data),
  }));

  bind(operations.listGitSelfHostedServers, async ({ caller, query }) => {
    const scope = pageScope('git-self-hosted-servers', caller.organizationId);
    return cursors.list(query, scope, page =>
      services.gitSelfHosted.list(caller, page),
    );
  });

  bind(operations.getGitSelfHostedServer, async ({ caller, params }) => ({
    data: await services.gitSelfHosted.get(caller, params.id),
  }));

  bind(operations.deleteGitSelfHostedServer, async ({ caller, params }) => {
    await services.gitSelfHosted.delete(caller, params.id);
  });

  bind(operations.startGitSelfHostedLogin, async ({ caller, params }) => ({
    redirectTo: (
      await services.gitSelfHosted.startLogin(
        caller,
        params.gitSelfHostedServerId,
      )
    ).authorizeUrl,
  }));

  bind(operations.getGitSelfHostedLoginUrl, async ({ caller, params }) => ({
    data: await services.gitSelfHosted.startLogin(
      caller,
      params.gitSelfHostedServerId,
    ),
  }));

  bind(operations.completeGitSelfHostedLogin, async ({ caller, query }) => ({
    data: await services.gitSelfHosted.completeLogin(caller, query),
  }));

  bind(
    operations.listGitForgeNamespaceRepositories,
    async ({ caller, params, query }) => {
      const page = await services.gitSelfHosted.listRepositories(caller, {
        ...query,
        namespaceId: params.namespaceId,
      });
      return {
        data: {
          data: page.repositories,
          pageInfo: page.pageInfo,
          totalCount: page.totalCount,
        },
      };
    },
  );

  bind(
    operations.streamGitForgeNamespaceRepositories,
    async ({ caller, params, query }) =>
      services.gitSelfHosted.streamRepositories(caller, {
        ...query,
        namespaceId: params.namespaceId,
      }),
  );
}
