import { Knex } from 'knex';
import { newId } from './ids';
import { nowTimestamp, optional } from './timestamps';

export interface UserRecord {
  id: string;
  email: string;
  passwordHash?: string;
  backstageUserRef?: string;
  fullName?: string;
  shortName?: string;
}

interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  backstage_user_ref: string | null;
  full_name: string | null;
  short_name: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    passwordHash: optional(row.password_hash),
    backstageUserRef: optional(row.backstage_user_ref),
    fullName: optional(row.full_name),
    shortName: optional(row.short_name),
  };
}

export class UserStore {
  constructor(private readonly db: Knex) {}

  async create(input: Omit<UserRecord, 'id'>): Promise<UserRecord> {
    const now = nowTimestamp();
    const row: UserRow = {
      id: newId(),
      email: input.email,
      password_hash: input.passwordHash ?? null,
      backstage_user_ref: input.backstageUserRef ?? null,
      full_name: input.fullName ?? null,
      short_name: input.shortName ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.db('users').insert(row);
    return toUser(row);
  }

  async get(id: string): Promise<UserRecord | undefined> {
    const row = await this.db<UserRow>('users').where({ id }).first();
    return row && toUser(row);
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db<UserRow>('users').where({ email }).first();
    return row && toUser(row);
  }

  async findByBackstageRef(ref: string): Promise<UserRecord | undefined> {
    const row = await this.db<UserRow>('users')
      .where({ backstage_user_ref: ref })
      .first();
    return row && toUser(row);
  }
}
