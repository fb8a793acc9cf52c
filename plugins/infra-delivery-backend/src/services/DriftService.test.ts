import fs from 'node:fs';
import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import {
  migratedStores,
  queueStackRun,
  recordingEngine,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { Authorizer } from '../auth/Authorizer';
import { Stores } from '../database/stores';
import { PipelineEngine } from '../engine/PipelineEngine';
import { ingestStepReport } from '../iac/ingestStepReport';
import { DriftService } from './DriftService';
import { Caller } from '../auth/Caller';
import { RunnerRegistry } from '../runners/RunnerRegistry';

jest.setTimeout(120_000);

const databases = createTestDatabases();

const plan = (name: string) =>
  JSON.parse(
    fs.readFileSync(
      path.resolve(__dirname, '../iac/__fixtures__/tf-plans', name),
      'utf8',
    ),
  );
const BASIC = plan('terraform-json__basic.plan.json');
const DRIFTED = plan('terraform-compliance__test_issue-567.plan.json');
const IN_SYNC = plan('terraform-json__moved_block.plan.json');

/** Claims the organization's next runner step and completes it with `planJson`. */
async function runNextStep(
  engine: PipelineEngine,
  organizationId: string,
  planJson: Record<string, unknown>,
) {
  const claimed = await engine.claim(organizationId, 'runner-1');
  await engine.complete(
    organizationId,
    claimed!.step.id,
    claimed!.leaseToken,
    { status: 'SUCCEEDED' },
    (tx, step, run) => ingestStepReport(tx, step, run, { planJson }),
  );
  return claimed!.step;
}

describe.each(databases.eachSupportedId())('drift checks on %s', databaseId => {
  async function setup() {
    const knex = await databases.init(databaseId);
    const stores = await migratedStores(knex);
    const seed = await seedStacks(stores, 2, { autoApprove: true });
    const { engine } = recordingEngine(stores);
    const drift = new DriftService({
      stores,
      engine,
      authorizer: new Authorizer(mockServices.permissions()),
      runnerRegistry: new RunnerRegistry({
        stores,
        settings: { onlineSeconds: 60, retentionDays: 7 },
      }),
    });
    return { stores, seed, engine, drift };
  }

  /** Applies the basic plan to stack `index` (with `input`), so it holds resources. */
  async function deploy(
    stores: Stores,
    engine: PipelineEngine,
    seed: Awaited<ReturnType<typeof seedStacks>>,
    index: number,
    input?: Record<string, unknown>,
  ) {
    const run = await queueStackRun(stores, seed, index, input);
    await engine.enqueue(run.id);
    await runNextStep(engine, seed.organizationId, BASIC);
    await runNextStep(engine, seed.organizationId, BASIC);
    expect((await stores.pipelineRuns.getRunForEngine(run.id))?.status).toBe(
      'SUCCEEDED',
    );
  }

  const driftChecksOf = async (stores: Stores, organizationId: string) =>
    (
      await stores.pipelineRuns.listRuns(
        organizationId,
        { kinds: ['DRIFT_CHECK'] },
        { limit: 50 },
      )
    ).items;

  it('starts due checks once, as plan-only runs, and moves the due time on by the interval', async () => {
    const { stores, seed, engine, drift } = await setup();
    const org = seed.organizationId;
    const [deployed, empty] = seed.stacks;
    await deploy(stores, engine, seed, 0);
    await stores.stacks.update(org, deployed.stackId, {
      driftCheckIntervalHours: 2,
    });
    await stores.stacks.update(org, empty.stackId, {
      driftCheckIntervalHours: 1,
    });

    const now = new Date(Date.now() + 1000);
    expect(await drift.startDueChecks(now)).toBe(1);
    // Another instance's round at the same moment finds nothing due.
    expect(await drift.startDueChecks(now)).toBe(0);

    const [check] = await driftChecksOf(stores, org);
    expect(check).toMatchObject({
      kind: 'DRIFT_CHECK',
      triggerSource: 'DRIFT_SCHEDULE',
      attachedEntityId: deployed.stackId,
      status: 'RUNNING',
      description: 'Scheduled drift check',
    });
    const steps = await stores.pipelineRuns.listSteps(check.id);
    expect(steps.map(step => [step.type, step.status])).toEqual([
      ['iac.plan', 'QUEUED'],
    ]);
    const stack = await stores.stacks.get(org, deployed.stackId);
    expect(stack?.nextDriftCheckAt).toBe(
      new Date(now.getTime() + 2 * 3600_000).toISOString(),
    );
    // The stack without resources was passed over until its next due time.
    const passedOver = await stores.stacks.get(org, empty.stackId);
    expect(passedOver?.nextDriftCheckAt).toBe(
      new Date(now.getTime() + 3600_000).toISOString(),
    );

    await runNextStep(engine, org, DRIFTED);
    expect(await stores.stacks.get(org, deployed.stackId)).toMatchObject({
      driftStatus: 'DRIFTED',
      driftedResourceCount: 6,
      lastDriftCheckRunId: check.id,
    });
    expect((await stores.pipelineRuns.getRunForEngine(check.id))?.status).toBe(
      'SUCCEEDED',
    );
  });

  it('checks and reconciles with the input the stack was last applied with', async () => {
    const { stores, seed, engine, drift } = await setup();
    const org = seed.organizationId;
    const stackId = seed.stacks[0].stackId;
    const caller: Caller = {
      organizationId: org,
      role: 'MEMBER',
      principal: { type: 'service-account', serviceAccountId: 'sa-person' },
      credentialKind: 'api-key',
    };
    await deploy(stores, engine, seed, 0, { threshold: 80 });
    await deploy(stores, engine, seed, 0, { threshold: 90 });
    const applied = { threshold: 90 };
    expect((await stores.stacks.get(org, stackId))?.appliedInput).toEqual(
      applied,
    );

    // Planned with the module's defaults, the approved 90 read as drift.
    const check = await drift.startCheck(caller, stackId);
    expect(check).toMatchObject({
      input: applied,
      data: { kind: 'stack', module_input: applied },
    });
    await runNextStep(engine, org, DRIFTED);

    const reconcile = await drift.reconcile(caller, stackId);
    expect(reconcile).toMatchObject({
      input: applied,
      data: { kind: 'stack', module_input: applied },
    });
  });

  it('says of a check it starts that it waits for a runner while none is connected', async () => {
    const { stores, seed, engine, drift } = await setup();
    await deploy(stores, engine, seed, 0);
    const caller: Caller = {
      organizationId: seed.organizationId,
      role: 'MEMBER',
      principal: { type: 'service-account', serviceAccountId: 'sa-person' },
      credentialKind: 'api-key',
    };

    const check = await drift.startCheck(caller, seed.stacks[0].stackId);

    // As the trigger of any run says it: the portal shows "waiting for a runner", not "started".
    expect(check.queueState).toMatchObject({
      waitingForRunner: true,
      reason: 'No runner is connected to this organization',
    });
  });

  it('skips a due check while a change run of the stack is active', async () => {
    const { stores, seed, engine, drift } = await setup();
    const org = seed.organizationId;
    await deploy(stores, engine, seed, 0);
    const change = await queueStackRun(stores, seed, 0);
    await engine.enqueue(change.id);
    await stores.stacks.update(org, seed.stacks[0].stackId, {
      driftCheckIntervalHours: 1,
    });
    expect(await drift.startDueChecks(new Date(Date.now() + 1000))).toBe(0);
    expect(await driftChecksOf(stores, org)).toEqual([]);
  });

  it('gives the stack to a change run while the check waits for a runner, and holds the change while the check plans', async () => {
    const { stores, seed, engine, drift } = await setup();
    const org = seed.organizationId;
    const stackId = seed.stacks[0].stackId;
    await deploy(stores, engine, seed, 0);
    await stores.stacks.update(org, stackId, { driftCheckIntervalHours: 1 });

    // Waiting for a runner: the change run takes the stack at once.
    await drift.startDueChecks(new Date(Date.now() + 1000));
    const [waiting] = await driftChecksOf(stores, org);
    const change = await queueStackRun(stores, seed, 0);
    await engine.enqueue(change.id);
    expect(await stores.pipelineRuns.getRunForEngine(waiting.id)).toMatchObject(
      {
        status: 'CANCELLED',
        error: {
          code: 'InfraDelivery:DriftCheck:SKIPPED',
          metadata: { pipelineRunId: change.id },
        },
      },
    );
    expect((await stores.pipelineRuns.getRunForEngine(change.id))?.status).toBe(
      'RUNNING',
    );
    // A check that gave way decided nothing.
    expect((await stores.stacks.get(org, stackId))?.driftStatus).toBe(
      'UNKNOWN',
    );
    await runNextStep(engine, org, BASIC);
    await runNextStep(engine, org, BASIC);

    // Planning: the change run waits for the plan, then runs.
    await drift.startDueChecks(new Date(Date.now() + 2 * 3600_000));
    const [planning] = await driftChecksOf(stores, org);
    expect(planning.id).not.toBe(waiting.id);
    const claimed = await engine.claim(org, 'runner-1');
    expect(claimed?.step.pipelineRunId).toBe(planning.id);
    const next = await queueStackRun(stores, seed, 0);
    await engine.enqueue(next.id);
    expect(await stores.pipelineRuns.getRunForEngine(next.id)).toMatchObject({
      status: 'QUEUED',
      queueState: { blockingRunId: planning.id },
    });
    await engine.complete(
      org,
      claimed!.step.id,
      claimed!.leaseToken,
      { status: 'SUCCEEDED' },
      (tx, step, run) => ingestStepReport(tx, step, run, { planJson: IN_SYNC }),
    );
    expect((await stores.pipelineRuns.getRunForEngine(next.id))?.status).toBe(
      'RUNNING',
    );
    expect(await stores.stacks.get(org, stackId)).toMatchObject({
      driftStatus: 'IN_SYNC',
      driftedResourceCount: 0,
    });
  });
});
