import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import {
  migratedStores,
  queueStackRun,
  seedStacks,
} from '../__testUtils__/engineFixtures';
import { PlannedResource } from '../domain/iacChanges';
import { Stores } from './stores';

jest.setTimeout(60_000);

const databases = createTestDatabases();

function resource(
  address: string,
  changeKind: PlannedResource['changeKind'],
): PlannedResource {
  return {
    address,
    mode: 'managed',
    resourceType: 'aws_s3_bucket',
    resourceName: address.split('.').pop()!,
    changeKind,
    changePriority: 0,
    tainted: false,
    vendorData: { before: null, after: { bucket: address } },
  };
}

/**
 * The run and resource totals come from counters the stores keep (the benchmarks at scale,
 * docs/benchmarks.md); they must say what counting the rows says.
 */
describe.each(databases.eachSupportedId())('kept counters on %s', id => {
  let knex: Knex;
  let stores: Stores;

  beforeAll(async () => {
    knex = await databases.init(id);
    stores = await migratedStores(knex);
  });

  afterAll(async () => {
    await knex.destroy();
  });

  it('totals the runs of the organization and of given pipelines', async () => {
    const seed = await seedStacks(stores, 3);
    const other = await seedStacks(stores, 1);
    for (const stackIndex of [0, 0, 1]) {
      await queueStackRun(stores, seed, stackIndex);
    }
    await queueStackRun(stores, other, 0);
    const page = { limit: 1 };
    const all = await stores.pipelineRuns.listRuns(
      seed.organizationId,
      {},
      page,
    );
    expect(all.totalCount).toBe(3);
    const [first, second, third] = seed.stacks.map(s => s.pipelineId);
    const some = await stores.pipelineRuns.listRuns(
      seed.organizationId,
      { pipelineIds: [first, third, first] },
      page,
    );
    expect(some.totalCount).toBe(2);
    const ofOtherOrganization = await stores.pipelineRuns.listRuns(
      seed.organizationId,
      { pipelineIds: [other.stacks[0].pipelineId] },
      page,
    );
    expect(ofOtherOrganization.totalCount).toBe(0);
    const withStatus = await stores.pipelineRuns.listRuns(
      seed.organizationId,
      { pipelineIds: [second], statuses: ['QUEUED'] },
      page,
    );
    expect(withStatus.totalCount).toBe(1);
  });

  it('pages through the newest runs per pipeline from their ids', async () => {
    const seed = await seedStacks(stores, 3);
    const created: string[] = [];
    for (const stackIndex of [0, 0, 0, 1, 1, 2]) {
      created.push((await queueStackRun(stores, seed, stackIndex)).id);
    }
    const [a1, a2, a3, b1, b2] = created;
    const filter = {
      pipelineIds: seed.stacks.slice(0, 2).map(s => s.pipelineId),
      latestPerPipeline: 2,
    };
    const walked: string[] = [];
    let afterId: string | undefined;
    do {
      const page = await stores.pipelineRuns.listRuns(
        seed.organizationId,
        filter,
        { limit: 3, afterId },
      );
      expect(page.totalCount).toBe(4);
      walked.push(...page.items.map(run => run.id));
      afterId = page.nextAfterId;
    } while (afterId);
    expect(walked).toEqual([b2, b1, a3, a2]);
    expect(walked).not.toContain(a1);
  });

  it("keeps a stack's resource count through applies and destroys", async () => {
    const seed = await seedStacks(stores, 2);
    const run = await queueStackRun(stores, seed, 0);
    const context = {
      organizationId: seed.organizationId,
      pipelineId: seed.stacks[0].pipelineId,
      pipelineRunId: run.id,
      stepExecutionId: run.id,
      stackId: seed.stacks[0].stackId,
      runType: 'APPLY' as const,
    };
    const created = ['a', 'b', 'c'].map(name =>
      resource(`aws_s3_bucket.${name}`, 'CREATE'),
    );
    await stores.iacResults.applyToStackState(
      context,
      created,
      await stores.iacResults.insertResources(context, created),
    );
    const removed = [resource('aws_s3_bucket.b', 'DELETE')];
    await stores.iacResults.applyToStackState(
      context,
      removed,
      await stores.iacResults.insertResources(context, removed),
    );

    const stackIds = seed.stacks.map(s => s.stackId);
    expect(
      await stores.iacResults.countStackState(seed.organizationId, stackIds),
    ).toEqual([{ stackId: stackIds[0], count: 2 }]);
    const state = await stores.iacResults.listStackState(
      seed.organizationId,
      stackIds[0],
      { limit: 1 },
    );
    expect(state?.totalCount).toBe(2);
    expect(
      await stores.iacResults.countStackState('another-organization', stackIds),
    ).toEqual([]);
  });
});
