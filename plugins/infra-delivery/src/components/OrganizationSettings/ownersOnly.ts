import { Role, ROLES } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * The service's rule for ADMIN principals (MembershipService, ServiceAccountService,
 * ApiKeyService): only an OWNER grants or takes away ADMIN (or OWNER), invites one, removes
 * one, creates or deletes an ADMIN service account, and makes or revokes an ADMIN's or OWNER's
 * keys; an ADMIN manages MEMBERs and VIEWERs. Anybody may act on themselves: lower their own
 * role, leave, revoke their own keys. What the service would refuse with a 403 is not offered.
 */
const managedByOwners = (role: Role) => role === 'OWNER' || role === 'ADMIN';

/**
 * Whether acting on a principal with `role` needs an OWNER the caller is not (`own`: the
 * principal is the caller's own membership).
 */
export function needsAnOwner(
  callerRole: Role | undefined,
  role: Role,
  own = false,
): boolean {
  return callerRole !== 'OWNER' && managedByOwners(role) && !own;
}

/** The roles the caller gives others: an OWNER any, an ADMIN MEMBER and VIEWER. */
export function grantableRoles(callerRole: Role | undefined): Role[] {
  return callerRole === 'OWNER'
    ? [...ROLES]
    : ROLES.filter(role => !managedByOwners(role));
}

/**
 * The roles the caller may choose for a member whose role is `role`: only `role` when they may
 * not change it; for their own membership, `role` and those below (nobody raises their own).
 */
export function roleChoices(
  callerRole: Role | undefined,
  role: Role,
  own: boolean,
): Role[] {
  if (needsAnOwner(callerRole, role, own)) return [role];
  if (own) return ROLES.slice(ROLES.indexOf(role));
  return grantableRoles(callerRole);
}
