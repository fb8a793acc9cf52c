import {
  idleRunnerSilenceMs,
  Runner,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  createRunner,
  createStack,
  getRun,
  sendClaim,
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

/**
 * A held claim that loses its connection (a runner killed while it waits for work) behind two
 * instances sharing one database, as replicas share PostgreSQL. The drop was kept in the memory
 * of the instance that held the claim: a run read through the other said "free and takes it
 * next" for fifteen seconds more, and the Runners card "Online" on both.
 */
describe.each(databases.eachSupportedId())(
  'a dropped held claim on every instance, on %s',
  databaseId => {
    let first: InfraDeliveryTestClient;
    let second: InfraDeliveryTestClient;
    // Date moves only when the test moves it; the held claims' timers run for real.
    const clock = useSettableDate();

    beforeAll(async () => {
      const knex = await databases.init(databaseId);
      first = await startInfraDeliveryBackend(knex);
      second = await startInfraDeliveryBackend(knex);
    });

    async function runnerOf(
      instance: InfraDeliveryTestClient,
      token: string,
      runnerId: string,
    ): Promise<Runner | undefined> {
      const response = await instance.get('/runners', token);
      expect(response.status).toBe(200);
      return (response.body.data as Runner[]).find(
        runner => runner.runnerId === runnerId,
      );
    }

    /** A held claim of `runnerId` on `instance`, gone before it is answered. */
    async function dropClaim(
      instance: InfraDeliveryTestClient,
      key: string,
      token: string,
      runnerId: string,
    ) {
      const killed = new AbortController();
      const held = sendClaim(
        instance,
        key,
        { runnerId, waitSeconds: 30, pollIntervalMs: 2_000 },
        killed.signal,
      ).catch(error => error);
      for (let i = 0; !(await runnerOf(instance, token, runnerId)); i++) {
        if (i > 200) throw new Error(`${runnerId} never asked for work`);
        await sleep(25);
      }
      // Listed already where it asked before: give the claim time to be held.
      await sleep(300);
      killed.abort();
      expect(await held).toMatchObject({ name: 'AbortError' });
      // Let the service see the connection close.
      for (
        let i = 0;
        !(await runnerOf(instance, token, runnerId))?.claimDroppedAt;
        i++
      ) {
        if (i > 200) throw new Error(`${runnerId}'s drop was never noted`);
        await sleep(25);
      }
    }

    it('is read by the other instance: the run and the Runners card say it by one rule', async () => {
      const owner = await first.signup();
      const stack = await createStack(first, owner);
      const runner = await createRunner(first, owner);
      await dropClaim(first, runner.key, owner.token, 'killed-runner');

      const run = await trigger(second, owner, stack.changePipelineId);
      clock.advance(5_100);
      for (const instance of [second, first]) {
        expect(
          (await getRun(instance, owner, run.id)).queueState,
        ).toMatchObject({
          waitingForRunner: false,
          runnersSilent: true,
          reason:
            'Queued for a runner: the one connected runner, killed-runner, is free but has not asked for work for 5s; it may have stopped (killed, or its host lost)',
        });
        const listed = (await runnerOf(
          instance,
          owner.token,
          'killed-runner',
        ))!;
        expect(listed).toMatchObject({
          status: 'ONLINE',
          claimDroppedAt: expect.any(String),
        });
        // The Runners card's rule: "Silent" at the same moment.
        expect(idleRunnerSilenceMs(listed, Date.now())).toBeGreaterThanOrEqual(
          5_000,
        );
      }
    });

    it('is forgotten by the runner’s next claim through the other instance, also one whose sighting it does not write', async () => {
      const owner = await first.signup();
      const stack = await createStack(first, owner);
      const runner = await createRunner(first, owner);
      // Seen through the second instance a moment ago: it writes its next sighting only ten
      // seconds later.
      expect(
        (await sendClaim(second, runner.key, { runnerId: 'blip-runner' }))
          .status,
      ).toBe(204);
      await dropClaim(first, runner.key, owner.token, 'blip-runner');
      // Back after a network blip, through the second instance.
      expect(
        (await sendClaim(second, runner.key, { runnerId: 'blip-runner' }))
          .status,
      ).toBe(204);

      const run = await trigger(first, owner, stack.changePipelineId);
      clock.advance(5_100);
      for (const instance of [first, second]) {
        expect(
          (await getRun(instance, owner, run.id)).queueState,
        ).toMatchObject({
          waitingForRunner: false,
          reason:
            'Queued for a runner: the one connected runner is free and takes it next',
        });
        const listed = (await runnerOf(instance, owner.token, 'blip-runner'))!;
        expect(listed).not.toHaveProperty('claimDroppedAt');
        expect(idleRunnerSilenceMs(listed, Date.now())).toBeUndefined();
      }
    });
  },
);
