import { mockServices } from '@backstage/backend-test-utils';
import path from 'node:path';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { Runner } from './Runner';
import { RunnerOptions } from './options';
import {
  clientFor,
  connectedLine,
  droppingClient,
  FAKE_IAC,
  organizationWithStack,
  PLAN_FIXTURES,
  runnerDirectories,
  startService,
} from './__testUtils__/serviceWorld';

jest.setTimeout(60_000);

/** A lease of 3 s: the runner sends a heartbeat every second. */
const LEASE_SECONDS = 3;

describe('the reference runner when the service does not answer or refuses it', () => {
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await startService({
      features: [
        mockServices.rootConfig.factory({
          data: { infraDelivery: { engine: { leaseSeconds: LEASE_SECONDS } } },
        }),
      ],
    });
  });

  beforeEach(() => {
    process.env.FAKE_IAC_PLAN = path.join(
      PLAN_FIXTURES,
      'terraform-compliance__test_issue_522.plan.json',
    );
    delete process.env.FAKE_IAC_FAIL;
  });

  afterEach(() => {
    delete process.env.FAKE_IAC_SLEEP_MS;
  });

  function runnerWith(client: InfraDeliveryClient, logs: string[]) {
    const options: RunnerOptions = {
      url: baseUrl,
      token: 'unused: the client sends the key',
      runnerId: 'lease-runner',
      iacBinary: FAKE_IAC,
      ...runnerDirectories('lease'),
      checkout: true,
      pollIntervalMs: 10,
      waitSeconds: 0,
      once: true,
      labels: [],
      hostname: 'lease-host',
    };
    return new Runner(options, client, m => logs.push(m));
  }

  async function triggeredPlan() {
    const world = await organizationWithStack(baseUrl);
    const run = await world.owner.call('triggerPipelineRun', {
      params: { id: world.stack.changePipelineId },
      body: { data: {} },
    });
    return { ...world, runId: run.data.id };
  }

  it('stops the step once the service refuses its key, instead of planning on for nothing', async () => {
    const { owner, runnerKey, runnerKeyId, runId } = await triggeredPlan();
    process.env.FAKE_IAC_SLEEP_MS = '30000';
    const logs: string[] = [];
    const started = Date.now();
    const running = runnerWith(clientFor(baseUrl, runnerKey), logs).run();
    // An admin revokes the runner's key while it plans.
    await new Promise(resolve => setTimeout(resolve, 500));
    await owner.call('revokeApiKey', { params: { id: runnerKeyId } });
    await running;

    expect(Date.now() - started).toBeLessThan(15_000);
    // The log shipper may hear of the refusal first; the heartbeat stops the command.
    expect(logs[0]).toEqual(connectedLine('lease-runner'));
    expect(logs[1]).toMatch(/^Executing iac\.plan "Plan" of run /);
    expect(logs).toContainEqual(
      expect.stringMatching(
        /^The service refused this runner's key \(401: .+\); stopping step .+, whose report it would refuse too$/,
      ),
    );
    expect(logs[logs.length - 1]).toMatch(/^Abandoned step /);
    // Nothing was reported: the revocation queued the step again at once, for the next runner.
    const steps = await owner.call('listStepExecutions', {
      params: { id: runId },
    });
    expect(steps.data[0]).toMatchObject({ status: 'QUEUED', attemptEpoch: 2 });
    expect(steps.data[0]).not.toHaveProperty('lease');
  });

  it('reports the outcome again until the service answers, so that a portal restarting loses no step', async () => {
    const { owner, runnerKey, runId } = await triggeredPlan();
    const { client, dropped } = droppingClient(
      baseUrl,
      runnerKey,
      '/complete',
      2,
    );
    const logs: string[] = [];
    await runnerWith(client, logs).run();

    expect(dropped.count).toBe(2);
    expect(logs).toEqual([
      connectedLine('lease-runner'),
      expect.stringMatching(/^Executing iac\.plan/),
      expect.stringMatching(
        /^Cannot report step .+ \(fetch failed\); trying again in <1s, until the service answers \(its lease ran until \d{4}-.+Z; the service keeps the step for this runner until it hands it to another attempt\)$/,
      ),
      expect.stringMatching(/^Step .+ SUCCEEDED$/),
    ]);
    const run = await owner.call('getPipelineRun', { params: { id: runId } });
    expect(run.data.status).toBe('WAITING_FOR_APPROVAL');
    const logLines = await owner.call('listStepExecutionLogs', {
      params: {
        id: (
          await owner.call('listStepExecutions', { params: { id: runId } })
        ).data[0].id,
      },
      query: {},
    });
    expect(logLines.data.map(line => line.text)).toContain(
      'Plan: 5 to add, 1 to change, 2 to destroy.',
    );
  });

  it('says once that it cannot renew the lease, and when it renews it again', async () => {
    const { owner, runnerKey, runId } = await triggeredPlan();
    process.env.FAKE_IAC_SLEEP_MS = '4000';
    // The first heartbeat does not reach the service; the ones after it do.
    const { client, dropped } = droppingClient(
      baseUrl,
      runnerKey,
      '/heartbeat',
      1,
    );
    const logs: string[] = [];
    await runnerWith(client, logs).run();

    expect(dropped.count).toBe(1);
    expect(logs).toEqual([
      connectedLine('lease-runner'),
      expect.stringMatching(/^Executing iac\.plan/),
      expect.stringMatching(
        /^Cannot renew the lease on step .+ \(fetch failed\); unless the service hears from this runner by \d{4}-\d\d-\d\dT.+Z, it hands the step to another runner$/,
      ),
      expect.stringMatching(/^Renewed the lease on step .+ again$/),
      expect.stringMatching(/^Step .+ SUCCEEDED$/),
    ]);
    const run = await owner.call('getPipelineRun', { params: { id: runId } });
    expect(run.data.status).toBe('WAITING_FOR_APPROVAL');
  });
});
