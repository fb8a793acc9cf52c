import { mockServices } from '@backstage/backend-test-utils';
import fs from 'node:fs';
import path from 'node:path';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { Runner } from './Runner';
import { RunnerOptions } from './options';
import {
  clientFor,
  FAKE_IAC,
  organizationWithStack,
  PLAN_FIXTURES,
  runnerDirectories,
  startService,
} from './__testUtils__/serviceWorld';

jest.setTimeout(60_000);

/**
 * A lease of 5 minutes: the runner's heartbeat comes every 100 s, after the test's timeout. What
 * stops a step here is not a heartbeat's answer.
 */
const LEASE_SECONDS = 300;

/** Whether a process runs (a zombie, exited but not reaped yet, does not). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(
      fs.readFileSync(`/proc/${pid}/stat`, 'utf8'),
    );
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

async function until<T>(check: () => Promise<T | undefined> | T | undefined) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('Timed out');
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

describe('the reference runner stopping a step whose command will not end', () => {
  let baseUrl: string;
  const children: number[] = [];

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
    process.env.FAKE_IAC_HANG = 'plan';
  });

  afterEach(() => {
    delete process.env.FAKE_IAC_HANG;
    delete process.env.FAKE_IAC_STUBBORN;
    for (const pid of children.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });

  function runnerWith(
    client: InfraDeliveryClient,
    logs: string[],
    once = false,
  ) {
    const options: RunnerOptions = {
      url: baseUrl,
      token: 'unused: the client sends the key',
      runnerId: 'stopping-runner',
      iacBinary: FAKE_IAC,
      ...runnerDirectories('stopping'),
      checkout: true,
      pollIntervalMs: 10,
      waitSeconds: 0,
      once,
      labels: [],
      hostname: 'stopping-host',
      stopGraceMs: 500,
    };
    return new Runner(options, client, m => logs.push(m));
  }

  /** A new organization with a stack, and a plan of it pressed. */
  async function planPressed() {
    const world = await organizationWithStack(baseUrl);
    const runId = (
      await world.owner.call('triggerPipelineRun', {
        params: { id: world.stack.changePipelineId },
        body: { data: {} },
      })
    ).data.id;
    return { world, runId };
  }

  /** A plan of a new organization's stack, and a runner named after `name` to execute it, once. */
  async function planWithOnceRunner(
    name: string,
    overrides: Partial<RunnerOptions>,
    logs: string[] = [],
  ) {
    const { world, runId } = await planPressed();
    const runner = new Runner(
      {
        url: baseUrl,
        token: 'unused',
        runnerId: `${name}-runner`,
        iacBinary: FAKE_IAC,
        ...runnerDirectories(name),
        checkout: true,
        pollIntervalMs: 10,
        waitSeconds: 0,
        once: true,
        labels: [],
        hostname: `${name}-host`,
        ...overrides,
      },
      clientFor(baseUrl, world.runnerKey),
      m => logs.push(m),
    );
    return { ...world, runId, runner };
  }

  /** A plan the runner executes; answers once its command runs, with its child's pid. */
  async function planRunning(logs: string[], once = false) {
    const { world, runId } = await planPressed();
    const runner = runnerWith(clientFor(baseUrl, world.runnerKey), logs, once);
    const running = runner.run();
    const stepLogs = async () => {
      const [step] = (
        await world.owner.call('listStepExecutions', { params: { id: runId } })
      ).data;
      if (!step || step.status !== 'RUNNING') return undefined;
      return (
        await world.owner.call('listStepExecutionLogs', {
          params: { id: step.id },
          query: {},
        })
      ).data.map(line => line.text);
    };
    const child = await until(async () => {
      const pid = (await stepLogs())
        ?.find(line => line.startsWith('child pid '))
        ?.slice('child pid '.length);
      return pid ? Number(pid) : undefined;
    });
    children.push(child);
    // It runs on: progress arrives.
    await until(async () =>
      (await stepLogs())?.some(line => line.startsWith('still creating')),
    );
    return { ...world, runId, runner, running, child, stepLogs };
  }

  it('stopped itself, lets the step go on; stopped again, interrupts the command, kills it when it will not stop, and reports the step', async () => {
    process.env.FAKE_IAC_STUBBORN = '1';
    const logs: string[] = [];
    const { owner, runId, runner, running, child, stepLogs } =
      await planRunning(logs);

    // Stopped once, it lets the step go on.
    runner.stop();
    expect(logs).toContainEqual(
      expect.stringMatching(
        /^Stopping once step .+ has ended \(stop the runner again to interrupt fake-iac\)$/,
      ),
    );
    const linesBefore = (await stepLogs())?.length ?? 0;
    await until(async () => ((await stepLogs())?.length ?? 0) > linesBefore);
    expect(alive(child)).toBe(true);

    // Stopped again, it interrupts the command.
    runner.stop();
    await running;

    expect(logs).toContainEqual(
      expect.stringMatching(
        /^Stopping: interrupting fake-iac of step .+ \(killed if it has not exited within .+; stop the runner again to kill it now\)$/,
      ),
    );
    const [step] = (
      await owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect(step.status).toBe('FAILED');
    expect(step.error).toMatchObject({
      message: 'fake-iac plan was stopped: the runner was stopped',
    });
    const stoppedLogs = (
      await owner.call('listStepExecutionLogs', {
        params: { id: step.id },
        query: {},
      })
    ).data.map(line => line.text);
    expect(stoppedLogs).toContain('Interrupt received.');
    await until(() => !alive(child));
    const [listed] = (await owner.call('listRunners', { query: {} })).data;
    expect(listed.status).toBe('OFFLINE');
  });

  it("stops a cancelled step at the answer to its logs, not a heartbeat later, and ends the step's log with what the tool said while it stopped and who cancelled it", async () => {
    const logs: string[] = [];
    const { owner, runId, running, child } = await planRunning(logs, true);

    await owner.call('cancelPipelineRun', {
      params: { id: runId },
      body: { data: {} },
    });
    // The next heartbeat is 100 s away: the answer to a batch of logs stops the command.
    await running;

    const [step] = (
      await owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect(step.status).toBe('CANCELLED');
    expect(logs).toEqual(
      expect.arrayContaining([
        `Run ${runId} was cancelled; stopping`,
        `Step ${step.id} was cancelled; what the tool printed while it stopped is in the step's log`,
      ]),
    );
    expect(logs.some(line => line.startsWith('The service refused'))).toBe(
      false,
    );
    const stepLog = (
      await owner.call('listStepExecutionLogs', {
        params: { id: step.id },
        query: {},
      })
    ).data.map(line => line.text);
    expect(stepLog.slice(-4)).toEqual([
      'Interrupt received.',
      'Stopping operation...',
      'Error: execution halted',
      expect.stringMatching(
        /^The run was cancelled by .+; runner .+ has stopped the step$/,
      ),
    ]);
    expect(stepLog).toContainEqual(
      expect.stringMatching(
        /^The run was cancelled by .+; runner .+ is stopping the step$/,
      ),
    );
    await until(() => !alive(child));
  });

  it('stops a step that runs past --step-timeout as a cancelled one, kills what will not stop, and fails it saying it timed out', async () => {
    process.env.FAKE_IAC_STUBBORN = '1';
    const logs: string[] = [];
    const { runner, runId, ...world } = await planWithOnceRunner(
      'timeout',
      { stopGraceMs: 500, stepTimeoutMs: 2000 },
      logs,
    );
    const started = Date.now();
    await runner.run();
    // The plan hangs for ever: the timeout ends it, 2 s and the grace after the step began.
    expect(Date.now() - started).toBeLessThan(15_000);

    const [step] = (
      await world.owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect(step.status).toBe('FAILED');
    expect(step.error).toEqual({
      code: 'InfraDelivery:Runner:STEP_TIMED_OUT',
      message:
        'The step timed out after 2s: fake-iac plan had not ended and was stopped',
      description: expect.stringContaining(
        'The runner stops a step that runs longer than its --step-timeout (2s on this runner)',
      ),
      metadata: { command: 'fake-iac plan', exitCode: 1, timeoutMinutes: 0.03 },
    });
    const run = (
      await world.owner.call('getPipelineRun', { params: { id: runId } })
    ).data;
    expect(run.status).toBe('FAILED');
    expect(run.error?.code).toBe('InfraDelivery:Runner:STEP_TIMED_OUT');
    const stepLog = (
      await world.owner.call('listStepExecutionLogs', {
        params: { id: step.id },
        query: {},
      })
    ).data.map(line => line.text);
    const child = Number(
      stepLog
        .find(line => line.startsWith('child pid '))
        ?.slice('child pid '.length),
    );
    children.push(child);
    // Interrupted as Ctrl-C does, then killed with what it started when it did not stop.
    expect(stepLog).toEqual(
      expect.arrayContaining([
        'The step has run for 2s (--step-timeout): interrupting fake-iac (killed if it has not exited within <1s)',
        'Interrupt received.',
      ]),
    );
    expect(stepLog.indexOf('Interrupt received.')).toBeGreaterThan(
      stepLog.findIndex(line => line.includes('--step-timeout')),
    );
    await until(() => !alive(child));
  });

  it("says in the step's log that a silent command still runs", async () => {
    delete process.env.FAKE_IAC_HANG;
    // The plan prints nothing for 3 s; the notice comes after each second of silence.
    process.env.FAKE_IAC_SLEEP_MS = '3000';
    const { runner, runId, ...world } = await planWithOnceRunner('silence', {
      silenceNoticeMs: 1000,
    });
    try {
      await runner.run();
    } finally {
      delete process.env.FAKE_IAC_SLEEP_MS;
    }
    const [step] = (
      await world.owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect(step.status).toBe('SUCCEEDED');
    const lines = (
      await world.owner.call('listStepExecutionLogs', {
        params: { id: step.id },
        query: {},
      })
    ).data.map(line => line.text);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^No output from fake-iac for \d+s \(still running, pid \d+\)$/,
      ),
    );
    // Said while the plan was silent, before what it printed at its end.
    expect(
      lines.findIndex(line => line.startsWith('No output from')),
    ).toBeLessThan(lines.indexOf('Plan: 5 to add, 1 to change, 2 to destroy.'));
  });
});
