import { LoggerService } from '@backstage/backend-plugin-api';
import { isError } from '@backstage/errors';
import { Stores } from '../database/stores';
import {
  AppHookDelivery,
  GithubAppInstallations,
  WebhookApp,
} from '../providers/github/GithubAppInstallations';

/** How far back deliveries are looked at; GitHub redelivers those of the last three days. */
export const REDELIVERY_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** Attempts of one delivery after which it is left to a person (GitHub's Redeliver button). */
export const MAX_DELIVERY_ATTEMPTS = 4;
/** GitHub lists 100 attempts a page; a round reads at most this many pages per App. */
const MAX_PAGES = 20;
/**
 * Redeliveries a round asks for per App; the rest wait for the next round (5 minutes on).
 * After a long outage hundreds of deliveries are missed: asked for at once they would run into
 * GitHub's secondary rate limits (a few hundred content-creating requests an hour) and arrive
 * at the portal together just as it came back.
 */
export const MAX_REDELIVERIES_PER_ROUND = 50;

/**
 * Answers that say "not now" (the service restarting, its database away, a proxy's timeout):
 * the same delivery later is taken. A 4xx (a wrong signature, an App this portal does not
 * know) would be refused again and is not asked for.
 */
function worthAnotherAttempt(statusCode: number): boolean {
  return (
    statusCode === 0 ||
    statusCode === 408 ||
    statusCode === 429 ||
    statusCode >= 500
  );
}

/** What one round did, per App, for the log and the tests. */
export interface RedeliveryRound {
  app: WebhookApp;
  redelivered: string[];
  gaveUp: string[];
  /** Missed deliveries beyond this round's MAX_REDELIVERIES_PER_ROUND, for the next round. */
  deferred: string[];
  error?: string;
}

/**
 * GitHub does not send a failed webhook delivery again by itself: a push while the portal
 * restarted, or while its database was away, would start no run and say nothing. Each round
 * reads the App's recent deliveries from GitHub (as the App, `GET /app/hook/deliveries`) and
 * asks again (`POST /app/hook/deliveries/{id}/attempts`) for each one whose every attempt
 * failed with a "not now" answer and that the service never recorded — at most
 * MAX_DELIVERY_ATTEMPTS attempts in all. Deliveries the service recorded are never asked for
 * again, and a redelivery that arrives twice is recorded once (by its delivery id).
 */
export class MissedWebhookDeliveries {
  constructor(
    private readonly deps: {
      stores: Stores;
      githubApps: GithubAppInstallations;
      logger?: LoggerService;
      now?: () => number;
      /** MAX_REDELIVERIES_PER_ROUND unless given. */
      maxPerRound?: number;
    },
  ) {}

  async redeliverMissed(): Promise<RedeliveryRound[]> {
    const rounds: RedeliveryRound[] = [];
    for (const app of this.deps.githubApps.webhookApps()) {
      rounds.push(await this.redeliverMissedOf(app));
    }
    return rounds;
  }

  private async redeliverMissedOf(app: WebhookApp): Promise<RedeliveryRound> {
    const round: RedeliveryRound = {
      app,
      redelivered: [],
      gaveUp: [],
      deferred: [],
    };
    const maxPerRound = this.deps.maxPerRound ?? MAX_REDELIVERIES_PER_ROUND;
    try {
      const attempts = await this.recentAttempts(app);
      // Oldest first, as GitHub first tried them: a push that a later one continues is
      // taken before it, as it would have been. By each delivery's first attempt (the last
      // listed), not its latest; GitHub's times are to the second, its ids increase.
      const firstTried = (tries: AppHookDelivery[]) => tries[tries.length - 1];
      const failedOnly = [...attempts.values()]
        .filter(
          tries => !tries.some(a => a.statusCode >= 200 && a.statusCode < 300),
        )
        .sort(
          (a, b) =>
            Date.parse(firstTried(a).deliveredAt) -
              Date.parse(firstTried(b).deliveredAt) ||
            Number(firstTried(a).id) - Number(firstTried(b).id),
        );
      const recorded = await this.deps.stores.webhookDeliveries.recordedGuids(
        failedOnly.map(tries => tries[0].guid),
      );
      for (const tries of failedOnly) {
        // Newest first, as GitHub lists them.
        const latest = tries[0];
        if (
          recorded.has(latest.guid) ||
          !worthAnotherAttempt(latest.statusCode)
        ) {
          continue;
        }
        if (tries.length >= MAX_DELIVERY_ATTEMPTS) {
          round.gaveUp.push(latest.guid);
          continue;
        }
        if (round.redelivered.length >= maxPerRound) {
          round.deferred.push(latest.guid);
          continue;
        }
        await this.deps.githubApps.redeliver(app, latest.id);
        round.redelivered.push(latest.guid);
        this.deps.logger?.info(
          `Asked ${app.host} to send webhook delivery ${latest.guid} (${
            latest.event
          }) again: attempt ${tries.length} was answered ${
            latest.statusCode || 'nothing'
          } at ${latest.deliveredAt}`,
        );
      }
      if (round.deferred.length > 0) {
        this.deps.logger?.info(
          `${round.deferred.length} more missed webhook deliveries of GitHub App ${app.appId} on ${app.host} are asked for in the next rounds (${maxPerRound} a round)`,
        );
      }
      if (round.gaveUp.length > 0) {
        this.deps.logger?.warn(
          `Webhook deliveries of GitHub App ${app.appId} on ${
            app.host
          } failed ${MAX_DELIVERY_ATTEMPTS} times and are not asked for again: ${round.gaveUp.join(
            ', ',
          )}; redeliver them from the App's Advanced settings once the portal takes them`,
        );
      }
    } catch (error) {
      round.error = isError(error) ? error.message : String(error);
      this.deps.logger?.warn(
        `Could not check the webhook deliveries of GitHub App ${app.appId} on ${app.host}: ${round.error}`,
      );
    }
    return round;
  }

  /**
   * The attempts of the App's deliveries first tried within the lookback period, by delivery
   * id, newest first. A delivery first tried earlier is left out: some of its attempts may lie
   * beyond the pages read, and counting only the recent ones would ask for it again after it
   * had failed MAX_DELIVERY_ATTEMPTS times (each attempt leaving the window freed one more).
   */
  private async recentAttempts(
    app: WebhookApp,
  ): Promise<Map<string, AppHookDelivery[]>> {
    const since = (this.deps.now?.() ?? Date.now()) - REDELIVERY_LOOKBACK_MS;
    const byGuid = new Map<string, AppHookDelivery[]>();
    let cursor: string | undefined = undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { deliveries, next } = await this.deps.githubApps.hookDeliveries(
        app,
        cursor,
      );
      let older = false;
      for (const delivery of deliveries) {
        if (Date.parse(delivery.deliveredAt) < since) {
          older = true;
        }
        const tries = byGuid.get(delivery.guid) ?? [];
        tries.push(delivery);
        byGuid.set(delivery.guid, tries);
      }
      if (older || !next) break;
      cursor = next;
    }
    // Every attempt of a delivery first tried within the window is newer than that first
    // attempt, so on the pages read.
    for (const [guid, tries] of byGuid) {
      const first = tries.find(attempt => !attempt.redelivery);
      if (!first || Date.parse(first.deliveredAt) < since) {
        byGuid.delete(guid);
      }
    }
    return byGuid;
  }
}
