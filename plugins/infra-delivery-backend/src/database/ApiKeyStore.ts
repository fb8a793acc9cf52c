import { ApiKey } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { changingAccess, holdingAccess } from './AccessEpochStore';
import { newId } from './ids';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import {
  nowTimestamp,
  optional,
  toOptionalTimestamp,
  toTimestamp,
} from './timestamps';

type OwnerType = ApiKey['ownerType'];

interface ApiKeyRow {
  id: string;
  organization_id: string;
  lookup_id: string;
  secret_hash: string;
  key_suffix: string;
  name: string;
  description: string | null;
  owner_type: OwnerType;
  owner_id: string;
  created_by_id: string;
  expires_at: string | Date | null;
  last_used_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** What verifying a presented key needs; never leaves the backend. */
export interface ApiKeyCredentialRecord {
  apiKey: ApiKey;
  secretHash: string;
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    keySuffix: row.key_suffix,
    name: row.name,
    description: optional(row.description),
    ownerType: row.owner_type,
    ownerId: row.owner_id,
    createdById: row.created_by_id,
    expiresAt: toOptionalTimestamp(row.expires_at),
    lastUsedAt: toOptionalTimestamp(row.last_used_at),
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

export class ApiKeyStore {
  constructor(private readonly db: Knex) {}

  async create(input: {
    organizationId: string;
    lookupId: string;
    secretHash: string;
    keySuffix: string;
    name: string;
    description?: string;
    ownerType: OwnerType;
    ownerId: string;
    createdById: string;
    expiresAt?: string;
  }): Promise<ApiKey> {
    const now = nowTimestamp();
    const row: ApiKeyRow = {
      id: newId(),
      organization_id: input.organizationId,
      lookup_id: input.lookupId,
      secret_hash: input.secretHash,
      key_suffix: input.keySuffix,
      name: input.name,
      description: input.description ?? null,
      owner_type: input.ownerType,
      owner_id: input.ownerId,
      created_by_id: input.createdById,
      expires_at: input.expiresAt ?? null,
      last_used_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.db('api_keys').insert(row);
    return toApiKey(row);
  }

  /**
   * In a transaction: holds off every deletion of a key's owner until it ends, so that a key
   * created meanwhile (after its owner is read again) is deleted with the owner or refused.
   */
  async holdOwners(): Promise<void> {
    await holdingAccess(this.db);
  }

  async findByLookupId(
    lookupId: string,
  ): Promise<ApiKeyCredentialRecord | undefined> {
    const row = await this.db<ApiKeyRow>('api_keys')
      .where({ lookup_id: lookupId })
      .first();
    return row && { apiKey: toApiKey(row), secretHash: row.secret_hash };
  }

  async get(organizationId: string, id: string): Promise<ApiKey | undefined> {
    const row = await this.db<ApiKeyRow>('api_keys')
      .where({ organization_id: organizationId, id })
      .first();
    return row && toApiKey(row);
  }

  async list(
    organizationId: string,
    filter: { ownerType?: OwnerType; ownerId?: string },
    page: KeysetRequest,
  ): Promise<KeysetPage<ApiKey>> {
    const query = this.db<ApiKeyRow>('api_keys').where({
      organization_id: organizationId,
    });
    if (filter.ownerType && filter.ownerId) {
      query.where({ owner_type: filter.ownerType, owner_id: filter.ownerId });
    }
    return keysetPage(query, 'id', page, toApiKey);
  }

  /**
   * Records a use, at most once per `minimumInterval` per key: a write per request would
   * serialise every request of a busy key on one row.
   */
  async touchLastUsed(
    id: string,
    now: Date,
    minimumIntervalMs: number,
  ): Promise<void> {
    const threshold = new Date(now.getTime() - minimumIntervalMs).toISOString();
    await this.db('api_keys')
      .where({ id })
      .where(q =>
        q.whereNull('last_used_at').orWhere('last_used_at', '<', threshold),
      )
      .update({ last_used_at: now.toISOString() });
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await changingAccess(this.db, db =>
      db('api_keys').where({ organization_id: organizationId, id }).delete(),
    );
    return deleted === 1;
  }

  /** How many keys `ownerId` has besides `exceptId`. */
  async countForOwner(
    organizationId: string,
    ownerType: OwnerType,
    ownerId: string,
    exceptId?: string,
  ): Promise<number> {
    const query = this.db('api_keys').where({
      organization_id: organizationId,
      owner_type: ownerType,
      owner_id: ownerId,
    });
    if (exceptId) {
      query.whereNot({ id: exceptId });
    }
    const [{ count }] = await query.count({ count: '*' });
    return Number(count);
  }

  async deleteForOwner(
    organizationId: string,
    ownerType: OwnerType,
    ownerId: string,
  ): Promise<void> {
    await changingAccess(this.db, db =>
      db('api_keys')
        .where({
          organization_id: organizationId,
          owner_type: ownerType,
          owner_id: ownerId,
        })
        .delete(),
    );
  }
}
