import path from 'node:path';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import { Runner } from './Runner';
import { RunnerOptions } from './options';
import {
  FAKE_IAC,
  organizationWithStack,
  PLAN_FIXTURES,
  runnerDirectories,
  startService,
} from './__testUtils__/serviceWorld';

jest.setTimeout(60_000);

/** What the client does with a request: sends it, or plays a fault. */
type Fault =
  /** Sent; its answer never comes back (a connection lost as the service answered). */
  | 'answer-lost'
  /** Never sent, never answered (a service frozen, a connection gone without a word). */
  | 'no-answer'
  /** Answered by a proxy in front of the service: too many requests. */
  | 'too-many-requests';

/**
 * A runner's client with `key` for which `faultOf` picks what happens to each request, by its
 * URL; `undefined` sends it. Whatever waits, waits until the request is aborted.
 */
function faultyClient(
  baseUrl: string,
  key: string,
  faultOf: (url: string) => Fault | undefined,
) {
  const send = (input: RequestInfo | URL, init?: RequestInit) =>
    fetch(input, {
      ...init,
      headers: { ...init?.headers, authorization: `Bearer ${key}` },
    });
  const untilAborted = (init?: RequestInit) =>
    new Promise<Response>((_, reject) =>
      init?.signal?.addEventListener('abort', () =>
        reject(init.signal!.reason),
      ),
    );
  return new InfraDeliveryClient({
    baseUrl: async () => baseUrl,
    fetch: async (input, init) => {
      switch (faultOf(String(input))) {
        case 'answer-lost':
          await send(input, init);
          return untilAborted(init);
        case 'no-answer':
          return untilAborted(init);
        case 'too-many-requests':
          return new Response(
            JSON.stringify({
              error: {
                code: 'Proxy:RATE_LIMITED',
                message: 'Too many requests',
              },
            }),
            { status: 429, headers: { 'content-type': 'application/json' } },
          );
        default:
          return send(input, init);
      }
    },
  });
}

/** `fault` for the first `times` requests whose URL ends with `suffix`. */
function firstOf(suffix: string, fault: Fault, times = 1) {
  let seen = 0;
  return (url: string) =>
    url.endsWith(suffix) && seen++ < times ? fault : undefined;
}

describe('the reference runner when the service takes a request and does not answer', () => {
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await startService();
  });

  beforeEach(() => {
    process.env.FAKE_IAC_PLAN = path.join(
      PLAN_FIXTURES,
      'terraform-compliance__test_issue_522.plan.json',
    );
  });

  function runnerWith(client: InfraDeliveryClient, logs: string[]) {
    const options: RunnerOptions = {
      url: baseUrl,
      token: 'unused: the client sends the key',
      runnerId: 'no-answer-runner',
      iacBinary: FAKE_IAC,
      ...runnerDirectories('no-answer'),
      checkout: true,
      pollIntervalMs: 10,
      waitSeconds: 0,
      once: true,
      labels: [],
      hostname: 'no-answer-host',
      requestTimeoutMs: 500,
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

  it('reports once: a report whose answer was lost is found taken when it is sent again', async () => {
    const { owner, runnerKey, runId } = await triggeredPlan();
    const logs: string[] = [];
    await runnerWith(
      faultyClient(baseUrl, runnerKey, firstOf('/complete', 'answer-lost')),
      logs,
    ).run();

    const run = await owner.call('getPipelineRun', { params: { id: runId } });
    expect(run.data.status).toBe('WAITING_FOR_APPROVAL');
    const [plan] = (
      await owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect([plan.status, plan.attemptEpoch]).toEqual(['SUCCEEDED', 1]);
    expect(logs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          `^Cannot report step ${plan.id} \\(no answer within <1s\\); trying again in <1s, until the service answers \\(its lease ran until \\S+; the service keeps the step for this runner until it hands it to another attempt\\)$`,
        ),
        `The service had taken the report of step ${plan.id}; its answer was lost`,
        `Step ${plan.id} SUCCEEDED`,
      ]),
    );
    expect(logs.join('\n')).not.toMatch(/could not be reported/);
  });

  it('does not wait for good on batches of logs that are never answered, and reports once the lines are in, in order', async () => {
    const { owner, runnerKey, runId } = await triggeredPlan();
    const logs: string[] = [];
    // No batch of logs is answered for 3 s; the plan is done well before.
    const until = Date.now() + 3000;
    await runnerWith(
      faultyClient(baseUrl, runnerKey, url =>
        url.endsWith('/logs') && Date.now() < until ? 'no-answer' : undefined,
      ),
      logs,
    ).run();

    const [plan] = (
      await owner.call('listStepExecutions', { params: { id: runId } })
    ).data;
    expect(plan.status).toBe('SUCCEEDED');
    const lines = (
      await owner.call('listStepExecutionLogs', { params: { id: plan.id } })
    ).data.map(line => line.text);
    expect(lines).toEqual(
      expect.arrayContaining([
        'Initializing the backend...',
        'Plan: 5 to add, 1 to change, 2 to destroy.',
      ]),
    );
    expect(lines.indexOf('Initializing the backend...')).toBeLessThan(
      lines.indexOf('Plan: 5 to add, 1 to change, 2 to destroy.'),
    );
    expect(logs).toContain(
      "Cannot send the step's logs (no answer within <1s); keeping them to send again",
    );
  });

  it('asks again after a 429 to its claim, instead of stopping as for a refused key', async () => {
    const { owner, runnerKey, runId } = await triggeredPlan();
    const logs: string[] = [];
    await runnerWith(
      faultyClient(
        baseUrl,
        runnerKey,
        firstOf('/runner/claims', 'too-many-requests', 2),
      ),
      logs,
    ).run();

    const run = await owner.call('getPipelineRun', { params: { id: runId } });
    expect(run.data.status).toBe('WAITING_FOR_APPROVAL');
    expect(logs[0]).toMatch(
      /^Cannot reach \S+ \(The service answered 429 ?\); trying again in \d+ s/,
    );
  });
});
