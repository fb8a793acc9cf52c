import { AuditorService } from '@backstage/backend-plugin-api';
import {
  Membership,
  Organization,
  Role,
} from '@infra-delivery/plugin-infra-delivery-common';
import { ADMINISTER, ADMINISTER_ADMINS, READ } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { managedByOwners, roleAtLeast } from '../auth/roles';
import { isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { audit } from './audit';
import { hashInvitationToken, newInvitationToken } from './IdentityService';

const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

function onlyOwners(caller: Caller, what: string) {
  return new InfraDeliveryError({
    status: 403,
    entity: 'Auth',
    reason: 'INSUFFICIENT_ROLE',
    message: `Only an OWNER can ${what}`,
    metadata: { requiredRole: 'OWNER', role: caller.role },
  });
}

async function existingMembership(
  tx: Stores,
  caller: Caller,
  id: string,
): Promise<Membership> {
  const membership = await tx.memberships.get(caller.organizationId, id);
  if (!membership) {
    throw notFound('Membership', id);
  }
  return membership;
}

/** Refuses to remove or demote the organization's last OWNER who has signed up. */
async function keepAnOwner(
  tx: Stores,
  membership: Membership,
  what: 'removed' | 'demoted',
): Promise<void> {
  if (
    membership.role === 'OWNER' &&
    membership.userId &&
    (await tx.memberships.countOwners(membership.organizationId)) <= 1
  ) {
    throw new InfraDeliveryError({
      status: 409,
      entity: 'Membership',
      reason: 'LAST_OWNER',
      message: `The last OWNER cannot be ${what}; make another member OWNER first`,
      description:
        'Change another member’s role to OWNER on the Organization page, then try again.',
    });
  }
}

/** The organization, its members and their invitations. */
export class MembershipService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      auditor: AuditorService;
    },
  ) {}

  async getOrganization(caller: Caller): Promise<Organization> {
    await this.deps.authorizer.require(caller, READ);
    const organization = await this.deps.stores.organizations.get(
      caller.organizationId,
    );
    if (!organization) {
      throw notFound('Organization', caller.organizationId);
    }
    return organization;
  }

  async updateOrganization(
    caller: Caller,
    patch: { name?: string; plan?: string },
  ): Promise<Organization> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    const organization = await this.deps.stores.organizations.update(
      caller.organizationId,
      patch,
    );
    if (!organization) {
      throw notFound('Organization', caller.organizationId);
    }
    return organization;
  }

  async list(
    caller: Caller,
    page: KeysetRequest,
  ): Promise<KeysetPage<Membership>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.memberships.list(caller.organizationId, page);
  }

  async invite(
    caller: Caller,
    input: { email: string; role: Role },
  ): Promise<Membership & { invitationToken: string }> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    // ADMINs invite MEMBERs and VIEWERs; only an OWNER makes another ADMIN or OWNER.
    if (managedByOwners(input.role)) {
      await this.deps.authorizer.require(
        caller,
        ADMINISTER_ADMINS,
        `Only an OWNER can invite an ${input.role}`,
      );
    }
    const invitationToken = newInvitationToken();
    return audit(
      this.deps.auditor,
      'membership-invite',
      caller,
      { invitedEmail: input.email, role: input.role },
      async () => {
        try {
          const membership =
            await this.deps.stores.memberships.createInvitation({
              organizationId: caller.organizationId,
              email: input.email,
              role: input.role,
              tokenHash: hashInvitationToken(invitationToken),
              expiresAt: new Date(Date.now() + INVITATION_TTL_MS).toISOString(),
            });
          return { ...membership, invitationToken };
        } catch (error) {
          if (isUniqueViolation(error)) {
            throw new InfraDeliveryError({
              status: 409,
              entity: 'Membership',
              reason: 'ALREADY_EXISTS',
              message: `${input.email} is a member or invited already`,
            });
          }
          throw error;
        }
      },
    );
  }

  /**
   * Changes a member's (or an invitation's) role. ADMINs manage MEMBER and VIEWER roles; ADMIN
   * and OWNER are granted and taken away by OWNERs only; nobody raises their own role, anybody
   * lowers it; the last OWNER who has signed up stays OWNER.
   */
  async changeRole(
    caller: Caller,
    id: string,
    role: Role,
  ): Promise<Membership> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    return audit(
      this.deps.auditor,
      'membership-role-change',
      caller,
      { membershipId: id, role },
      () =>
        this.deps.stores.transaction(async tx => {
          const membership = await existingMembership(tx, caller, id);
          if (membership.role === role) {
            return membership;
          }
          const own =
            caller.principal.type === 'membership' &&
            caller.principal.membershipId === id;
          if (own && roleAtLeast(role, membership.role)) {
            throw new InfraDeliveryError({
              status: 403,
              entity: 'Membership',
              reason: 'OWN_ROLE',
              message: 'Nobody may raise their own role',
              description: 'Ask an OWNER to change your role.',
            });
          }
          if (
            (role === 'OWNER' || membership.role === 'OWNER') &&
            caller.role !== 'OWNER'
          ) {
            throw onlyOwners(caller, 'grant or take away OWNER');
          }
          // An ADMIN may step down to MEMBER or VIEWER, but not demote another ADMIN.
          if (
            (role === 'ADMIN' || membership.role === 'ADMIN') &&
            caller.role !== 'OWNER' &&
            !own
          ) {
            throw onlyOwners(caller, 'grant or take away ADMIN');
          }
          await keepAnOwner(tx, membership, 'demoted');
          await tx.memberships.updateRole(caller.organizationId, id, role);
          return (await tx.memberships.get(caller.organizationId, id))!;
        }),
    );
  }

  async remove(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, ADMINISTER);
    await audit(
      this.deps.auditor,
      'membership-remove',
      caller,
      { membershipId: id },
      () =>
        this.deps.stores.transaction(async tx => {
          const membership = await existingMembership(tx, caller, id);
          const own =
            caller.principal.type === 'membership' &&
            caller.principal.membershipId === id;
          // Anybody may leave; only an OWNER removes an ADMIN or an OWNER.
          if (
            managedByOwners(membership.role) &&
            caller.role !== 'OWNER' &&
            !own
          ) {
            throw onlyOwners(caller, `remove an ${membership.role}`);
          }
          await keepAnOwner(tx, membership, 'removed');
          await tx.apiKeys.deleteForOwner(
            caller.organizationId,
            'MEMBERSHIP',
            id,
          );
          await tx.memberships.delete(caller.organizationId, id);
        }),
    );
  }
}
