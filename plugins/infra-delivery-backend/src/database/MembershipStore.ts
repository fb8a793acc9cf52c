import { Membership, Role } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { changingAccess } from './AccessEpochStore';
import { newId } from './ids';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

interface MembershipRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  email: string;
  role: Role;
  invitation_id: string | null;
  invited_email: string | null;
  invitation_token_hash: string | null;
  invitation_expires_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

type MembershipJoinedRow = MembershipRow & {
  full_name: string | null;
  short_name: string | null;
};

/** A pending invitation: the membership whose user has not signed up with the token yet. */
export interface PendingInvitation {
  membershipId: string;
  organizationId: string;
  invitedEmail: string;
  expiresAt: string;
}

function toMembership(row: MembershipJoinedRow): Membership {
  return {
    id: row.id,
    organizationId: row.organization_id,
    email: row.email,
    role: row.role,
    userId: optional(row.user_id),
    invitationId: optional(row.invitation_id),
    invitedEmail: optional(row.invited_email),
    fullName: optional(row.full_name),
    shortName: optional(row.short_name),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

export class MembershipStore {
  constructor(private readonly db: Knex) {}

  private joined() {
    return this.db<MembershipJoinedRow>('memberships')
      .leftJoin('users', 'users.id', 'memberships.user_id')
      .select('memberships.*', 'users.full_name', 'users.short_name');
  }

  /** A member who already has a user (sign-up, portal provisioning). */
  async createForUser(input: {
    organizationId: string;
    userId: string;
    email: string;
    role: Role;
  }): Promise<Membership> {
    const now = nowTimestamp();
    const id = newId();
    await this.db('memberships').insert({
      id,
      organization_id: input.organizationId,
      user_id: input.userId,
      email: input.email,
      role: input.role,
      created_at: now,
      updated_at: now,
    });
    return (await this.get(input.organizationId, id))!;
  }

  /** An invitation: a membership without a user, claimed by signing up with the token. */
  async createInvitation(input: {
    organizationId: string;
    email: string;
    role: Role;
    tokenHash: string;
    expiresAt: string;
  }): Promise<Membership> {
    const now = nowTimestamp();
    const id = newId();
    await this.db('memberships').insert({
      id,
      organization_id: input.organizationId,
      user_id: null,
      email: input.email,
      role: input.role,
      invitation_id: newId(),
      invited_email: input.email,
      invitation_token_hash: input.tokenHash,
      invitation_expires_at: input.expiresAt,
      created_at: now,
      updated_at: now,
    });
    return (await this.get(input.organizationId, id))!;
  }

  async get(
    organizationId: string,
    id: string,
  ): Promise<Membership | undefined> {
    const row = await this.joined()
      .where('memberships.organization_id', organizationId)
      .where('memberships.id', id)
      .first();
    return row && toMembership(row);
  }

  async list(
    organizationId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<Membership>> {
    return keysetPage(
      this.joined().where('memberships.organization_id', organizationId),
      'memberships.id',
      page,
      toMembership,
    );
  }

  async findForUser(
    userId: string,
    organizationId?: string,
  ): Promise<Membership | undefined> {
    const query = this.joined()
      .where('memberships.user_id', userId)
      .orderBy('memberships.id', 'asc');
    if (organizationId) {
      query.where('memberships.organization_id', organizationId);
    }
    const row = await query.first();
    return row && toMembership(row);
  }

  async findPendingInvitation(
    tokenHash: string,
  ): Promise<PendingInvitation | undefined> {
    const row = await this.db<MembershipRow>('memberships')
      .where({ invitation_token_hash: tokenHash })
      .whereNull('user_id')
      .first();
    if (!row || !row.invited_email || !row.invitation_expires_at) {
      return undefined;
    }
    return {
      membershipId: row.id,
      organizationId: row.organization_id,
      invitedEmail: row.invited_email,
      expiresAt: toTimestamp(row.invitation_expires_at),
    };
  }

  /** Binds the invitation to the new user; the token cannot be used again. */
  async acceptInvitation(
    membershipId: string,
    userId: string,
    email: string,
  ): Promise<boolean> {
    const updated = await this.db('memberships')
      .where({ id: membershipId })
      .whereNull('user_id')
      .update({
        user_id: userId,
        email,
        invitation_token_hash: null,
        updated_at: nowTimestamp(),
      });
    return updated === 1;
  }

  /**
   * The organization's OWNERs who have signed up. In a transaction their rows stay locked until
   * it ends (PostgreSQL; SQLite runs one write transaction at a time), so two OWNERs removing
   * each other at once cannot both see another OWNER left.
   */
  async countOwners(organizationId: string): Promise<number> {
    const owners = await this.db('memberships')
      .where({ organization_id: organizationId, role: 'OWNER' })
      .whereNotNull('user_id')
      .orderBy('id')
      .select('id')
      .forUpdate();
    return owners.length;
  }

  async updateRole(
    organizationId: string,
    id: string,
    role: Role,
  ): Promise<boolean> {
    const updated = await changingAccess(this.db, db =>
      db('memberships')
        .where({ organization_id: organizationId, id })
        .update({ role, updated_at: nowTimestamp() }),
    );
    return updated === 1;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await changingAccess(this.db, db =>
      db('memberships').where({ organization_id: organizationId, id }).delete(),
    );
    return deleted === 1;
  }
}
