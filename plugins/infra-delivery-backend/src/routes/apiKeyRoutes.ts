import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerApiKeyRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  bind(operations.listApiKeys, async ({ caller, query }) => {
    const { ownerType, ownerId } = query;
    const scope = pageScope(
      'api-keys',
      caller.organizationId,
      ownerType,
      ownerId,
    );
    return cursors.list(query, scope, page =>
      services.apiKeys.list(caller, { ownerType, ownerId }, page),
    );
  });

  bind(operations.createApiKey, async ({ caller, body }) => ({
    data: await services.apiKeys.create(caller, body.data),
  }));

  bind(operations.revokeApiKey, async ({ caller, params }) => {
    await services.apiKeys.revoke(caller, params.id);
  });
}
