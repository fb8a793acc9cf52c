import { operations } from '@infra-delivery/plugin-infra-delivery-common';
import { pageScope } from '../pagination/PageCursors';
import { RouteContext } from './RouteContext';

export function registerMembershipRoutes({
  bind,
  services,
  cursors,
}: RouteContext) {
  bind(operations.getCurrentCaller, async ({ caller }) => ({
    data: {
      organizationId: caller.organizationId,
      role: caller.role,
      principalType: caller.principal.type,
      ...(caller.principal.type === 'membership'
        ? { membershipId: caller.principal.membershipId }
        : {}),
    },
  }));

  bind(operations.getCurrentOrganization, async ({ caller }) => ({
    data: await services.memberships.getOrganization(caller),
  }));

  bind(operations.updateCurrentOrganization, async ({ caller, body }) => ({
    data: await services.memberships.updateOrganization(caller, body.data),
  }));

  bind(operations.createMembership, async ({ caller, body }) => ({
    data: await services.memberships.invite(caller, body.data),
  }));

  bind(operations.listMemberships, async ({ caller, query }) => {
    const scope = pageScope('memberships', caller.organizationId);
    return cursors.list(query, scope, page =>
      services.memberships.list(caller, page),
    );
  });

  bind(operations.updateMembership, async ({ caller, params, body }) => ({
    data: await services.memberships.changeRole(
      caller,
      params.id,
      body.data.role,
    ),
  }));

  bind(operations.deleteMembership, async ({ caller, params }) => {
    await services.memberships.remove(caller, params.id);
  });
}
