import {
  Runner,
  StepLease,
} from '@infra-delivery/plugin-infra-delivery-common';
import { randomUUID } from 'node:crypto';
import { Stores } from '../database/stores';

/** Each instance says it is alive this often. */
export const SERVICE_ALIVE_INTERVAL_MS = 5_000;
/** An instance's timer can run late by this much on a loaded machine before it counts as gone. */
const ALIVE_LATENESS_MS = 1_000;
/** Instances last alive longer ago are forgotten: the chain reaches no further back. */
const INSTANCE_RETENTION_MS = 3_600_000;

/**
 * Since when the service has been reachable without a break, given its instances' rows: the
 * earliest start that a chain of instances, each alive until the next one started, reaches back
 * to from the instances alive now. An instance counts as alive until one alive interval (and a
 * little lateness) after it last said so. Behind several instances, one restarted while another
 * stayed up did not stop the service: runners could still be heard.
 */
export function serviceReachableSince(
  instances: Array<{ reachableSince: string; aliveAt: string }>,
  now: number,
  aliveIntervalMs: number = SERVICE_ALIVE_INTERVAL_MS,
): number | undefined {
  const spans = instances.map(instance => ({
    from: Date.parse(instance.reachableSince),
    until: Date.parse(instance.aliveAt) + aliveIntervalMs + ALIVE_LATENESS_MS,
  }));
  let since: number | undefined;
  for (const span of spans) {
    if (span.until >= now && (since === undefined || span.from < since)) {
      since = span.from;
    }
  }
  if (since === undefined) {
    return undefined;
  }
  for (let reached = true; reached; ) {
    reached = false;
    for (const span of spans) {
      if (span.from < since && span.until >= since) {
        since = span.from;
        reached = true;
      }
    }
  }
  return since;
}

/**
 * Since when the service could hear runners, for everything that judges a runner by how long it
 * has not been heard from (the run page, the Runners card, a run's wait for a free runner). A
 * runner cannot be heard while every instance is down or frozen: after a restart, its silence
 * counts from the service's return. Before, the run page read "Local runner has not been heard
 * from for 15s" for up to a heartbeat interval after the backend came back (0.4–5 s measured),
 * and the Runners card "Silent". Each instance writes its row every few seconds
 * (`service_instances`) and reads the others' with it, so that an instance started a minute ago
 * beside one that stayed up for hours does not take the service for restarted.
 */
export class ServiceReachability {
  readonly instanceId = randomUUID();
  private since?: number;
  /** This instance's own reachability when `since` was read. */
  private readSinceOwn?: number;
  /** When this instance began to answer (`watch`): runners could not reach it before. */
  private startedAt: number;

  constructor(
    private readonly deps: {
      stores: Stores;
      /** Since when this instance ran without a break: its start, or the end of its latest pause. */
      instanceReachableSince: () => number;
      now?: () => number;
      aliveIntervalMs?: number;
    },
  ) {
    this.startedAt = this.now();
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /**
   * Says this instance is alive and reads since when the service has been reachable. Run at
   * start and every alive interval (`watch`).
   */
  async recordAlive(): Promise<void> {
    const now = this.now();
    const ownSince = this.ownReachableSince();
    await this.deps.stores.serviceInstances.recordAlive({
      instanceId: this.instanceId,
      reachableSince: new Date(ownSince).toISOString(),
      aliveAt: new Date(now).toISOString(),
    });
    const instances = await this.deps.stores.serviceInstances.aliveSince(
      new Date(now - INSTANCE_RETENTION_MS).toISOString(),
    );
    this.readSinceOwn = ownSince;
    this.since =
      serviceReachableSince(
        instances,
        now,
        this.deps.aliveIntervalMs ?? SERVICE_ALIVE_INTERVAL_MS,
      ) ?? ownSince;
  }

  /** Forgets instances gone for longer than the chain looks back. */
  async forgetGoneInstances(): Promise<number> {
    return this.deps.stores.serviceInstances.deleteAliveBefore(
      new Date(this.now() - INSTANCE_RETENTION_MS).toISOString(),
    );
  }

  private ownReachableSince(): number {
    return Math.max(this.deps.instanceReachableSince(), this.startedAt);
  }

  /**
   * From when the backend answers (its start-up hook: plugins initialise for seconds before it
   * listens), records at once, then every alive interval until the returned function is called.
   */
  async watch(): Promise<() => void> {
    this.startedAt = this.now();
    await this.recordAlive();
    const timer = setInterval(
      () => this.recordAlive().catch(() => undefined),
      this.deps.aliveIntervalMs ?? SERVICE_ALIVE_INTERVAL_MS,
    );
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /**
   * Since when the service has been reachable (ms). Before the first record, this instance's
   * start; after a pause of this instance noticed since the last record, the pause's end until
   * the next record tells whether another instance stayed reachable meanwhile.
   */
  reachableSince(): number {
    const own = this.ownReachableSince();
    if (this.since === undefined) {
      return own;
    }
    return own !== this.readSinceOwn ? Math.max(own, this.since) : this.since;
  }

  /** `lease`, with `serviceReachableSince` where its runner was last heard from before it. */
  lease<T extends StepLease | undefined>(lease: T): T {
    if (!lease) {
      return lease;
    }
    const since = this.reachableSince();
    const heard = Math.max(
      Date.parse(lease.renewedAt),
      Date.parse(lease.lastHeardAt ?? '') || 0,
    );
    return heard < since
      ? { ...lease, serviceReachableSince: new Date(since).toISOString() }
      : lease;
  }

  /** `runner`, with `serviceReachableSince` where it was last seen before it, and its lease's. */
  runner(runner: Runner): Runner {
    const since = this.reachableSince();
    return {
      ...runner,
      ...(Date.parse(runner.lastSeenAt) < since
        ? { serviceReachableSince: new Date(since).toISOString() }
        : {}),
      ...(runner.currentStepLease
        ? { currentStepLease: this.lease(runner.currentStepLease) }
        : {}),
    };
  }
}
