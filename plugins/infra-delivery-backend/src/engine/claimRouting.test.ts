import {
  migratedStores,
  recordingEngine,
  seedStacks,
  stackRunInput,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { LABEL_REFRESH_MS } from './PipelineEngine';

jest.setTimeout(120_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'a claim routed by the label copies on the steps, on %s',
  databaseId => {
    /** Stacks requiring these labels, each with a run started in this order (its plan queued). */
    async function setup(labelsOfStacks: string[][]) {
      const knex = await databases.init(databaseId);
      const stores = await migratedStores(knex);
      const seed = await seedStacks(stores, labelsOfStacks.length);
      const { engine } = recordingEngine(stores);
      const org = seed.organizationId;
      const planOf: string[] = [];
      for (const [i, runnerLabels] of labelsOfStacks.entries()) {
        await stores.stacks.update(org, seed.stacks[i].stackId, {
          runnerLabels,
        });
        const run = await engine.start(await stackRunInput(stores, seed, i));
        const [plan] = await stores.pipelineRuns.listSteps(run.id);
        expect(plan.status).toBe('QUEUED');
        planOf.push(plan.id);
      }
      const claim = async (runnerLabels: string[]) =>
        (
          await engine.claim(
            org,
            'runner',
            undefined,
            undefined,
            undefined,
            runnerLabels,
          )
        )?.step.id;
      const copyOn = (stepId: string, copy: string) =>
        knex('step_executions')
          .where({ id: stepId })
          .update({ required_runner_labels: copy });
      return { knex, planOf, claim, copyOn };
    }

    it('takes the oldest step of each label set the runner carries, past a backlog it cannot take', async () => {
      const { planOf, claim } = await setup([
        ['env=prod'],
        ['env=prod', 'region=eu'],
        ['env=dev'],
        [],
        ['env=prod'],
      ]);
      expect(await claim(['env=dev'])).toBe(planOf[2]);
      expect(await claim(['env=dev'])).toBe(planOf[3]);
      expect(await claim(['env=dev'])).toBeUndefined();
      expect(await claim(['region=eu', 'env=prod'])).toBe(planOf[0]);
      expect(await claim(['env=prod'])).toBe(planOf[4]);
      expect(await claim(['env=prod'])).toBeUndefined();
      expect(await claim(['env=prod', 'region=eu'])).toBe(planOf[1]);
    });

    it('never hands a step to a runner its stack does not route it to, whatever the copy says', async () => {
      const { planOf, claim, copyOn } = await setup([['env=prod']]);
      // A copy left behind by a label change racing the run's creation: "any runner".
      await copyOn(planOf[0], '[]');
      expect(await claim([])).toBeUndefined();
      expect(await claim(['env=dev'])).toBeUndefined();
      expect(await claim(['env=prod'])).toBe(planOf[0]);
    });

    it('routes a step a stale copy hid once a claim finds nothing, at most every 30 s', async () => {
      const { knex, planOf, claim, copyOn } = await setup([[], []]);
      await copyOn(planOf[0], '["env=dev"]');
      await copyOn(planOf[1], '["env=dev"]');
      // The claim finds nothing, and brings the copies up to date: the next claim takes it.
      expect(await claim([])).toBeUndefined();
      expect(
        await knex('step_executions').where({ id: planOf[0] }).first(),
      ).toMatchObject({ required_runner_labels: '[]' });
      expect(await claim([])).toBe(planOf[0]);

      // Hidden again: the next refresh is due 30 s after the last.
      await copyOn(planOf[1], '["env=dev"]');
      expect(await claim([])).toBeUndefined();
      const now = Date.now();
      const later = jest
        .spyOn(Date, 'now')
        .mockReturnValue(now + LABEL_REFRESH_MS + 1);
      try {
        expect(await claim([])).toBeUndefined();
        expect(await claim([])).toBe(planOf[1]);
      } finally {
        later.mockRestore();
      }
    });
  },
);
