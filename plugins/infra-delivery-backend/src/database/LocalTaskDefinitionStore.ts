import { Knex } from 'knex';

const TABLE = 'local_task_definition_families';

/** Where a task definition family is registered: ECS numbers revisions per account and region. */
export interface TaskDefinitionFamilyKey {
  accountCloudId: string;
  region: string;
  family: string;
}

/**
 * The local deployment driver's registry of task definition families: each registration takes
 * the family's next revision, one statement, so two registrations at once never share one.
 */
export class LocalTaskDefinitionStore {
  constructor(private readonly db: Knex) {}

  /** Registers one more revision of the family and returns its number (1 for a new family). */
  async register(key: TaskDefinitionFamilyKey): Promise<number> {
    const [row] = await this.db(TABLE)
      .insert({
        account_cloud_id: key.accountCloudId,
        region: key.region,
        family: key.family,
        latest_revision: 1,
      })
      .onConflict(['account_cloud_id', 'region', 'family'])
      .merge({
        latest_revision: this.db.raw('??.?? + 1', [TABLE, 'latest_revision']),
      })
      .returning('latest_revision');
    return Number(row.latest_revision);
  }
}
