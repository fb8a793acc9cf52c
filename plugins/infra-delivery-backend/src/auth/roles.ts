import { Role, ROLES } from '@infra-delivery/plugin-infra-delivery-common';

/** OWNER ⊃ ADMIN ⊃ MEMBER ⊃ VIEWER: ROLES lists them strongest first. */
export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(minimum);
}

export function strongestRole(roles: Role[]): Role | undefined {
  return [...roles].sort((a, b) => ROLES.indexOf(a) - ROLES.indexOf(b))[0];
}

/** Whether only an OWNER may act on a principal (member or service account) of this role. */
export function managedByOwners(role: Role): boolean {
  return roleAtLeast(role, 'ADMIN');
}
