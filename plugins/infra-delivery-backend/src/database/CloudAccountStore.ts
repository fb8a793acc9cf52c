import { CloudAccountStatus } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { changingAccess } from './AccessEpochStore';
import { readFirst } from './directReads';
import { newId } from './ids';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

interface CloudAccountRow {
  id: string;
  organization_id: string;
  given_id: string;
  name: string;
  cloud_id: string;
  status: CloudAccountStatus;
  cloud_ref: string | null;
  external_id: string;
  role_version: string | null;
  template_stack_id: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** A cloud account as stored: the wire fields that are not derived, plus the external id. */
export interface CloudAccountRecord {
  id: string;
  organizationId: string;
  givenId: string;
  name: string;
  cloudId: string;
  status: CloudAccountStatus;
  cloudRef?: string;
  /** The `sts:ExternalId` the account's role requires; never sent to callers. */
  externalId: string;
  roleVersion?: string;
  templateStackId?: string;
  createdAt: string;
  updatedAt: string;
}

function toRecord(row: CloudAccountRow): CloudAccountRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    givenId: row.given_id,
    name: row.name,
    cloudId: row.cloud_id,
    status: row.status,
    cloudRef: optional(row.cloud_ref),
    externalId: row.external_id,
    roleVersion: optional(row.role_version),
    templateStackId: optional(row.template_stack_id),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

export class CloudAccountStore {
  constructor(private readonly db: Knex) {}

  async create(input: {
    /** Only the demo seed chooses ids (so example catalog entities can name them). */
    id?: string;
    organizationId: string;
    givenId: string;
    name: string;
    cloudId: string;
    externalId: string;
  }): Promise<CloudAccountRecord> {
    const now = nowTimestamp();
    const row: CloudAccountRow = {
      id: input.id ?? newId(),
      organization_id: input.organizationId,
      given_id: input.givenId,
      name: input.name,
      cloud_id: input.cloudId,
      status: 'AWAITING_CONNECTION',
      cloud_ref: null,
      external_id: input.externalId,
      role_version: null,
      template_stack_id: null,
      created_at: now,
      updated_at: now,
    };
    await this.db('cloud_accounts').insert(row);
    return toRecord(row);
  }

  async get(
    organizationId: string,
    id: string,
  ): Promise<CloudAccountRecord | undefined> {
    // Read on every metric request (#15), so sent to the driver directly.
    const row = await readFirst<CloudAccountRow>(
      this.db('cloud_accounts').where({ organization_id: organizationId, id }),
    );
    return row && toRecord(row);
  }

  /**
   * The organization's oldest account of an AWS account id, if any. In a transaction the
   * organization's row stays locked until it ends (PostgreSQL; SQLite runs one write
   * transaction at a time), so two registrations of one AWS account cannot both find none.
   * The lock does not hold up writes that only reference the organization.
   */
  async lockedByCloudId(
    organizationId: string,
    cloudId: string,
  ): Promise<CloudAccountRecord | undefined> {
    await this.db('organizations')
      .where({ id: organizationId })
      .select('id')
      .forNoKeyUpdate();
    const row = await this.db<CloudAccountRow>('cloud_accounts')
      .where({ organization_id: organizationId, cloud_id: cloudId })
      .orderBy('id')
      .first();
    return row && toRecord(row);
  }

  /**
   * By id alone, for requests whose own signature names the account (a signed template URL);
   * everything else goes through `get` with the caller's organization.
   */
  async getBySignedId(id: string): Promise<CloudAccountRecord | undefined> {
    const row = await this.db<CloudAccountRow>('cloud_accounts')
      .where({ id })
      .first();
    return row && toRecord(row);
  }

  async list(
    organizationId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<CloudAccountRecord>> {
    const query = this.db<CloudAccountRow>('cloud_accounts').where({
      organization_id: organizationId,
    });
    return keysetPage(query, 'id', page, toRecord);
  }

  async rename(
    organizationId: string,
    id: string,
    name: string,
  ): Promise<CloudAccountRecord | undefined> {
    const updated = await this.db('cloud_accounts')
      .where({ organization_id: organizationId, id })
      .update({ name, updated_at: nowTimestamp() });
    return updated === 1 ? this.get(organizationId, id) : undefined;
  }

  /**
   * Whether the account exists, locking its row until the transaction ends (PostgreSQL; SQLite
   * runs one write transaction at a time): a deployment being made with it meanwhile waits for
   * the delete, and fails on the foreign key, instead of being deleted with the account.
   */
  async lockForDelete(organizationId: string, id: string): Promise<boolean> {
    const row = await this.db('cloud_accounts')
      .where({ organization_id: organizationId, id })
      .select('id')
      .forUpdate()
      .first();
    return Boolean(row);
  }

  /** Moves the access epoch too: instances remember connected accounts under it. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await changingAccess(this.db, db =>
      db('cloud_accounts')
        .where({ organization_id: organizationId, id })
        .delete(),
    );
    return deleted === 1;
  }

  /**
   * Marks the account connected, only if it is still in the state the caller checked (status
   * and role version): two callbacks racing for one account cannot both win. Moves the access
   * epoch too: instances remember connected accounts, and their roles, under it.
   */
  async recordConnection(
    organizationId: string,
    id: string,
    expected: Pick<CloudAccountRecord, 'status' | 'roleVersion'>,
    connection: {
      cloudRef: string;
      roleVersion: string;
      templateStackId: string;
    },
  ): Promise<boolean> {
    const updated = await changingAccess(this.db, db => {
      const query = db('cloud_accounts')
        .where({ organization_id: organizationId, id, status: expected.status })
        .update({
          status: 'CONNECTED',
          cloud_ref: connection.cloudRef,
          role_version: connection.roleVersion,
          template_stack_id: connection.templateStackId,
          updated_at: nowTimestamp(),
        });
      if (expected.roleVersion === undefined) {
        query.whereNull('role_version');
      } else {
        query.where({ role_version: expected.roleVersion });
      }
      return query;
    });
    return updated === 1;
  }

  /**
   * Records that an onboarding token was used; a second use of one token id fails with a
   * unique violation. Rows of tokens past their expiry go first: those tokens are refused anyway.
   */
  async recordTokenUse(use: {
    jti: string;
    cloudAccountId: string;
    expiresAt: string;
  }): Promise<void> {
    const now = nowTimestamp();
    await this.db('cloud_onboarding_token_uses')
      .where('expires_at', '<', now)
      .delete();
    await this.db('cloud_onboarding_token_uses').insert({
      jti: use.jti,
      cloud_account_id: use.cloudAccountId,
      used_at: now,
      expires_at: use.expiresAt,
    });
  }
}
