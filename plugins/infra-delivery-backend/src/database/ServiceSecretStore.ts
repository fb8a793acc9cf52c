import { randomBytes } from 'node:crypto';
import { Knex } from 'knex';
import { isUniqueViolation } from './dbErrors';
import { nowTimestamp } from './timestamps';

/**
 * Signing keys generated once and shared by every backend instance through the database, so
 * that a token or cursor signed by one instance verifies on another.
 */
export class ServiceSecretStore {
  constructor(private readonly db: Knex) {}

  async getOrCreate(name: string): Promise<Buffer> {
    const existing = await this.db('service_secrets').where({ name }).first();
    if (existing) {
      return Buffer.from(existing.value, 'base64');
    }
    try {
      await this.db('service_secrets').insert({
        name,
        value: randomBytes(32).toString('base64'),
        created_at: nowTimestamp(),
      });
    } catch (error) {
      // Another instance created it first; use theirs.
      if (!isUniqueViolation(error)) {
        throw error;
      }
    }
    const row = await this.db('service_secrets').where({ name }).first();
    return Buffer.from(row.value, 'base64');
  }
}
