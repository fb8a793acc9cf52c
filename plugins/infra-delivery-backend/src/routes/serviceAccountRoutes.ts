import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerServiceAccountRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  bind(operations.createServiceAccount, async ({ caller, body }) => ({
    data: await services.serviceAccounts.create(caller, body.data),
  }));

  bind(operations.listServiceAccounts, async ({ caller, query }) => {
    const scope = pageScope('service-accounts', caller.organizationId);
    return cursors.list(query, scope, page =>
      services.serviceAccounts.list(caller, page),
    );
  });

  bind(operations.getServiceAccount, async ({ caller, params }) => ({
    data: await services.serviceAccounts.get(caller, params.id),
  }));

  bind(operations.deleteServiceAccount, async ({ caller, params }) => {
    await services.serviceAccounts.delete(caller, params.id);
  });
}
