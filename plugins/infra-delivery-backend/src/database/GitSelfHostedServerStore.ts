import { GitSelfHostedServer } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { isUniqueViolation } from './dbErrors';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, toTimestamp } from './timestamps';

interface ServerRow {
  id: string;
  organization_id: string;
  name: string;
  base_url: string;
  client_id: string;
  created_by_id: string;
  created_at: string | Date;
  updated_at: string | Date;
}

/** A server row with the caller's login, if any, joined in. */
type ServerWithLoginRow = ServerRow & {
  login_membership_id: string | null;
  login_expires_at: string | Date | null;
};

interface LoginRow {
  server_id: string;
  membership_id: string;
  organization_id: string;
  access_token_sealed: string;
  scopes: string;
  expires_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** What logging in to a server needs; the secret still sealed. */
export interface StoredOAuthApp {
  id: string;
  name: string;
  baseUrl: string;
  clientId: string;
  clientSecretSealed: string;
}

/** A member's login to a server; the token still sealed. */
export interface StoredLogin {
  accessTokenSealed: string;
  scopes: string[];
  expiresAt?: Date;
}

function isLive(expiresAt: string | Date | null, now: Date): boolean {
  return expiresAt === null || new Date(expiresAt) > now;
}

function toServer(row: ServerWithLoginRow): GitSelfHostedServer {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    baseUrl: row.base_url,
    clientId: row.client_id,
    loggedIn:
      row.login_membership_id !== null &&
      isLive(row.login_expires_at, new Date()),
    createdById: row.created_by_id,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

/**
 * Self-hosted servers, members' logins to them and used OAuth states. Secrets come in and go
 * out sealed: this store never sees them in clear, and its server reads leave them out.
 */
export class GitSelfHostedServerStore {
  constructor(private readonly db: Knex) {}

  /** Servers with whether `membershipId` (when given) has a live login to each. */
  private withLogin(membershipId: string | undefined) {
    return this.db<ServerWithLoginRow>('git_self_hosted_servers')
      .leftJoin('git_self_hosted_logins', join =>
        join
          .on('git_self_hosted_logins.server_id', 'git_self_hosted_servers.id')
          .andOnVal(
            'git_self_hosted_logins.membership_id',
            '=',
            membershipId ?? '',
          ),
      )
      .select(
        'git_self_hosted_servers.id',
        'git_self_hosted_servers.organization_id',
        'git_self_hosted_servers.name',
        'git_self_hosted_servers.base_url',
        'git_self_hosted_servers.client_id',
        'git_self_hosted_servers.created_by_id',
        'git_self_hosted_servers.created_at',
        'git_self_hosted_servers.updated_at',
        'git_self_hosted_logins.membership_id as login_membership_id',
        'git_self_hosted_logins.expires_at as login_expires_at',
      );
  }

  async create(input: {
    id: string;
    organizationId: string;
    name: string;
    baseUrl: string;
    clientId: string;
    clientSecretSealed: string;
    createdById: string;
  }): Promise<void> {
    const now = nowTimestamp();
    await this.db('git_self_hosted_servers').insert({
      id: input.id,
      organization_id: input.organizationId,
      name: input.name,
      base_url: input.baseUrl,
      client_id: input.clientId,
      client_secret_sealed: input.clientSecretSealed,
      created_by_id: input.createdById,
      created_at: now,
      updated_at: now,
    });
  }

  async get(
    organizationId: string,
    id: string,
    membershipId?: string,
  ): Promise<GitSelfHostedServer | undefined> {
    const row = await this.withLogin(membershipId)
      .where('git_self_hosted_servers.organization_id', organizationId)
      .where('git_self_hosted_servers.id', id)
      .first();
    return row && toServer(row);
  }

  async list(
    organizationId: string,
    membershipId: string | undefined,
    page: KeysetRequest,
  ): Promise<KeysetPage<GitSelfHostedServer>> {
    return keysetPage(
      this.withLogin(membershipId).where(
        'git_self_hosted_servers.organization_id',
        organizationId,
      ),
      'git_self_hosted_servers.id',
      page,
      toServer,
    );
  }

  async getOAuthApp(
    organizationId: string,
    id: string,
  ): Promise<StoredOAuthApp | undefined> {
    const row = await this.db('git_self_hosted_servers')
      .where({ organization_id: organizationId, id })
      .first();
    return (
      row && {
        id: row.id,
        name: row.name,
        baseUrl: row.base_url,
        clientId: row.client_id,
        clientSecretSealed: row.client_secret_sealed,
      }
    );
  }

  /** Deletes the server; members' logins to it go with it. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.db('git_self_hosted_servers')
      .where({ organization_id: organizationId, id })
      .delete();
    return deleted === 1;
  }

  /** Keeps a member's login, replacing an earlier one. */
  async saveLogin(input: {
    organizationId: string;
    serverId: string;
    membershipId: string;
    accessTokenSealed: string;
    scopes: string[];
    expiresAt?: Date;
  }): Promise<void> {
    const now = nowTimestamp();
    const row: LoginRow = {
      server_id: input.serverId,
      membership_id: input.membershipId,
      organization_id: input.organizationId,
      access_token_sealed: input.accessTokenSealed,
      scopes: input.scopes.join(' '),
      expires_at: input.expiresAt?.toISOString() ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.db('git_self_hosted_logins')
      .insert(row)
      .onConflict(['server_id', 'membership_id'])
      .merge(['access_token_sealed', 'scopes', 'expires_at', 'updated_at']);
  }

  /** A member's live login to a server; an expired one counts as none. */
  async getLogin(
    organizationId: string,
    serverId: string,
    membershipId: string,
  ): Promise<StoredLogin | undefined> {
    const row = await this.db<LoginRow>('git_self_hosted_logins')
      .where({
        organization_id: organizationId,
        server_id: serverId,
        membership_id: membershipId,
      })
      .first();
    if (!row || !isLive(row.expires_at, new Date())) {
      return undefined;
    }
    return {
      accessTokenSealed: row.access_token_sealed,
      scopes: row.scopes.split(' ').filter(Boolean),
      ...(row.expires_at ? { expiresAt: new Date(row.expires_at) } : {}),
    };
  }

  async deleteLogin(
    organizationId: string,
    serverId: string,
    membershipId: string,
  ): Promise<void> {
    await this.db('git_self_hosted_logins')
      .where({
        organization_id: organizationId,
        server_id: serverId,
        membership_id: membershipId,
      })
      .delete();
  }

  /**
   * Records an OAuth state as used; `false` when it was used before. States past their expiry
   * are forgotten here too: their signature check refuses them already.
   */
  async useOAuthState(stateId: string, expiresAt: Date): Promise<boolean> {
    const now = nowTimestamp();
    await this.db('git_self_hosted_oauth_states')
      .where('expires_at', '<', now)
      .delete();
    try {
      await this.db('git_self_hosted_oauth_states').insert({
        state_id: stateId,
        expires_at: expiresAt.toISOString(),
        used_at: now,
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return false;
      }
      throw error;
    }
  }
}
