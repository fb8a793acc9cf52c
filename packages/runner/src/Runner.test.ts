import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HEARTBEAT_INTERVAL_MS } from './LeaseKeeper';
import { Runner, RUNNER_VERSION } from './Runner';
import { RunnerOptions } from './options';
import {
  clientFor,
  connectedLine,
  droppingClient,
  startService,
  FAKE_IAC,
  organizationWithStack,
  PLAN_FIXTURES,
  runnerDirectories,
} from './__testUtils__/serviceWorld';

jest.setTimeout(60_000);

const FIXTURE = path.join(
  PLAN_FIXTURES,
  'terraform-compliance__test_issue_522.plan.json',
);

describe('the reference runner against the service', () => {
  let baseUrl: string;
  let workRoot: string;
  let sourceRoot: string;

  beforeAll(async () => {
    baseUrl = await startService();
  });

  beforeEach(() => {
    ({ workRoot, sourceRoot } = runnerDirectories('runner'));
    process.env.FAKE_IAC_PLAN = FIXTURE;
    delete process.env.FAKE_IAC_FAIL;
    delete process.env.FAKE_IAC_LOCKED;
  });

  function runnerWith(
    key: string,
    logs: string[] = [],
    client = clientFor(baseUrl, key),
    overrides: Partial<RunnerOptions> = {},
  ) {
    const options: RunnerOptions = {
      url: baseUrl,
      token: key,
      runnerId: 'test-runner',
      iacBinary: FAKE_IAC,
      workRoot,
      sourceRoot,
      checkout: true,
      pollIntervalMs: 10,
      waitSeconds: 0,
      once: true,
      labels: ['linux', 'test'],
      hostname: 'build-host.example.com',
      ...overrides,
    };
    return new Runner(options, client, m => logs.push(m));
  }

  it('plans, waits for the approval, applies, and the run succeeds with its summaries', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const triggered = await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: { input: { region: 'eu-west-1' } } },
    });
    const runId = triggered.data.id;

    await runnerWith(runnerKey).run();
    let run = await owner.call('getPipelineRun', { params: { id: runId } });
    expect(run.data.status).toBe('WAITING_FOR_APPROVAL');

    const summaries = await owner.call('listIacExecutionSummaries', {
      query: { pipelineRunId: runId },
    });
    expect(summaries.data).toEqual([
      expect.objectContaining({
        runType: 'PLAN',
        addCount: 5,
        changeCount: 1,
        destroyCount: 2,
        applyable: true,
      }),
    ]);

    const workDir = path.join(workRoot, stack.id);
    expect(fs.readFileSync(path.join(workDir, 'main.tf'), 'utf8')).toBe(
      '# network\n',
    );
    expect(
      JSON.parse(
        fs.readFileSync(
          path.join(workDir, 'infra-delivery.auto.tfvars.json'),
          'utf8',
        ),
      ),
    ).toEqual({ region: 'eu-west-1' });

    await owner.call('approvePipelineRun', {
      params: { id: runId },
      body: { data: {} },
    });
    await runnerWith(runnerKey).run();

    run = await owner.call('getPipelineRun', { params: { id: runId } });
    expect(run.data.status).toBe('SUCCEEDED');
    const steps = await owner.call('listStepExecutions', {
      params: { id: runId },
    });
    expect(steps.data.map(s => s.status)).toEqual([
      'SUCCEEDED',
      'SUCCEEDED',
      'SUCCEEDED',
    ]);
    const logs = await owner.call('listStepExecutionLogs', {
      params: { id: steps.data[0].id },
    });
    // First, at once: the portal tells by it that the runner got its claim.
    expect(logs.data[0].text).toBe(
      'test-runner on build-host.example.com took this step (attempt 1)',
    );
    expect(logs.data.map(l => l.text)).toContain(
      'Plan: 5 to add, 1 to change, 2 to destroy.',
    );
    // The apply planned again, and applied because its plan is the one approved.
    const applyLogs = await owner.call('listStepExecutionLogs', {
      params: { id: steps.data[2].id },
    });
    expect(applyLogs.data.map(l => l.text)).toContain(
      'The plan matches the approved plan of step "Plan" (8 changes)',
    );

    const applied = await owner.call('getStack', { params: { id: stack.id } });
    expect(applied.data.output).toEqual({
      url: 'https://app.example.com',
      db_password: '(sensitive value)',
    });
    expect(applied.data.firstAppliedAt).toEqual(expect.any(String));
    const counts = await owner.call('countStackResources', {
      query: { stackId: [stack.id] },
    });
    expect(counts.data.counts).toEqual([{ stackId: stack.id, count: 13 }]);
    expect(
      fs.readFileSync(path.join(workDir, 'fake-iac.calls'), 'utf8').split('\n'),
    ).toEqual(
      expect.arrayContaining([
        'apply -input=false -no-color infra-delivery.tfplan',
        'output -json',
      ]),
    );
  });

  it('refuses to apply a plan that changed since it was approved, and says how', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const runId = (
      await owner.call('triggerPipelineRun', {
        params: { id: stack.changePipelineId },
        body: { data: {} },
      })
    ).data.id;
    await runnerWith(runnerKey).run();
    await owner.call('approvePipelineRun', {
      params: { id: runId },
      body: { data: {} },
    });

    // Between the approval and the apply, the code (or the state) changed.
    process.env.FAKE_IAC_PLAN = path.join(
      PLAN_FIXTURES,
      'terraform-json__basic.plan.json',
    );
    await runnerWith(runnerKey).run();

    const run = await owner.call('getPipelineRun', { params: { id: runId } });
    expect(run.data.status).toBe('FAILED');
    const steps = await owner.call('listStepExecutions', {
      params: { id: runId },
    });
    const apply = steps.data[2];
    expect(apply.status).toBe('FAILED');
    expect(apply.error).toMatchObject({
      code: 'InfraDelivery:Runner:PLAN_CHANGED',
      message: expect.stringMatching(
        /^The plan changed since it was approved \(.+ approved, .+ now, and \d+ more\): nothing was applied\. Start a new run to plan and review the changes$/,
      ),
    });
    const logs = (
      await owner.call('listStepExecutionLogs', { params: { id: apply.id } })
    ).data.map(l => l.text);
    expect(logs).toContainEqual(
      expect.stringMatching(
        /^The plan differs from the approved plan of step "Plan" in \d+ resources:$/,
      ),
    );
    expect(logs).toContainEqual(
      expect.stringMatching(/^ {2}\S+: create approved, no change now$/),
    );
    // The apply step planned and showed its plan, and never applied it. (The working directory
    // keeps only the tool's own files between steps, so the calls are the apply step's.)
    const calls = fs
      .readFileSync(path.join(workRoot, stack.id, 'fake-iac.calls'), 'utf8')
      .split('\n');
    expect(calls.filter(call => call.startsWith('apply'))).toEqual([]);
    expect(calls.filter(call => call.startsWith('plan'))).toHaveLength(1);
  });

  it('reports a failing command as a failed step with an ErrorBody', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const triggered = await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: {} },
    });
    process.env.FAKE_IAC_FAIL = 'plan';
    await runnerWith(runnerKey).run();
    const run = await owner.call('getPipelineRun', {
      params: { id: triggered.data.id },
    });
    expect(run.data.status).toBe('FAILED');
    expect(run.data.error).toMatchObject({
      code: 'InfraDelivery:Runner:COMMAND_FAILED',
      // The tool's own headline says why, past the warning printed before it.
      message: 'fake-iac plan exited with 1: plan failed as the test asked',
      metadata: { command: 'fake-iac plan', exitCode: 1 },
    });
  });

  it('reports a state lock held by another command with who holds it, its ID and the command that releases it', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const triggered = await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: {} },
    });
    process.env.FAKE_IAC_LOCKED = 'plan';
    await runnerWith(runnerKey).run();
    const run = await owner.call('getPipelineRun', {
      params: { id: triggered.data.id },
    });
    expect(run.data.status).toBe('FAILED');
    const lockId = 'ef259369-e5d4-5445-55d1-924a1035636a';
    expect(run.data.error).toEqual({
      code: 'InfraDelivery:Runner:STATE_LOCKED',
      message: `fake-iac plan could not lock the stack's state: it is locked by root@vm since 2026-12-01 08:21:37 UTC for an apply (lock ID ${lockId})`,
      description: expect.stringContaining(
        `If nothing holds it any more, release it from a checkout of the stack with its backend configured: fake-iac force-unlock -force ${lockId} — then run again.`,
      ),
      action: {
        label: 'How fake-iac force-unlock releases a lock',
        url: 'https://developer.hashicorp.com/terraform/cli/commands/force-unlock',
      },
      details: [
        {
          title: 'Lock Info',
          render: 'list',
          items: [
            `ID: ${lockId}`,
            'Path: terraform.tfstate',
            'Operation: OperationTypeApply',
            'Who: root@vm',
            'Version: 1.11.4',
            'Created: 2026-12-01 08:21:37.507827864 +0000 UTC',
            'Error message: resource temporarily unavailable',
          ],
        },
      ],
      metadata: {
        command: 'fake-iac plan',
        exitCode: 1,
        lockId,
        unlockCommand: `fake-iac force-unlock -force ${lockId}`,
        lockWho: 'root@vm',
      },
    });
  });

  it('does nothing when there is no work, and the portal lists it with what it says of itself', async () => {
    const { owner, runnerKey } = await organizationWithStack(baseUrl);
    const logs: string[] = [];
    await runnerWith(runnerKey, logs).run();
    // It says which organization it serves: a key of another one's is otherwise silent.
    expect(logs).toEqual([connectedLine('test-runner')]);
    // Done (--once), it said it stops: offline at once, not a minute later.
    const runners = await owner.call('listRunners', { query: {} });
    expect(runners.data).toEqual([
      expect.objectContaining({
        runnerId: 'test-runner',
        labels: ['linux', 'test'],
        hostname: 'build-host.example.com',
        version: RUNNER_VERSION,
        // Its --poll-interval: how long the service waits before calling it silent.
        pollIntervalMs: 10,
        status: 'OFFLINE',
        signedOffAt: expect.any(String),
      }),
    ]);
    expect(RUNNER_VERSION).toMatch(/^\d+\.\d+\.\d+/);

    // Started again, it is online from its first claim.
    await clientFor(baseUrl, runnerKey).call('claimStepExecution', {
      body: { data: { runnerId: 'test-runner' } },
    });
    const [again] = (await owner.call('listRunners', { query: {} })).data;
    expect(again.status).toBe('ONLINE');
    expect(again).not.toHaveProperty('signedOffAt');
  });

  it('claims on a Node without AbortSignal.any (18.16 and earlier)', async () => {
    const { runnerKey } = await organizationWithStack(baseUrl);
    const native = (AbortSignal as { any?: unknown }).any;
    delete (AbortSignal as { any?: unknown }).any;
    try {
      const logs: string[] = [];
      // Without its own: "Cannot reach … (AbortSignal.any is not a function)", again for good.
      await runnerWith(runnerKey, logs).run();
      expect(logs).toEqual([connectedLine('test-runner')]);
    } finally {
      (AbortSignal as { any?: unknown }).any = native;
    }
  });

  it('says with its claims how often it will renew the lease of a step it gets', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: { input: { region: 'eu-west-1' } } },
    });
    const client = clientFor(baseUrl, runnerKey);
    const call = client.call.bind(client);
    const claims: unknown[] = [];
    const leases: unknown[] = [];
    jest.spyOn(client, 'call').mockImplementation((async (
      operation: string,
      request: any,
      options: any,
    ) => {
      if (operation === 'claimStepExecution') {
        claims.push(request.body.data);
      }
      const answer: any = await (call as any)(operation, request, options);
      if (operation === 'claimStepExecution' && answer) {
        leases.push(answer.data.stepExecution.lease);
      }
      return answer;
    }) as any);
    await runnerWith(runnerKey, [], client).run();
    // Before its first heartbeat, the portal judges a runner killed right after its claim by
    // three of these (15 s), not by half the lease (30 s).
    expect(claims).toEqual([
      expect.objectContaining({ heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS }),
    ]);
    expect(leases).toEqual([
      expect.objectContaining({ heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS }),
    ]);
  });

  it('signs off when stopped', async () => {
    const { owner, runnerKey } = await organizationWithStack(baseUrl);
    const runner = runnerWith(runnerKey, [], clientFor(baseUrl, runnerKey), {
      once: false,
    });
    const running = runner.run();
    const listed = async () =>
      (await owner.call('listRunners', { query: {} })).data[0];
    while ((await listed())?.status !== 'ONLINE') {
      await new Promise(resolve => setTimeout(resolve, 20));
    }

    runner.stop();
    await running;

    expect(await listed()).toMatchObject({
      runnerId: 'test-runner',
      status: 'OFFLINE',
      signedOffAt: expect.any(String),
    });
  });

  it('is listed apart from another process started with the same runner id, and signs off alone', async () => {
    const { owner, runnerKey } = await organizationWithStack(baseUrl);
    const [first, second] = ['host-a', 'host-b'].map(hostname =>
      runnerWith(runnerKey, [], clientFor(baseUrl, runnerKey), {
        once: false,
        hostname,
      }),
    );
    expect(first.instanceId).not.toBe(second.instanceId);
    const running = [first.run(), second.run()];
    const listed = async () =>
      (await owner.call('listRunners', { query: {} })).data;
    while ((await listed()).filter(r => r.status === 'ONLINE').length < 2) {
      await new Promise(resolve => setTimeout(resolve, 20));
    }
    expect(
      (await listed())
        .map(r => [r.runnerId, r.instanceId, r.hostname])
        .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
    ).toEqual([
      ['test-runner', first.instanceId, 'host-a'],
      ['test-runner', second.instanceId, 'host-b'],
    ]);

    first.stop();
    await running[0];
    const byHost = Object.fromEntries(
      (await listed()).map(r => [r.hostname, r.status]),
    );
    expect(byHost).toEqual({ 'host-a': 'OFFLINE', 'host-b': 'ONLINE' });
    second.stop();
    await running[1];
  });

  it('is handed a step the moment it is queued, its claim held by the service meanwhile', async () => {
    const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
    const claims: number[] = [];
    const counting = clientFor(baseUrl, runnerKey, url => {
      if (url.endsWith('/runner/claims')) claims.push(Date.now());
      return false;
    });
    const logs: string[] = [];
    const runner = runnerWith(runnerKey, logs, counting, {
      once: false,
      waitSeconds: 30,
    });
    const running = runner.run();
    while (!logs.length) {
      await new Promise(resolve => setTimeout(resolve, 20));
    }
    expect(logs).toEqual([connectedLine('test-runner', 'held')]);
    // Connected, the runner's next claim is held: nothing is asked meanwhile.
    await new Promise(resolve => setTimeout(resolve, 500));
    expect(claims).toHaveLength(2);

    const triggered = await owner.call('triggerPipelineRun', {
      params: { id: stack.changePipelineId },
      body: { data: {} },
    });
    let run = triggered.data;
    while (run.status !== 'WAITING_FOR_APPROVAL') {
      await new Promise(resolve => setTimeout(resolve, 20));
      run = (await owner.call('getPipelineRun', { params: { id: run.id } }))
        .data;
    }
    // The held claim took the plan; the runner's next one is held in turn.
    while (claims.length < 3) {
      await new Promise(resolve => setTimeout(resolve, 20));
    }
    await new Promise(resolve => setTimeout(resolve, 500));
    expect(claims).toHaveLength(3);

    // Stopped while the service holds its claim, it leaves at once and signs off.
    runner.stop();
    await running;
    const [listed] = (await owner.call('listRunners', { query: {} })).data;
    expect(listed.status).toBe('OFFLINE');
  });

  it('waits out a service that cannot be reached, and goes on once it answers', async () => {
    const { runnerKey } = await organizationWithStack(baseUrl);
    const { client: flaky, dropped } = droppingClient(
      baseUrl,
      runnerKey,
      '',
      2,
    );
    const logs: string[] = [];
    await runnerWith(runnerKey, logs, flaky).run();
    expect(dropped.count).toBe(2);
    expect(logs).toEqual([
      `Cannot reach ${baseUrl} (fetch failed); trying again in 0 s — check --url if the portal is up`,
      connectedLine('test-runner'),
    ]);
  });

  it('names the address and the cause while nothing answers at --url, and signs nothing off when stopped', async () => {
    // A port that nothing listens on: taken, then let go.
    const port = await new Promise<number>(resolve => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as net.AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const nowhere = `http://127.0.0.1:${port}/api/infra-delivery`;
    const logs: string[] = [];
    const runner = runnerWith('idk_unused', logs, clientFor(nowhere), {
      url: nowhere,
      once: false,
    });
    const running = runner.run();
    while (logs.length === 0) {
      await new Promise(resolve => setTimeout(resolve, 20));
    }
    runner.stop();
    await running;
    expect(logs).toEqual([
      expect.stringMatching(
        /^Cannot reach http:\/\/127\.0\.0\.1:\d+\/api\/infra-delivery \((TypeError: )?fetch failed: ECONNREFUSED\); trying again in 0 s — check --url if the portal is up$/,
      ),
    ]);
  });

  it('stops on a refused credential instead of retrying it', async () => {
    await expect(runnerWith('idk_not-a-key').run()).rejects.toMatchObject({
      status: 401,
    });
  });
});
