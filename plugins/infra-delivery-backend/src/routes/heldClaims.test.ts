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
  sendClaim as sendClaimTo,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';
import { useSettableDate } from '../__testUtils__/settableDate';

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

    const sendClaim = (
      key: string,
      data: Record<string, unknown>,
      signal?: AbortSignal,
    ) => sendClaimTo(api, key, data, signal);

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

    it('refuses a held claim whose key is revoked while it waits, and leaves its runner OFFLINE', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const held = sendClaim(runner.key, {
        runnerId: 'revoked-runner',
        waitSeconds: 30,
        pollIntervalMs: 100,
      });
      await untilHeld(owner.token, 'revoked-runner');
      expect(
        (await api.delete(`/api-keys/${runner.apiKeyId}`, owner.token)).status,
      ).toBe(204);

      // Its next look refuses it, as its next request would be: the runner stops and says why.
      const answer = await held;
      expect(answer.status).toBe(401);
      expect(errorBodySchema.parse(await answer.json()).code).toBe(
        'InfraDelivery:Auth:INVALID_API_KEY',
      );
      // Its looks wrote its sighting and read it ONLINE, "Idle", again; and a step queued now
      // is not handed to it.
      const run = await trigger(api, owner, stack.changePipelineId);
      await sleep(500);
      expect(
        (await runnersOf(owner.token)).find(
          r => r.runnerId === 'revoked-runner',
        ),
      ).toMatchObject({ status: 'OFFLINE', offlineCause: 'KEY_REVOKED' });
      expect((await getRun(api, owner, run.id)).queueState).toMatchObject({
        waitingForRunner: true,
      });
    });

    describe('a runner whose held claim loses its connection', () => {
      // Date moves only when the test moves it; the held claims' timers run for real.
      const clock = useSettableDate();

      /** A held claim of `runnerId`, gone before it is answered, as a killed runner's is. */
      async function dropClaim(key: string, owner: string, runnerId: string) {
        const killed = new AbortController();
        const held = sendClaim(
          key,
          { runnerId, waitSeconds: 30, pollIntervalMs: 2_000 },
          killed.signal,
        ).catch(error => error);
        await untilHeld(owner, runnerId);
        killed.abort();
        expect(await held).toMatchObject({ name: 'AbortError' });
        // Let the service see the connection close.
        await sleep(200);
      }

      it('says after a few seconds, not twenty, that it may have stopped', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        const runner = await createRunner(api, owner);
        await dropClaim(runner.key, owner.token, 'killed-runner');

        const run = await trigger(api, owner, stack.changePipelineId);
        expect(run.queueState?.reason).toBe(
          'Queued for a runner: the one connected runner is free and takes it next',
        );
        clock.advance(5_100);
        expect((await getRun(api, owner, run.id)).queueState).toMatchObject({
          waitingForRunner: false,
          runnersSilent: true,
          reason:
            'Queued for a runner: the one connected runner, killed-runner, is free but has not asked for work for 5s; it may have stopped (killed, or its host lost)',
        });

        // Back, it takes the step.
        const back = await claim(api, runner.key, 'killed-runner');
        expect(back.pipelineRun.id).toBe(run.id);
      });

      it('forgets the drop once the runner asks again, and while another free runner is there', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        const runner = await createRunner(api, owner);
        await dropClaim(runner.key, owner.token, 'blip-runner');
        // Its next claim, after a network blip.
        expect(
          (await sendClaim(runner.key, { runnerId: 'blip-runner' })).status,
        ).toBe(204);
        await dropClaim(runner.key, owner.token, 'lost-runner');
        expect(
          (await sendClaim(runner.key, { runnerId: 'steady-runner' })).status,
        ).toBe(204);

        const run = await trigger(api, owner, stack.changePipelineId);
        clock.advance(5_100);
        expect((await getRun(api, owner, run.id)).queueState).toMatchObject({
          waitingForRunner: false,
          reason:
            'Queued for a runner: 3 of 3 connected runners are free; the first to ask takes it',
        });
      });
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
