import { ConfigReader } from '@backstage/config';
import { mockServices } from '@backstage/backend-test-utils';
import { ScmIntegrations } from '@backstage/integration';
import { randomUUID } from 'node:crypto';
import { createStores } from '../database/stores';
import { FakeGithub } from '../__testUtils__/fakeGithub';
import {
  followedRepository,
  followingStack,
  gitSha,
  processedDelivery,
  pushPayload,
  runsOfStack,
  sendDelivery,
} from '../__testUtils__/gitTriggerFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';
import { GithubAppInstallations } from '../providers/github/GithubAppInstallations';
import {
  MAX_DELIVERY_ATTEMPTS,
  MAX_REDELIVERIES_PER_ROUND,
  MissedWebhookDeliveries,
} from './MissedWebhookDeliveries';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'webhook deliveries the portal missed, on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    let github: FakeGithub;
    let owner: TestOrganization;
    let missed: MissedWebhookDeliveries;
    let missedAtMost: (maxPerRound: number) => MissedWebhookDeliveries;

    beforeAll(async () => {
      github = await FakeGithub.start();
      const knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex, { config: github.config() });
      owner = await api.signup();
      github.deliverTo = async delivery =>
        (await sendDelivery(api, delivery, github.webhookPath)).status;
      missedAtMost = maxPerRound =>
        new MissedWebhookDeliveries({
          stores: createStores(knex),
          githubApps: new GithubAppInstallations(
            ScmIntegrations.fromConfig(new ConfigReader(github.config())),
            mockServices.urlReader.mock(),
          ),
          maxPerRound,
        });
      missed = missedAtMost(MAX_REDELIVERIES_PER_ROUND);
    });

    afterAll(async () => {
      await github.close();
    });

    function pushDelivery(
      repository: ReturnType<typeof followedRepository>,
      label: string,
      after = `${repository.name}-main`,
    ) {
      return github.delivery(
        'push',
        pushPayload(repository, {
          before: gitSha(after),
          after: gitSha(label),
          files: ['infra/network/main.tf'],
        }),
        { deliveryId: randomUUID() },
      );
    }

    it('asks again for the pushes the portal missed, and only for them: each starts its run once', async () => {
      const repository = followedRepository(github, `missed-${databaseId}`);
      const { stack } = await followingStack(api, owner, repository);

      // The portal was restarting: GitHub got a 503 and keeps the push in its log only.
      const whileDown = pushDelivery(repository, 'while-down');
      github.logHookAttempt(whileDown, 503);
      // The next push: nobody answered at all (the connection was refused).
      const unanswered = pushDelivery(repository, 'unanswered', 'while-down');
      github.logHookAttempt(unanswered, 0);
      // Refused for a reason a redelivery does not change: not asked for again.
      const refused = pushDelivery(repository, 'bad-signature');
      github.logHookAttempt(refused, 401);
      // Failed as often as it may: left to a person.
      const exhausted = pushDelivery(repository, 'exhausted');
      for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) {
        github.logHookAttempt(exhausted, 502, { redelivery: i > 0 });
      }
      // Older than a day.
      const old = pushDelivery(repository, 'old');
      github.logHookAttempt(old, 503, {
        deliveredAt: new Date(Date.now() - 25 * 60 * 60 * 1000),
      });
      // Recorded by the service although GitHub saw it fail (answered after a timeout).
      const recordedLate = pushDelivery(
        followedRepository(github, `recorded-${databaseId}`),
        'recorded-late',
      );
      expect(
        (await sendDelivery(api, recordedLate, github.webhookPath)).status,
      ).toBe(202);
      github.logHookAttempt(recordedLate, 0);
      // 150 deliveries that arrived, newer than all of them: the missed ones are on page 2.
      for (let i = 0; i < 150; i++) {
        github.logHookAttempt(
          {
            body: '{}',
            headers: {
              'x-github-delivery': randomUUID(),
              'x-github-event': 'ping',
            },
          },
          202,
        );
      }
      const runsBefore = await runsOfStack(api, owner, stack.id);

      const [round] = await missed.redeliverMissed();
      expect(round.error).toBeUndefined();
      expect(new Set(round.redelivered)).toEqual(
        new Set([
          whileDown.headers['x-github-delivery'],
          unanswered.headers['x-github-delivery'],
        ]),
      );
      expect(round.gaveUp).toEqual([exhausted.headers['x-github-delivery']]);
      expect(
        github.requestsTo(/\/app\/hook\/deliveries\/\d+\/attempts$/),
      ).toHaveLength(2);

      // Asked for in the order GitHub first tried them: each push starts its run.
      for (const delivery of [whileDown, unanswered]) {
        const processed = await processedDelivery(
          api,
          owner,
          delivery.headers['x-github-delivery'],
        );
        expect(processed.outcome).toBe('STARTED_RUNS');
      }
      const runs = await runsOfStack(api, owner, stack.id);
      expect(
        runs
          .filter(run => !runsBefore.some(before => before.id === run.id))
          .map(run => run.gitSource?.commit.sha)
          .sort(),
      ).toEqual([gitSha('unanswered'), gitSha('while-down')].sort());

      // The next round finds them recorded: nothing is asked for twice.
      const [again] = await missed.redeliverMissed();
      expect(again.redelivered).toEqual([]);
      expect(
        github.requestsTo(/\/app\/hook\/deliveries\/\d+\/attempts$/),
      ).toHaveLength(2);
    });

    it('does not ask again for a delivery first tried before the lookback: its earlier attempts count', async () => {
      const repository = followedRepository(github, `stale-${databaseId}`);
      const hour = 60 * 60 * 1000;
      // Failed as often as it may, but its first attempt is older than a day: only the last
      // MAX_DELIVERY_ATTEMPTS - 1 attempts fall within the lookback.
      const stale = pushDelivery(repository, 'stale-exhausted');
      github.logHookAttempt(stale, 503, {
        deliveredAt: new Date(Date.now() - 25 * hour),
      });
      for (let i = 1; i < MAX_DELIVERY_ATTEMPTS; i++) {
        github.logHookAttempt(stale, 503, {
          redelivery: true,
          deliveredAt: new Date(Date.now() - 23 * hour),
        });
      }
      const asked = github.requestsTo(
        /\/app\/hook\/deliveries\/\d+\/attempts$/,
      ).length;

      const [round] = await missed.redeliverMissed();
      expect(round.error).toBeUndefined();
      expect(round.redelivered).not.toContain(
        stale.headers['x-github-delivery'],
      );
      expect(
        github.requestsTo(/\/app\/hook\/deliveries\/\d+\/attempts$/),
      ).toHaveLength(asked);
    });

    it('asks again in the order GitHub first tried the deliveries, not by their latest attempts', async () => {
      const repository = followedRepository(github, `order-${databaseId}`);
      const hour = 60 * 60 * 1000;
      const first = pushDelivery(repository, 'first');
      github.logHookAttempt(first, 503, {
        deliveredAt: new Date(Date.now() - 3 * hour),
      });
      // GitHub's times are to the second: the third push was first tried in the same one.
      const sameSecond = new Date(
        Math.floor((Date.now() - 2 * hour) / 1000) * 1000,
      );
      const second = pushDelivery(repository, 'second', 'first');
      github.logHookAttempt(second, 503, { deliveredAt: sameSecond });
      const third = pushDelivery(repository, 'third', 'second');
      github.logHookAttempt(third, 503, { deliveredAt: sameSecond });
      // The first push was redelivered since (by a person), and failed again.
      github.logHookAttempt(first, 503, {
        redelivery: true,
        deliveredAt: new Date(Date.now() - hour),
      });

      const [round] = await missed.redeliverMissed();
      expect(round.error).toBeUndefined();
      expect(round.redelivered).toEqual([
        first.headers['x-github-delivery'],
        second.headers['x-github-delivery'],
        third.headers['x-github-delivery'],
      ]);
    });

    it('asks for at most maxPerRound deliveries a round, oldest first, and the rest in the next', async () => {
      const repository = followedRepository(github, `many-${databaseId}`);
      const deliveries = ['one', 'two', 'three'].map(label => {
        const delivery = pushDelivery(repository, label);
        github.logHookAttempt(delivery, 503);
        return delivery.headers['x-github-delivery'];
      });
      const capped = missedAtMost(2);

      const [first] = await capped.redeliverMissed();
      expect(first.redelivered).toEqual(deliveries.slice(0, 2));
      expect(first.deferred).toEqual(deliveries.slice(2));
      const [second] = await capped.redeliverMissed();
      expect(second.redelivered).toEqual(deliveries.slice(2));
      expect(second.deferred).toEqual([]);
    });

    it('says GitHub could not be asked, and throws nothing, while GitHub is down', async () => {
      github.outage = { status: 503 };
      try {
        const [round] = await missed.redeliverMissed();
        expect(round.error).toMatch(/answered 503/);
        expect(round.redelivered).toEqual([]);
      } finally {
        github.outage = undefined;
      }
    });
  },
);
