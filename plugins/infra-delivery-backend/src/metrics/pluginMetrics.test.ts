import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { CollectingReader } from '../__testUtils__/collectingReader';
import { randomUUID } from 'node:crypto';
import { FakeGithub } from '../__testUtils__/fakeGithub';
import {
  followedRepository,
  followingStack,
  gitSha,
  processedDelivery,
  pushPayload,
  sendDelivery,
} from '../__testUtils__/gitTriggerFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

/** Each series of `infra_delivery.webhook.deliveries` by outcome. */
async function deliveriesByOutcome(
  reader: MetricReader,
): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const seen: Record<string, number> = {};
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name === 'infra_delivery.webhook.deliveries') {
        for (const point of metric.dataPoints) {
          seen[String(point.attributes['infra_delivery.webhook.outcome'])] =
            point.value as number;
        }
      }
    }
  }
  return seen;
}

const databases = createTestDatabases();
const [[databaseId]] = databases.eachSupportedId();

describe('the plugin’s metrics through a registered OpenTelemetry SDK', () => {
  const reader = new CollectingReader();
  let api: InfraDeliveryTestClient;
  let github: FakeGithub;
  let owner: TestOrganization;

  beforeAll(async () => {
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    github = await FakeGithub.start();
    api = await startInfraDeliveryBackend(await databases.init(databaseId), {
      config: github.config(),
    });
    owner = await api.signup();
  });

  afterAll(async () => {
    await github.close();
    metrics.disable();
  });

  it('counts webhook deliveries the endpoint refused, accepted and processed', async () => {
    const repository = followedRepository(github, 'metrics');
    await followingStack(api, owner, repository);
    const payload = pushPayload(repository, {
      before: gitSha(`${repository.name}-main`),
      after: gitSha(`${repository.name}-next`),
      files: ['infra/network/main.tf'],
    });

    const forged = await sendDelivery(
      api,
      github.delivery('push', payload, {
        signature: `sha256=${'0'.repeat(64)}`,
      }),
      github.webhookPath,
    );
    expect(forged.status).toBe(401);
    const unknownApp = await sendDelivery(
      api,
      github.delivery('ping', {}),
      '/webhooks/github/ghe.example.test/999',
    );
    expect(unknownApp.status).toBe(404);

    const deliveryId = randomUUID();
    const delivery = github.delivery('push', payload, { deliveryId });
    expect((await sendDelivery(api, delivery, github.webhookPath)).status).toBe(
      202,
    );
    await processedDelivery(api, owner, deliveryId);
    // GitHub sends it again: recorded once.
    await sendDelivery(api, delivery, github.webhookPath);

    expect(await deliveriesByOutcome(reader)).toEqual({
      rejected: 2,
      accepted: 1,
      processed: 1,
      duplicate: 1,
    });
  });
});
