import { usePermission } from '@backstage/plugin-permission-react';
import { infraDeliveryAdministerPermission } from '@infra-delivery/plugin-infra-delivery-common';
import { useCallerRole } from './useCallerRole';

const ADMIN_ROLES = ['OWNER', 'ADMIN'];

/**
 * Whether the signed-in person administers the organization, e.g. may create service accounts:
 * their role is ADMIN or OWNER and the portal's permission policy allows
 * `infra-delivery.administer` (a policy that denies what it does not name leaves an ADMIN
 * reading only, and the service refuses their changes with 403 PERMISSION_DENIED). Undefined
 * until both are known. When the role cannot be read, false: admin actions stay hidden rather
 * than failing, and the service checks both anyway.
 */
export function useIsOrganizationAdmin(): boolean | undefined {
  const { loading, role } = useCallerRole();
  const policy = usePermission({
    permission: infraDeliveryAdministerPermission,
  });
  if (loading || policy.loading) return undefined;
  return policy.allowed && role !== undefined && ADMIN_ROLES.includes(role);
}
