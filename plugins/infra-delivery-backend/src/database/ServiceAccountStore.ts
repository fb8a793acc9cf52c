import {
  Role,
  ServiceAccount,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { changingAccess } from './AccessEpochStore';
import { newId } from './ids';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

interface ServiceAccountRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  role: Role;
  created_by_id: string;
  created_at: string | Date;
  updated_at: string | Date;
}

function toServiceAccount(row: ServiceAccountRow): ServiceAccount {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    description: optional(row.description),
    role: row.role,
    createdById: row.created_by_id,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

export class ServiceAccountStore {
  constructor(private readonly db: Knex) {}

  async create(input: {
    organizationId: string;
    name: string;
    description?: string;
    role: Role;
    createdById: string;
  }): Promise<ServiceAccount> {
    const now = nowTimestamp();
    const row: ServiceAccountRow = {
      id: newId(),
      organization_id: input.organizationId,
      name: input.name,
      description: input.description ?? null,
      role: input.role,
      created_by_id: input.createdById,
      created_at: now,
      updated_at: now,
    };
    await this.db('service_accounts').insert(row);
    return toServiceAccount(row);
  }

  async get(
    organizationId: string,
    id: string,
  ): Promise<ServiceAccount | undefined> {
    const row = await this.db<ServiceAccountRow>('service_accounts')
      .where({ organization_id: organizationId, id })
      .first();
    return row && toServiceAccount(row);
  }

  async list(
    organizationId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<ServiceAccount>> {
    return keysetPage(
      this.db<ServiceAccountRow>('service_accounts').where({
        organization_id: organizationId,
      }),
      'id',
      page,
      toServiceAccount,
    );
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await changingAccess(this.db, db =>
      db('service_accounts')
        .where({ organization_id: organizationId, id })
        .delete(),
    );
    return deleted === 1;
  }
}
