import { useCallerRole } from './useCallerRole';

const ADMIN_ROLES = ['OWNER', 'ADMIN'];

/**
 * Whether the signed-in person administers the organization (role ADMIN or OWNER), e.g. may
 * create service accounts; undefined until the role is known. When it cannot be read, false:
 * admin actions stay hidden rather than failing, and the service checks the role anyway.
 */
export function useIsOrganizationAdmin(): boolean | undefined {
  const { loading, role } = useCallerRole();
  if (loading) return undefined;
  return role !== undefined && ADMIN_ROLES.includes(role);
}
