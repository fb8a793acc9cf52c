import { mockServices } from '@backstage/backend-test-utils';
import {
  DataPoint,
  Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import { CollectingReader } from '../__testUtils__/collectingReader';
import { Knex } from 'knex';
import { migratedStores, seedStacks } from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { createStores, Stores } from '../database/stores';
import { PipelineEngine, RUNNER_STEP_TYPES } from '../engine/PipelineEngine';
import { RunnerRegistry } from '../runners/RunnerRegistry';
import { DeliveryMetrics, QueueFigures } from './DeliveryMetrics';

jest.setTimeout(120_000);

type Attributes = Record<string, unknown>;

/** What one collection holds: each metric's points with their attributes. */
async function collect(reader: MetricReader) {
  const { resourceMetrics, errors } = await reader.collect();
  expect(errors).toEqual([]);
  const points = new Map<string, DataPoint<unknown>[]>();
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      points.set(metric.descriptor.name, metric.dataPoints);
    }
  }
  const matching = (name: string, attributes: Attributes) =>
    (points.get(name) ?? []).filter(point =>
      Object.entries(attributes).every(
        ([key, value]) => point.attributes[key] === value,
      ),
    );
  return {
    /** A counter's or a gauge's value for exactly these attributes; undefined when unseen. */
    value(name: string, attributes: Attributes = {}): number | undefined {
      const [point] = matching(name, attributes);
      return point?.value as number | undefined;
    },
    /** How many values a histogram recorded for these attributes, and their sum. */
    histogram(name: string, attributes: Attributes = {}) {
      const [point] = matching(name, attributes);
      const value = point?.value as Histogram | undefined;
      return { count: value?.count ?? 0, sum: value?.sum ?? 0 };
    },
    attributesOf(name: string): Attributes[] {
      return (points.get(name) ?? []).map(point => point.attributes);
    },
  };
}

function newMetrics() {
  const reader = new CollectingReader();
  const provider = new MeterProvider({ readers: [reader] });
  const metrics = new DeliveryMetrics(provider.getMeter('test'));
  return { reader, metrics };
}

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())('DeliveryMetrics on %s', id => {
  let knex: Knex;

  beforeAll(async () => {
    knex = await databases.init(id);
    await migratedStores(knex);
  });

  afterAll(async () => {
    await knex.destroy();
  });

  async function setup() {
    const { reader, metrics } = newMetrics();
    const stores: Stores = createStores(knex, { runEnds: metrics });
    const engine = new PipelineEngine({
      stores,
      logger: mockServices.logger.mock(),
      events: { runChanged: async () => {} },
      metrics,
    });
    const runners = new RunnerRegistry({
      stores,
      settings: { onlineSeconds: 60, retentionDays: 7 },
    });
    // The database is shared by the cases: each starts from its own counts.
    const before = await stores.pipelineRuns.countQueue(RUNNER_STEP_TYPES);
    const onlineBefore = await runners.countOnlineEverywhere();
    metrics.observeQueue(
      async () => {
        const queue = await stores.pipelineRuns.countQueue(RUNNER_STEP_TYPES);
        return {
          queuedRuns: queue.queuedRuns - before.queuedRuns,
          stepsWaitingForRunner: queue.queuedSteps - before.queuedSteps,
          onlineRunners: (await runners.countOnlineEverywhere()) - onlineBefore,
        };
      },
      { intervalMs: 0 },
    );
    const seed = await seedStacks(stores, 1, { autoApprove: true });
    const [stack] = seed.stacks;
    const version = await stores.pipelines.getVersion(
      seed.organizationId,
      stack.versionId,
    );
    const trigger = (steps = version!.steps) =>
      engine.start({
        organizationId: seed.organizationId,
        pipelineId: stack.pipelineId,
        pipelineVersionId: stack.versionId,
        projectId: seed.projectId,
        attachedEntityId: stack.stackId,
        attachedEntityType: 'STACK',
        steps,
      });
    return { reader, stores, engine, runners, seed, trigger };
  }

  it('counts triggered runs, the queue, a runner’s wait and claim, and how runs end', async () => {
    const { reader, engine, runners, seed, trigger } = await setup();
    const organizationId = seed.organizationId;

    let seen = await collect(reader);
    expect(seen.value('infra_delivery.queue.runs')).toBe(0);
    expect(seen.value('infra_delivery.queue.steps_waiting_for_runner')).toBe(0);
    expect(seen.value('infra_delivery.runners.online')).toBe(0);

    // The first run holds the stack and queues its plan for a runner; the second waits.
    await trigger();
    const second = await trigger();
    seen = await collect(reader);
    expect(
      seen.value('infra_delivery.runs.triggered', {
        'infra_delivery.run.kind': 'STANDARD',
      }),
    ).toBe(2);
    expect(seen.value('infra_delivery.queue.runs')).toBe(1);
    expect(seen.value('infra_delivery.queue.steps_waiting_for_runner')).toBe(1);

    // A runner comes online and claims the plan.
    await runners.recordClaim({
      organizationId,
      runnerId: 'runner-1',
      serviceAccountId: '0193a8c0-0000-7000-8000-0000000000aa',
      labels: [],
      currentStepExecutionId: null,
    });
    const claim = await engine.claim(organizationId, 'runner-1');
    expect(claim?.step.type).toBe('iac.plan');
    seen = await collect(reader);
    expect(seen.value('infra_delivery.runners.online')).toBe(1);
    expect(seen.value('infra_delivery.queue.steps_waiting_for_runner')).toBe(0);
    const waited = seen.histogram('infra_delivery.step.runner_wait.duration', {
      'infra_delivery.step.type': 'iac.plan',
    });
    expect(waited.count).toBe(1);
    expect(waited.sum).toBeGreaterThanOrEqual(0);
    expect(waited.sum).toBeLessThan(60);

    // The plan fails: the run ends FAILED and the stack's queued run is admitted.
    await engine.complete(organizationId, claim!.step.id, claim!.leaseToken, {
      status: 'FAILED',
    });
    seen = await collect(reader);
    expect(
      seen.histogram('infra_delivery.step.duration', {
        'infra_delivery.step.type': 'iac.plan',
        'infra_delivery.step.status': 'FAILED',
      }).count,
    ).toBe(1);
    expect(
      seen.value('infra_delivery.runs.finished', {
        'infra_delivery.run.status': 'FAILED',
      }),
    ).toBe(1);
    expect(seen.value('infra_delivery.queue.runs')).toBe(0);
    expect(seen.value('infra_delivery.queue.steps_waiting_for_runner')).toBe(1);

    await engine.cancel(second);
    seen = await collect(reader);
    expect(
      seen.value('infra_delivery.runs.finished', {
        'infra_delivery.run.status': 'CANCELLED',
      }),
    ).toBe(1);
    expect(seen.value('infra_delivery.queue.steps_waiting_for_runner')).toBe(0);
    // Bounded attributes only: never a run, stack or organization id.
    for (const name of [
      'infra_delivery.runs.triggered',
      'infra_delivery.runs.finished',
      'infra_delivery.step.runner_wait.duration',
      'infra_delivery.step.duration',
    ]) {
      for (const attributes of seen.attributesOf(name)) {
        expect(Object.values(attributes)).not.toContain(organizationId);
        expect(Object.values(attributes)).not.toContain(second.id);
      }
    }
  });

  it('counts a run that ends as it starts (no steps) as triggered and finished', async () => {
    const { reader, trigger } = await setup();
    expect((await trigger([])).status).toBe('SUCCEEDED');
    const seen = await collect(reader);
    expect(seen.value('infra_delivery.runs.triggered')).toBe(1);
    expect(
      seen.value('infra_delivery.runs.finished', {
        'infra_delivery.run.status': 'SUCCEEDED',
      }),
    ).toBe(1);
  });

  it('counts a run ended by a transaction only once it commits', async () => {
    const { reader, stores, trigger } = await setup();
    const run = await trigger();
    await expect(
      stores.transaction(async tx => {
        await tx.pipelineRuns.transitionRun(run.id, ['RUNNING'], {
          status: 'FAILED',
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const seen = await collect(reader);
    expect(seen.value('infra_delivery.runs.finished')).toBeUndefined();
  });
});

describe('DeliveryMetrics.observeQueue', () => {
  it('reads the queue at most once per interval, and again after a failed read', async () => {
    const { reader, metrics } = newMetrics();
    let now = 0;
    const reads: number[] = [];
    let fail = false;
    metrics.observeQueue(
      async (): Promise<QueueFigures> => {
        reads.push(now);
        if (fail) {
          throw new Error('database away');
        }
        return {
          queuedRuns: now + 1,
          stepsWaitingForRunner: 0,
          onlineRunners: 0,
        };
      },
      { intervalMs: 10_000, now: () => now },
    );
    const queuedRuns = async () =>
      (await collect(reader)).value('infra_delivery.queue.runs');

    expect(await queuedRuns()).toBe(1);
    now = 5_000;
    expect(await queuedRuns()).toBe(1);
    expect(reads).toEqual([0]);

    // A failed read observes nothing: the gauge keeps its last value, not a zero that would
    // say the queue emptied.
    now = 10_000;
    fail = true;
    expect(await queuedRuns()).toBe(1);
    now = 11_000;
    fail = false;
    expect(await queuedRuns()).toBe(11_001);
    expect(reads).toEqual([0, 10_000, 11_000]);
  });

  it('counts webhook deliveries by outcome and 503s for a lost database', async () => {
    const { reader, metrics } = newMetrics();
    metrics.webhookDelivery('accepted');
    metrics.webhookDelivery('accepted');
    metrics.webhookDelivery('rejected');
    metrics.databaseUnavailable();
    const seen = await collect(reader);
    expect(
      seen.value('infra_delivery.webhook.deliveries', {
        'infra_delivery.webhook.outcome': 'accepted',
      }),
    ).toBe(2);
    expect(
      seen.value('infra_delivery.webhook.deliveries', {
        'infra_delivery.webhook.outcome': 'rejected',
      }),
    ).toBe(1);
    expect(seen.value('infra_delivery.http.database_unavailable')).toBe(1);
  });
});
