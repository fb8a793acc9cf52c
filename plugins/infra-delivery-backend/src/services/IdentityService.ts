import { randomBytes } from 'node:crypto';
import { AuditorService } from '@backstage/backend-plugin-api';
import { createHash } from 'node:crypto';
import { AccessTokenIssuer } from '../auth/accessTokens';
import { PasswordHasher } from '../auth/passwords';
import { isUniqueViolation } from '../database/dbErrors';
import { Stores } from '../database/stores';
import { UserRecord } from '../database/UserStore';
import { InfraDeliveryError } from '../errors';
import { audit } from './audit';
import { SignupMode } from '../config';

/** Invitation tokens are random; only their SHA-256 is stored. */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newInvitationToken(): string {
  return `idi_${randomBytes(24).toString('base64url')}`;
}

const invalidInvitation = () =>
  new InfraDeliveryError({
    status: 400,
    entity: 'Invitation',
    reason: 'INVALID',
    message:
      'The invitation token is not valid for this email, was used already or has expired',
  });

const wrongCredentials = () =>
  new InfraDeliveryError({
    status: 401,
    entity: 'Auth',
    reason: 'INVALID_CREDENTIALS',
    message: 'The email or the password is wrong',
  });

/** Sign-up and access tokens: the ways in for people who are not portal users. */
export class IdentityService {
  constructor(
    private readonly deps: {
      stores: Stores;
      accessTokens: AccessTokenIssuer;
      auditor: AuditorService;
      signups: SignupMode;
      passwords: PasswordHasher;
    },
  ) {}

  async signup(input: {
    email: string;
    password: string;
    invitationToken?: string;
    plan?: string;
  }): Promise<{ organizationId: string; userId: string }> {
    if (this.deps.signups === 'invitations-only' && !input.invitationToken) {
      throw new InfraDeliveryError({
        status: 403,
        entity: 'Signup',
        reason: 'INVITATION_REQUIRED',
        message:
          'Signing up here takes an invitation: ask an ADMIN of your organization to invite you (POST /memberships), then sign up with its invitationToken',
      });
    }
    if (input.invitationToken) {
      const user = await this.deps.stores.users.findByEmail(input.email);
      if (user) {
        return this.joinWithInvitation(user, {
          ...input,
          invitationToken: input.invitationToken,
        });
      }
    }
    const passwordHash = await this.deps.passwords.hash(input.password);
    return audit(
      this.deps.auditor,
      'signup',
      undefined,
      { withInvitation: input.invitationToken !== undefined },
      async () => {
        try {
          return await this.deps.stores.transaction(async tx => {
            const user = await tx.users.create({
              email: input.email,
              passwordHash,
            });
            if (input.invitationToken) {
              const invitation = await tx.memberships.findPendingInvitation(
                hashInvitationToken(input.invitationToken),
              );
              if (
                !invitation ||
                invitation.invitedEmail !== input.email ||
                new Date(invitation.expiresAt) <= new Date()
              ) {
                throw invalidInvitation();
              }
              if (
                !(await tx.memberships.acceptInvitation(
                  invitation.membershipId,
                  user.id,
                  input.email,
                ))
              ) {
                throw invalidInvitation();
              }
              return {
                organizationId: invitation.organizationId,
                userId: user.id,
              };
            }
            const organization = await tx.organizations.create({
              name: input.email.split('@')[1] ?? input.email,
              plan: input.plan,
            });
            await tx.memberships.createForUser({
              organizationId: organization.id,
              userId: user.id,
              email: input.email,
              role: 'OWNER',
            });
            return { organizationId: organization.id, userId: user.id };
          });
        } catch (error) {
          if (isUniqueViolation(error)) {
            throw new InfraDeliveryError({
              status: 409,
              entity: 'User',
              reason: 'ALREADY_EXISTS',
              message: 'A user with this email exists already',
            });
          }
          throw error;
        }
      },
    );
  }

  /**
   * An invitation for an email that has an account already: the person proves it is theirs
   * with its password, and joins the inviting organization as signing up would have.
   */
  private async joinWithInvitation(
    user: UserRecord,
    input: { email: string; password: string; invitationToken: string },
  ): Promise<{ organizationId: string; userId: string }> {
    return audit(
      this.deps.auditor,
      'signup',
      undefined,
      { withInvitation: true, existingUser: true },
      async () => {
        // The invitation first: without one for this email, the password is not looked at.
        const invitation =
          await this.deps.stores.memberships.findPendingInvitation(
            hashInvitationToken(input.invitationToken),
          );
        if (
          !invitation ||
          invitation.invitedEmail !== input.email ||
          new Date(invitation.expiresAt) <= new Date()
        ) {
          throw invalidInvitation();
        }
        // Verify against a decoy when the account has no password (a portal user's), so the
        // answer takes as long either way.
        const passwordOk = await this.deps.passwords.verify(
          input.password,
          user.passwordHash ?? (await this.deps.passwords.decoyHash()),
        );
        if (!user.passwordHash || !passwordOk) {
          throw wrongCredentials();
        }
        // Used once: of two joins at once, the second finds it taken.
        if (
          !(await this.deps.stores.memberships.acceptInvitation(
            invitation.membershipId,
            user.id,
            input.email,
          ))
        ) {
          throw invalidInvitation();
        }
        return { organizationId: invitation.organizationId, userId: user.id };
      },
    );
  }

  async createAccessToken(input: {
    email: string;
    password: string;
    organizationId?: string;
  }): Promise<{ accessToken: string; tokenType: 'Bearer'; expiresAt: string }> {
    const wrong = wrongCredentials();
    const user = await this.deps.stores.users.findByEmail(input.email);
    // Verify against a decoy when there is no user, so the answer takes as long either way.
    const passwordOk = await this.deps.passwords.verify(
      input.password,
      user?.passwordHash ?? (await this.deps.passwords.decoyHash()),
    );
    if (!user?.passwordHash || !passwordOk) {
      throw wrong;
    }
    const membership = await this.deps.stores.memberships.findForUser(
      user.id,
      input.organizationId,
    );
    if (!membership) {
      throw wrong;
    }
    const token = await this.deps.accessTokens.issue({
      membershipId: membership.id,
      organizationId: membership.organizationId,
    });
    return { ...token, tokenType: 'Bearer' };
  }
}
