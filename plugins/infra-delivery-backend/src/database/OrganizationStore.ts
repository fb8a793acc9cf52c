import { Organization } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { nowTimestamp, toTimestamp } from './timestamps';

interface OrganizationRow {
  id: string;
  name: string;
  plan: string | null;
  is_portal: boolean | number;
  created_at: Date | string;
  updated_at: Date | string;
}

function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

export class OrganizationStore {
  constructor(private readonly db: Knex) {}

  async create(input: {
    name: string;
    plan?: string;
    isPortal?: boolean;
  }): Promise<Organization> {
    const now = nowTimestamp();
    const row: OrganizationRow = {
      id: newId(),
      name: input.name,
      plan: input.plan ?? null,
      is_portal: input.isPortal ?? false,
      created_at: now,
      updated_at: now,
    };
    await this.db('organizations').insert(row);
    return toOrganization(row);
  }

  async get(id: string): Promise<Organization | undefined> {
    const row = await this.db<OrganizationRow>('organizations')
      .where({ id })
      .first();
    return row && toOrganization(row);
  }

  /** The organization Backstage users belong to; the oldest wins if several were made. */
  async findPortal(): Promise<Organization | undefined> {
    const row = await this.db<OrganizationRow>('organizations')
      .where({ is_portal: true })
      .orderBy('id', 'asc')
      .first();
    return row && toOrganization(row);
  }

  async update(
    id: string,
    patch: { name?: string; plan?: string },
  ): Promise<Organization | undefined> {
    await this.db('organizations')
      .where({ id })
      .update({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.plan !== undefined ? { plan: patch.plan } : {}),
        updated_at: nowTimestamp(),
      });
    return this.get(id);
  }
}
