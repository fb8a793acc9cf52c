import path from 'node:path';
import { TestDatabases } from '@backstage/backend-test-utils';
import { Runner } from './Runner';
import {
  clientFor,
  startService,
  FAKE_IAC,
  organizationWithStack,
  PLAN_FIXTURES,
  runnerDirectories,
} from './__testUtils__/serviceWorld';

jest.setTimeout(120_000);

const PLANS = PLAN_FIXTURES;
/** 7 resources to create (and a data source read): the stack's first apply. */
const FIRST_APPLY = path.join(PLANS, 'terraform-json__basic.plan.json');
/** Nothing to change: a stack in sync with its code. */
const IN_SYNC = path.join(PLANS, 'terraform-json__moved_block.plan.json');
/** 6 in-place updates and 4 unchanged resources: a drifted stack. */
const DRIFTED = path.join(
  PLANS,
  'terraform-compliance__test_issue-567.plan.json',
);

const databases = TestDatabases.create({
  ids: ['SQLITE_3', 'POSTGRES_15'],
  disableDocker: true,
});
if (
  process.env.INFRA_DELIVERY_REQUIRE_POSTGRES === '1' &&
  !databases.supports('POSTGRES_15')
) {
  throw new Error(
    'PostgreSQL is required (INFRA_DELIVERY_REQUIRE_POSTGRES=1) but BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING is not set',
  );
}

describe.each(databases.eachSupportedId())(
  'drift detection through the reference runner on %s',
  databaseId => {
    let baseUrl: string;
    let workRoot: string;
    let sourceRoot: string;

    beforeAll(async () => {
      baseUrl = await startService({ knex: await databases.init(databaseId) });
    });

    beforeEach(() => {
      ({ workRoot, sourceRoot } = runnerDirectories('drift'));
      delete process.env.FAKE_IAC_FAIL;
    });

    async function deployedStack() {
      const {
        owner,
        stack,
        runnerKey: key,
      } = await organizationWithStack(baseUrl, { driftCheckIntervalHours: 6 });
      const runner = () =>
        new Runner(
          {
            url: baseUrl,
            token: key,
            runnerId: 'drift-runner',
            iacBinary: FAKE_IAC,
            workRoot,
            sourceRoot,
            checkout: true,
            pollIntervalMs: 10,
            waitSeconds: 0,
            once: true,
            labels: [],
            hostname: 'drift-host.example.com',
          },
          clientFor(baseUrl, key),
          () => {},
        ).run();

      // The first apply puts resources into the stack's state.
      process.env.FAKE_IAC_PLAN = FIRST_APPLY;
      const first = await owner.call('triggerPipelineRun', {
        params: { id: stack.changePipelineId },
        body: { data: { description: 'First apply' } },
      });
      await runner();
      await owner.call('approvePipelineRun', {
        params: { id: first.data.id },
        body: { data: {} },
      });
      await runner();
      expect(
        (await owner.call('getPipelineRun', { params: { id: first.data.id } }))
          .data.status,
      ).toBe('SUCCEEDED');
      return { owner, stack, runner };
    }

    async function checkDrift(
      owner: ReturnType<typeof clientFor>,
      stackId: string,
      runner: () => Promise<void>,
      plan: string,
    ) {
      process.env.FAKE_IAC_PLAN = plan;
      const check = await owner.call('startStackDriftCheck', {
        params: { id: stackId },
        body: { data: {} },
      });
      await runner();
      const run = await owner.call('getPipelineRun', {
        params: { id: check.data.id },
      });
      const stack = await owner.call('getStack', { params: { id: stackId } });
      return { run: run.data, stack: stack.data };
    }

    it('finds a stack in sync, then drifted, and reconciles it through the change pipeline', async () => {
      const { owner, stack, runner } = await deployedStack();
      expect(stack).toMatchObject({
        driftCheckIntervalHours: 6,
        driftStatus: 'UNKNOWN',
        nextDriftCheckAt: expect.any(String),
      });

      // In sync: a plan-only run whose plan changes nothing.
      const inSync = await checkDrift(owner, stack.id, runner, IN_SYNC);
      expect(inSync.run).toMatchObject({
        kind: 'DRIFT_CHECK',
        triggerSource: 'API',
        status: 'SUCCEEDED',
        pipelineId: stack.changePipelineId,
        attachedEntityId: stack.id,
      });
      const checkSteps = await owner.call('listStepExecutions', {
        params: { id: inSync.run.id },
      });
      expect(checkSteps.data.map(step => [step.type, step.status])).toEqual([
        ['iac.plan', 'SUCCEEDED'],
      ]);
      expect(inSync.stack).toMatchObject({
        driftStatus: 'IN_SYNC',
        driftedResourceCount: 0,
        lastDriftCheckRunId: inSync.run.id,
        lastDriftCheckAt: expect.any(String),
      });

      // Drifted: six resources differ from the code.
      const drifted = await checkDrift(owner, stack.id, runner, DRIFTED);
      expect(drifted.run.status).toBe('SUCCEEDED');
      expect(drifted.stack).toMatchObject({
        driftStatus: 'DRIFTED',
        driftedResourceCount: 6,
        lastDriftCheckRunId: drifted.run.id,
      });
      const resources = await owner.call('listIacResources', {
        query: { pipelineRunId: drifted.run.id },
      });
      const changed = resources.data.filter(r => r.changeKind === 'UPDATE');
      expect(changed).toHaveLength(6);
      expect(changed[0].vendorData.before).not.toEqual(
        changed[0].vendorData.after,
      );
      const listed = await owner.call('listStacks', {
        query: { driftStatus: ['DRIFTED'] },
      });
      expect(listed.data.map(s => s.id)).toEqual([stack.id]);
      const checks = await owner.call('listPipelineRuns', {
        query: { attachedEntityId: [stack.id], kind: ['DRIFT_CHECK'] },
      });
      expect(checks.data.map(r => r.id)).toEqual([
        drifted.run.id,
        inSync.run.id,
      ]);
      const changes = await owner.call('listPipelineRuns', {
        query: { attachedEntityId: [stack.id], kind: ['STANDARD'] },
      });
      expect(changes.data).toHaveLength(1);

      // Reconcile: the normal change pipeline, linked to the check that found the drift.
      const reconcile = await owner.call('reconcileStackDrift', {
        params: { id: stack.id },
        body: { data: {} },
      });
      expect(reconcile.data).toMatchObject({
        kind: 'STANDARD',
        triggerSource: 'DRIFT_RECONCILE',
        reconciledDriftCheckRunId: drifted.run.id,
        pipelineId: stack.changePipelineId,
      });
      await runner();
      const waiting = await owner.call('getPipelineRun', {
        params: { id: reconcile.data.id },
      });
      expect(waiting.data.status).toBe('WAITING_FOR_APPROVAL');
      await owner.call('approvePipelineRun', {
        params: { id: reconcile.data.id },
        body: { data: {} },
      });
      await runner();
      const reconciled = await owner.call('getPipelineRun', {
        params: { id: reconcile.data.id },
      });
      expect(reconciled.data.status).toBe('SUCCEEDED');
      expect(
        (await owner.call('getStack', { params: { id: stack.id } })).data,
      ).toMatchObject({ driftStatus: 'IN_SYNC', driftedResourceCount: 0 });

      // The next check confirms it.
      const after = await checkDrift(owner, stack.id, runner, IN_SYNC);
      expect(after.stack).toMatchObject({
        driftStatus: 'IN_SYNC',
        lastDriftCheckRunId: after.run.id,
      });
    });

    it('leaves the drift unknown when the check cannot plan, and refuses a check while a change is active', async () => {
      const { owner, stack, runner } = await deployedStack();
      await checkDrift(owner, stack.id, runner, DRIFTED);

      process.env.FAKE_IAC_FAIL = 'plan';
      const failed = await checkDrift(owner, stack.id, runner, IN_SYNC);
      expect(failed.run.status).toBe('FAILED');
      expect(failed.stack).toMatchObject({
        driftStatus: 'UNKNOWN',
        lastDriftCheckRunId: failed.run.id,
      });
      expect(failed.stack.driftedResourceCount).toBeUndefined();
      delete process.env.FAKE_IAC_FAIL;

      await owner.call('triggerPipelineRun', {
        params: { id: stack.changePipelineId },
        body: { data: { description: 'A change' } },
      });
      await expect(
        owner.call('startStackDriftCheck', {
          params: { id: stack.id },
          body: { data: {} },
        }),
      ).rejects.toMatchObject({
        body: { code: 'InfraDelivery:Stack:STACK_BUSY' },
      });
    });
  },
);
