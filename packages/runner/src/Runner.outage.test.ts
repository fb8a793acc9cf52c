import { mockServices } from '@backstage/backend-test-utils';
import fs from 'node:fs';
import path from 'node:path';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { Runner } from './Runner';
import { RunnerOptions } from './options';
import {
  clientFor,
  FAKE_IAC,
  freshDatabase,
  organizationWithStack,
  PLAN_FIXTURES,
  runnerDirectories,
  startStoppableService,
} from './__testUtils__/serviceWorld';

jest.setTimeout(90_000);

/** A lease of 3 s: the runner sends a heartbeat a second; the service expires leases every 5 s. */
const LEASE_SECONDS = 3;
const leaseConfig = mockServices.rootConfig.factory({
  data: { infraDelivery: { engine: { leaseSeconds: LEASE_SECONDS } } },
});

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/**
 * A runner's client with `key`, to the service at `target.url`; while `target.down`, no request
 * reaches it (the portal stopped, or the network between them gone).
 */
function switchableClient(key: string) {
  const target = { url: '', down: false };
  const client = new InfraDeliveryClient({
    baseUrl: async () => target.url,
    fetch: (input, init) =>
      target.down
        ? Promise.reject(new TypeError('fetch failed'))
        : fetch(input, {
            ...init,
            headers: { ...init?.headers, authorization: `Bearer ${key}` },
          }),
  });
  return { client, target };
}

describe('the reference runner cut off from the service for longer than the lease', () => {
  let directories: { workRoot: string; sourceRoot: string };

  beforeEach(() => {
    process.env.FAKE_IAC_PLAN = path.join(
      PLAN_FIXTURES,
      'terraform-compliance__test_issue_522.plan.json',
    );
    directories = runnerDirectories('outage');
    process.env.FAKE_IAC_CALLS = path.join(
      directories.workRoot,
      'fake-iac.calls',
    );
  });

  afterEach(() => {
    delete process.env.FAKE_IAC_APPLY_SLEEP_MS;
    delete process.env.FAKE_IAC_CALLS;
  });

  function runnerWith(client: InfraDeliveryClient, logs: string[]) {
    const options: RunnerOptions = {
      url: 'http://portal.example.com/api/infra-delivery',
      token: 'unused: the client sends the key',
      runnerId: 'outage-runner',
      iacBinary: FAKE_IAC,
      ...directories,
      checkout: true,
      pollIntervalMs: 10,
      waitSeconds: 0,
      once: true,
      labels: [],
      hostname: 'outage-host',
    };
    return new Runner(options, client, m => logs.push(m));
  }

  /** A run of the stack's change pipeline: plan, approval, apply. */
  async function triggered(
    world: Awaited<ReturnType<typeof organizationWithStack>>,
  ) {
    const run = await world.owner.call('triggerPipelineRun', {
      params: { id: world.stack.changePipelineId },
      body: { data: {} },
    });
    return run.data.id;
  }

  /** The tool's calls of `command` in every step so far. */
  function callsOf(command: string) {
    const calls = process.env.FAKE_IAC_CALLS!;
    if (!fs.existsSync(calls)) return [];
    return fs
      .readFileSync(calls, 'utf8')
      .split('\n')
      .filter(call => call.startsWith(command));
  }

  it('takes the heartbeat and the report of an apply when the portal is back after a restart longer than the lease', async () => {
    const knex = await freshDatabase();
    const first = await startStoppableService({
      knex,
      features: [leaseConfig],
    });
    const world = await organizationWithStack(first.baseUrl);
    const { client, target } = switchableClient(world.runnerKey);
    target.url = first.baseUrl;
    const logs: string[] = [];
    const runner = runnerWith(client, logs);
    const runId = await triggered(world);
    await runner.run();
    await world.owner.call('approvePipelineRun', {
      params: { id: runId },
      body: { data: {} },
    });

    process.env.FAKE_IAC_APPLY_SLEEP_MS = '7000';
    const applying = runner.run();
    await sleep(1000);
    // The portal goes down for longer than the lease, and comes back on the same database.
    target.down = true;
    await first.stop();
    await sleep((LEASE_SECONDS + 1) * 1000);
    const second = await startStoppableService({
      knex,
      features: [leaseConfig],
    });
    target.url = second.baseUrl;
    target.down = false;
    await applying;

    // The owner’s client knew the first instance: the runner's key reads the run.
    const steps = (
      await clientFor(second.baseUrl, world.runnerKey).call(
        'listStepExecutions',
        { params: { id: runId } },
      )
    ).data;
    expect(steps.map(s => [s.type, s.status, s.attemptEpoch])).toEqual([
      ['iac.plan', 'SUCCEEDED', 1],
      ['approval', 'SUCCEEDED', 1],
      ['iac.apply', 'SUCCEEDED', 1],
    ]);
    expect(callsOf('apply')).toHaveLength(1);
    expect(logs).toContainEqual(
      expect.stringMatching(/^Renewed the lease on step \S+ again$/),
    );
    expect(logs).toContain(`Step ${steps[2].id} SUCCEEDED`);
    await second.stop();
  });

  it('reports an apply that its first attempt made, when the step had gone to a new attempt, instead of applying again', async () => {
    // The service's scheduled tasks run when the test says (the engine's tick expires leases).
    const scheduler = mockServices.scheduler();
    const service = await startStoppableService({
      features: [
        leaseConfig,
        (
          scheduler as unknown as {
            factory: typeof mockServices.scheduler.factory;
          }
        ).factory({ skipTaskRunOnStartup: true }),
      ],
    });
    const world = await organizationWithStack(service.baseUrl);
    const { client, target } = switchableClient(world.runnerKey);
    target.url = service.baseUrl;
    const logs: string[] = [];
    const runner = runnerWith(client, logs);
    const runId = await triggered(world);
    await runner.run();
    await world.owner.call('approvePipelineRun', {
      params: { id: runId },
      body: { data: {} },
    });

    // The network between the runner and the portal goes while the apply runs, for longer than
    // the lease: the service's tick gives the step to a new attempt.
    process.env.FAKE_IAC_APPLY_SLEEP_MS = '3000';
    const applying = runner.run();
    while (callsOf('apply').length === 0) await sleep(20);
    target.down = true;
    await sleep((LEASE_SECONDS + 1.5) * 1000);
    await scheduler.triggerTask('infra-delivery-engine-tick');
    target.down = false;
    await applying;
    let steps = (
      await world.owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect([steps[2].status, steps[2].attemptEpoch]).toEqual(['QUEUED', 2]);
    expect(logs).toContainEqual(
      expect.stringMatching(
        /^Step \S+ SUCCEEDED here \(fake-iac apply ran to its end\), but the service refused its report \(This lease is not the step’s current lease\)/,
      ),
    );

    // The same runner claims the new attempt: it reports what the first one did.
    await runner.run();
    steps = (
      await world.owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect(steps.map(s => [s.type, s.status, s.attemptEpoch])).toEqual([
      ['iac.plan', 'SUCCEEDED', 1],
      ['approval', 'SUCCEEDED', 1],
      ['iac.apply', 'SUCCEEDED', 2],
    ]);
    expect(callsOf('apply')).toHaveLength(1);
    const stepLogs = (
      await world.owner.call('listStepExecutionLogs', {
        params: { id: steps[2].id },
      })
    ).data.map(line => line.text);
    expect(stepLogs).toContainEqual(
      expect.stringMatching(
        /^Attempt 1 of this step ran on this runner \(outage-runner\), and fake-iac apply ended successfully at \S+, but the service did not take its report .*Reporting that outcome for attempt 2 instead of applying again\.$/,
      ),
    );
    await service.stop();
  });

  it('applies nothing once it learns, back from an outage longer than the lease, that the step went to a new attempt', async () => {
    const scheduler = mockServices.scheduler();
    const service = await startStoppableService({
      features: [
        leaseConfig,
        (
          scheduler as unknown as {
            factory: typeof mockServices.scheduler.factory;
          }
        ).factory({ skipTaskRunOnStartup: true }),
      ],
    });
    const world = await organizationWithStack(service.baseUrl);
    const { client, target } = switchableClient(world.runnerKey);
    target.url = service.baseUrl;
    const logs: string[] = [];
    const runner = runnerWith(client, logs);
    const runId = await triggered(world);
    await runner.run();
    await world.owner.call('approvePipelineRun', {
      params: { id: runId },
      body: { data: {} },
    });

    // The network goes while the apply step plans; the step goes to a new attempt meanwhile.
    process.env.FAKE_IAC_SLEEP_MS = '2000';
    const planning = runner.run();
    while (callsOf('plan').length < 2) await sleep(20);
    target.down = true;
    await sleep((LEASE_SECONDS + 1.5) * 1000);
    await scheduler.triggerTask('infra-delivery-engine-tick');
    target.down = false;
    await planning;
    delete process.env.FAKE_IAC_SLEEP_MS;

    expect(callsOf('apply')).toEqual([]);
    expect(logs).toContainEqual(
      expect.stringMatching(
        /^The lease on step \S+ is gone \(This lease is not the step’s current lease\); stopping$/,
      ),
    );
    let steps = (
      await world.owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect([steps[2].status, steps[2].attemptEpoch]).toEqual(['QUEUED', 2]);

    // Its next attempt plans and applies as usual, once, and says nothing of the first.
    await runner.run();
    steps = (
      await world.owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect([steps[2].status, steps[2].attemptEpoch]).toEqual(['SUCCEEDED', 2]);
    expect(callsOf('apply')).toHaveLength(1);
    expect(
      logs.filter(line => line.startsWith('Attempt 1 of this step')),
    ).toEqual([]);
    await service.stop();
  });
});
