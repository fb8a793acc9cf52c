import {
  DefaultValueDefinition,
  ValueSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import { newId } from './ids';
import { KeysetPage, keysetPage, KeysetRequest } from './keyset';
import { nowTimestamp, optional, toTimestamp } from './timestamps';

interface DefaultValueDefinitionRow {
  id: string;
  organization_id: string;
  given_id: string;
  name: string;
  description: string | null;
  schema: string;
  created_by_type: DefaultValueDefinition['createdByType'];
  created_at: string | Date;
  updated_at: string | Date;
}

function toDefinition(row: DefaultValueDefinitionRow): DefaultValueDefinition {
  return {
    id: row.id,
    organizationId: row.organization_id,
    givenId: row.given_id,
    name: row.name,
    description: optional(row.description),
    schema: JSON.parse(row.schema) as ValueSchema,
    createdByType: row.created_by_type,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  };
}

export class DefaultValueDefinitionStore {
  constructor(private readonly db: Knex) {}

  async create(input: {
    organizationId: string;
    givenId: string;
    name: string;
    description?: string;
    schema: ValueSchema;
    createdByType: DefaultValueDefinition['createdByType'];
  }): Promise<DefaultValueDefinition> {
    const now = nowTimestamp();
    const row: DefaultValueDefinitionRow = {
      id: newId(),
      organization_id: input.organizationId,
      given_id: input.givenId,
      name: input.name,
      description: input.description ?? null,
      schema: JSON.stringify(input.schema),
      created_by_type: input.createdByType,
      created_at: now,
      updated_at: now,
    };
    await this.db('default_value_definitions').insert(row);
    return toDefinition(row);
  }

  private byId(organizationId: string, id: string) {
    return this.db<DefaultValueDefinitionRow>(
      'default_value_definitions',
    ).where({ organization_id: organizationId, id });
  }

  async get(
    organizationId: string,
    id: string,
  ): Promise<DefaultValueDefinition | undefined> {
    const row = await this.byId(organizationId, id).first();
    return row && toDefinition(row);
  }

  /**
   * `get`, its row locked until the transaction ends (PostgreSQL; SQLite's transactions are
   * serial): a module version released meanwhile that names it waits for the lock, and one
   * released before is seen by the reads after it.
   */
  async getForDelete(
    organizationId: string,
    id: string,
  ): Promise<DefaultValueDefinition | undefined> {
    const row = await this.byId(organizationId, id).forUpdate().first();
    return row && toDefinition(row);
  }

  async list(
    organizationId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<DefaultValueDefinition>> {
    return keysetPage(
      this.db<DefaultValueDefinitionRow>('default_value_definitions').where({
        organization_id: organizationId,
      }),
      'id',
      page,
      toDefinition,
    );
  }

  async update(
    organizationId: string,
    id: string,
    patch: { name?: string; description?: string; schema?: ValueSchema },
  ): Promise<DefaultValueDefinition | undefined> {
    await this.db('default_value_definitions')
      .where({ organization_id: organizationId, id })
      .update({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined
          ? { description: patch.description }
          : {}),
        ...(patch.schema !== undefined
          ? { schema: JSON.stringify(patch.schema) }
          : {}),
        updated_at: nowTimestamp(),
      });
    return this.get(organizationId, id);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.db('default_value_definitions')
      .where({ organization_id: organizationId, id })
      .delete();
    return deleted === 1;
  }
}
