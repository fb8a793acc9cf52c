import { Knex } from 'knex';
import { toTimestamp } from './timestamps';

/** A backend instance: since when it was reachable without a break, and when it was last alive. */
export interface ServiceInstance {
  instanceId: string;
  reachableSince: string;
  aliveAt: string;
}

interface ServiceInstanceRow {
  instance_id: string;
  reachable_since: Date | string;
  alive_at: Date | string;
}

/**
 * The backend instances sharing this database (migration `20261206R0000_service_instances`):
 * each says every few seconds that it is alive, and since when it was reachable without a
 * break, so that every instance can tell since when the service as a whole has been.
 */
export class ServiceInstanceStore {
  constructor(private readonly db: Knex) {}

  /** Writes this instance's row: alive at `aliveAt`, reachable without a break since `reachableSince`. */
  async recordAlive(instance: ServiceInstance): Promise<void> {
    await this.db('service_instances')
      .insert({
        instance_id: instance.instanceId,
        reachable_since: instance.reachableSince,
        alive_at: instance.aliveAt,
      })
      .onConflict('instance_id')
      .merge(['reachable_since', 'alive_at']);
  }

  /** The instances alive at or after `since`, newest start first. */
  async aliveSince(since: string): Promise<ServiceInstance[]> {
    const rows: ServiceInstanceRow[] = await this.db('service_instances')
      .where('alive_at', '>=', since)
      .orderBy('reachable_since', 'desc')
      .select('instance_id', 'reachable_since', 'alive_at');
    return rows.map(row => ({
      instanceId: row.instance_id,
      reachableSince: toTimestamp(row.reachable_since),
      aliveAt: toTimestamp(row.alive_at),
    }));
  }

  /** Forgets the instances last alive before `before`; returns how many. */
  deleteAliveBefore(before: string): Promise<number> {
    return this.db('service_instances').where('alive_at', '<', before).delete();
  }
}
