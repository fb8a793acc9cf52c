import { AddressInfo } from 'node:net';
import {
  errorBodySchema,
  Runner,
  RunnerClaim,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  claim,
  createRunner,
  createStack,
  getRun,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe.each(databases.eachSupportedId())(
  'claims held while there is no work, on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    /** A claim sent with fetch, so that the test can go away while the service holds it. */
    function sendClaim(
      key: string,
      data: Record<string, unknown>,
      signal?: AbortSignal,
    ): Promise<Response> {
      const { port } = api.server.address() as AddressInfo;
      return fetch(
        `http://127.0.0.1:${port}/api/infra-delivery/runner/claims`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ data }),
          signal,
        },
      );
    }

    async function runnersOf(token: string): Promise<Runner[]> {
      const response = await api.get('/runners', token);
      expect(response.status).toBe(200);
      return response.body.data;
    }

    /** Waits until the runner's first look found no work: its claim is held from then on. */
    async function untilHeld(token: string, runnerId: string) {
      for (let i = 0; i < 200; i++) {
        const runners = await runnersOf(token);
        if (runners.some(runner => runner.runnerId === runnerId)) {
          return;
        }
        await sleep(25);
      }
      throw new Error(`${runnerId} never asked for work`);
    }

    it('answers a held claim with the step queued while it waits', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);

      const held = sendClaim(runner.key, {
        runnerId: 'held-runner',
        waitSeconds: 30,
      });
      await untilHeld(owner.token, 'held-runner');
      const run = await trigger(api, owner, stack.changePipelineId);

      const response = await held;
      expect(response.status).toBe(200);
      const claimed: RunnerClaim = (await response.json()).data;
      expect(claimed.pipelineRun.id).toBe(run.id);
      expect(claimed.stepExecution.status).toBe('RUNNING');
      const [listed] = await runnersOf(owner.token);
      expect(listed).toMatchObject({
        runnerId: 'held-runner',
        status: 'ONLINE',
        currentStepExecutionId: claimed.stepExecution.id,
      });
    });

    it('answers 204 when the wait ends without work, the runner listed as asking', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      const response = await sendClaim(runner.key, {
        runnerId: 'patient-runner',
        waitSeconds: 1,
        pollIntervalMs: 200,
      });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      const [listed] = await runnersOf(owner.token);
      expect(listed).toMatchObject({
        runnerId: 'patient-runner',
        status: 'ONLINE',
        pollIntervalMs: 200,
      });
      expect(listed.currentStepExecutionId).toBeFalsy();
    });

    it('claims nothing for a runner that went away while its claim was held', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);

      const leaving = new AbortController();
      const held = sendClaim(
        runner.key,
        { runnerId: 'leaving-runner', waitSeconds: 30 },
        leaving.signal,
      ).catch(error => error);
      await untilHeld(owner.token, 'leaving-runner');
      leaving.abort();
      expect(await held).toMatchObject({ name: 'AbortError' });
      // Let the service see the connection close before a step is queued.
      await sleep(200);

      const run = await trigger(api, owner, stack.changePipelineId);
      await sleep(500);
      expect((await getRun(api, owner, run.id)).queueState).toMatchObject({
        waitingForRunner: false,
      });
      const [plan] = (
        await api.get(`/pipeline-runs/${run.id}/step-executions`, owner.token)
      ).body.data;
      expect(plan.status).toBe('QUEUED');

      // The step waits for the next runner that asks.
      const next = await claim(api, runner.key, 'next-runner');
      expect(next.stepExecution.id).toBe(plan.id);
    });

    it('validates waitSeconds (400)', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (const waitSeconds of [-1, 1.5, 61, '5']) {
        const response = await api.post(
          '/runner/claims',
          { data: { runnerId: 'runner-1', waitSeconds } },
          runner.key,
        );
        expect(response.status).toBe(400);
        const body = errorBodySchema.parse(response.body);
        expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        expect(JSON.stringify(body.details)).toContain('waitSeconds');
      }
    });
  },
);
