import { PermissionsService } from '@backstage/backend-plugin-api';
import {
  AuthorizeResult,
  BasicPermission,
} from '@backstage/plugin-permission-common';
import { Role } from '@infra-delivery/plugin-infra-delivery-common';
import { InfraDeliveryError } from '../errors';
import { Caller } from './Caller';
import { roleAtLeast } from './roles';

export interface Requirement {
  /** The weakest role that may do it. */
  role: Role;
  /** The Backstage permission a portal user needs besides the role. */
  permission: BasicPermission;
}

/**
 * Decides whether a caller may do something: first the caller's role in the organization,
 * then, for portal users, the Backstage permission framework, which can only narrow.
 */
export class Authorizer {
  constructor(private readonly permissions: PermissionsService) {}

  /**
   * Refuses with 403 INSUFFICIENT_ROLE, saying `refusal` when given (what the role is needed
   * for, e.g. "Only an OWNER can …"), or the permission framework's 403 PERMISSION_DENIED.
   */
  async require(
    caller: Caller,
    requirement: Requirement,
    refusal?: string,
  ): Promise<void> {
    if (!roleAtLeast(caller.role, requirement.role)) {
      throw new InfraDeliveryError({
        status: 403,
        entity: 'Auth',
        reason: 'INSUFFICIENT_ROLE',
        message:
          refusal ??
          `This needs the ${requirement.role} role; the caller is ${caller.role}`,
        metadata: { requiredRole: requirement.role, role: caller.role },
      });
    }
    if (caller.credentialKind !== 'backstage-user') {
      return;
    }
    const [decision] = await this.permissions.authorize(
      [{ permission: requirement.permission }],
      { credentials: caller.backstageCredentials! },
    );
    if (decision.result !== AuthorizeResult.ALLOW) {
      throw new InfraDeliveryError({
        status: 403,
        entity: 'Auth',
        reason: 'PERMISSION_DENIED',
        message: `The portal's permission policy does not allow ${requirement.permission.name}`,
        metadata: { permission: requirement.permission.name },
      });
    }
  }
}
