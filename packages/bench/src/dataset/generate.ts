import { Knex } from 'knex';
import { DatabaseService } from '@backstage/backend-plugin-api';
import {
  applyDatabaseMigrations,
  createStores,
  PasswordHasher,
  newId,
  parsePlanJson,
  plannedResourcesOf,
  Stores,
  uuidV7,
} from '../pluginInternals';
import { RowWriter } from './bulkInsert';
import { DatasetSizes } from './sizes';
import { syntheticPlan } from './syntheticPlan';

export const BENCH_EMAIL = 'bench-owner@example.com';
export const BENCH_PASSWORD = 'bench correct horse battery staple';

/** What the load phase needs to know about the generated data. */
export interface DatasetManifest {
  organizationId: string;
  projectId: string;
  environmentId: string;
  cloudAccountId: string;
  pipelineIds: string[];
  stackIds: string[];
  bigStackIds: string[];
  /** A deployment with events, and a pipeline with execution summaries. */
  deploymentId: string;
  summaryPipelineId: string;
  sizes: DatasetSizes;
  rows: Record<string, number>;
  seconds: number;
}

type Row = Record<string, unknown>;

/** Reads back the row a store wrote: the template every bulk copy starts from. */
async function rowOf(knex: Knex, table: string, id: string): Promise<Row> {
  const row = await knex(table).where({ id }).first();
  if (!row) throw new Error(`template row ${id} missing from ${table}`);
  return row;
}

type ContainerDeploymentData = Parameters<
  Stores['deployments']['create']
>[0]['data'];

function deploymentData(
  cloudAccountId: string,
  service: string,
  revision: number,
  at: string,
): ContainerDeploymentData {
  const definition = (rev: number) => ({
    ref: `arn:aws:ecs:eu-west-1:111122223333:task-definition/${service}:${rev}`,
    revision: rev,
    definition: {
      family: service,
      cpu: '256',
      memory: '512',
      containerDefinitions: [
        {
          name: 'app',
          image: `registry.example.com/${service}:${rev}`,
          portMappings: [{ containerPort: 8080 }],
          environment: [{ name: 'LOG_LEVEL', value: 'info' }],
        },
      ],
    },
  });
  return {
    type: 'cloud:container',
    cloudAccountId,
    region: 'eu-west-1',
    clusterRef: 'bench',
    serviceRef: service,
    deployedTaskDefinition: definition(revision),
    previousTaskDefinition: definition(revision - 1),
    strategy: 'rolling',
    initiationType: 'SERVICE',
    events: ['INIT', 'IN_PROGRESS', 'SUCCEEDED'].map((stepCode, i) => ({
      currentStep: i + 1,
      totalSteps: 3,
      startedAt: at,
      stepCode,
      message: `${stepCode} of ${service} revision ${revision}`,
    })),
  };
}

/** The change counts of every summary `writeSummaries` writes. */
const PLAN_COUNTS = {
  addCount: 12,
  changeCount: 3,
  destroyCount: 1,
  importCount: 0,
  readCount: 4,
  replaceCount: 0,
  unchangedCount: 180,
};

/** The same counts as the columns of the run they were planned by (an applyable plan). */
const PLANNED_CHANGES = {
  plan_add_count: PLAN_COUNTS.addCount,
  plan_change_count: PLAN_COUNTS.changeCount,
  plan_destroy_count: PLAN_COUNTS.destroyCount,
  plan_import_count: PLAN_COUNTS.importCount,
  plan_no_changes: false,
};

/**
 * Fills a freshly migrated database with a dataset of `sizes`: the small entities (the
 * organization, its owner, projects, stacks, pipelines) through the plugin's stores, one
 * template row of each large table through its store too, and the large tables as copies of
 * those templates in multi-row batches. Ids are UUIDv7 over the past year, so that "newest
 * first" and keyset cursors see the same distribution as a real history.
 */
export async function generateDataset(
  knex: Knex,
  sizes: DatasetSizes,
  log: (line: string) => void,
): Promise<DatasetManifest> {
  const started = Date.now();
  const database: DatabaseService = { getClient: async () => knex };
  await applyDatabaseMigrations(database, knex);
  const stores = createStores(knex);

  const organization = await stores.organizations.create({ name: 'Bench' });
  const organizationId = organization.id;
  const user = await stores.users.create({
    email: BENCH_EMAIL,
    passwordHash: await new PasswordHasher().hash(BENCH_PASSWORD),
    fullName: 'Bench Owner',
  });
  await stores.memberships.createForUser({
    organizationId,
    userId: user.id,
    email: BENCH_EMAIL,
    role: 'OWNER',
  });
  const project = await stores.projects.createProject(organizationId, {
    givenId: 'bench',
    name: 'Bench',
  });
  const environment = await stores.projects.createEnvironment(
    organizationId,
    project.id,
    { givenId: 'production', name: 'Production' },
  );
  const cloudAccount = await stores.cloudAccounts.create({
    organizationId,
    givenId: 'bench',
    name: 'Bench account',
    cloudId: '111122223333',
    externalId: 'bench-external-id',
  });

  const { stackIds, pipelineIds } = await stores.transaction(async tx =>
    createStacksAndPipelines(
      tx,
      organizationId,
      project.id,
      environment.id,
      sizes,
    ),
  );
  log(`${stackIds.length} stacks, ${pipelineIds.length} pipelines`);

  const yearAgo = Date.now() - 365 * 24 * 3600 * 1000;
  const rows: Record<string, number> = {};

  // Runs: round-robin over pipelines and stacks, ids spread over the past year.
  const template = await stores.pipelineRuns.createRun({
    organizationId,
    pipelineId: pipelineIds[0],
    pipelineVersionId: (await stores.pipelines.get(
      organizationId,
      pipelineIds[0],
    ))!.latestVersionId!,
    projectId: project.id,
    attachedEntityId: stackIds[0],
    attachedEntityType: 'STACK',
    description: 'Nightly drift check',
    input: { reason: 'scheduled', ticket: 'OPS-1234' },
    steps: [{ type: 'approval', name: 'Approve' }],
  });
  const runTemplate = await rowOf(knex, 'pipeline_runs', template.id);
  await knex('step_executions')
    .where({ pipeline_run_id: template.id })
    .delete();
  await knex('pipeline_runs').where({ id: template.id }).delete();
  const versionOf = new Map<string, string>(
    (
      await knex('pipelines')
        .whereIn('id', pipelineIds)
        .select('id', 'latest_version_id')
    ).map(r => [r.id, r.latest_version_id]),
  );
  const runIds: string[] = new Array(sizes.runs);
  const runWriter = new RowWriter(knex, 'pipeline_runs');
  const step = (Date.now() - yearAgo - 60_000) / Math.max(1, sizes.runs);
  for (let i = 0; i < sizes.runs; i++) {
    const at = yearAgo + i * step;
    const id = uuidV7(at, i & 0xfff);
    const timestamp = new Date(at).toISOString();
    const pipelineId = pipelineIds[i % pipelineIds.length];
    runIds[i] = id;
    await runWriter.add({
      ...runTemplate,
      id,
      pipeline_id: pipelineId,
      pipeline_version_id: versionOf.get(pipelineId),
      attached_entity_id: stackIds[i % stackIds.length],
      status: i % 10 === 0 ? 'FAILED' : 'SUCCEEDED',
      queue_reason: null,
      // Every fifth run has a plan summary (writeSummaries): its run carries the plan's
      // counts, as ingestion writes them, so the backfill of migration 20261207N0000 finds
      // nothing to do on a new dataset.
      ...(i % 5 === 0 ? PLANNED_CHANGES : {}),
      started_at: timestamp,
      last_attempt_started_at: timestamp,
      completed_at: new Date(at + 90_000).toISOString(),
      created_at: timestamp,
      updated_at: timestamp,
    });
  }
  await runWriter.flush();
  rows.pipeline_runs = runWriter.written;
  log(`${runWriter.written} runs`);

  rows.iac_execution_summaries = await writeSummaries(
    knex,
    stores,
    organizationId,
    runIds,
    pipelineIds,
    stackIds,
  );
  log(`${rows.iac_execution_summaries} execution summaries`);

  const resourceRows = await writeResources(
    knex,
    stores,
    organizationId,
    pipelineIds,
    runIds,
    stackIds,
    sizes,
  );
  Object.assign(rows, resourceRows);
  log(
    `${rows.iac_resources} IaC resources, ${rows.stack_resource_state} current`,
  );

  const deploymentRows = await writeDeployments(
    knex,
    stores,
    organizationId,
    project.id,
    environment.id,
    cloudAccount.id,
    sizes,
    yearAgo,
  );
  Object.assign(rows, deploymentRows.rows);
  log(
    `${rows.deployments} deployments, ${rows.infrastructure_events} infrastructure events`,
  );

  await finishDataset(knex);
  return {
    organizationId,
    projectId: project.id,
    environmentId: environment.id,
    cloudAccountId: cloudAccount.id,
    pipelineIds,
    stackIds,
    bigStackIds: stackIds.slice(0, sizes.bigStacks),
    deploymentId: deploymentRows.deploymentWithEvents,
    summaryPipelineId: pipelineIds[0],
    sizes,
    rows,
    seconds: (Date.now() - started) / 1000,
  };
}

async function createStacksAndPipelines(
  tx: Stores,
  organizationId: string,
  projectId: string,
  environmentId: string,
  sizes: DatasetSizes,
) {
  const stackIds: string[] = [];
  for (let i = 0; i < sizes.stacks; i++) {
    stackIds.push(
      await tx.stacks.create({
        organizationId,
        projectId,
        environmentId,
        givenId: `stack-${i}`,
        name: `Stack ${i}`,
        autoApprove: false,
      }),
    );
  }
  const pipelineIds: string[] = [];
  for (let i = 0; i < sizes.pipelines; i++) {
    const pipeline = await tx.pipelines.create({
      organizationId,
      projectId,
      givenId: `pipeline-${i}`,
      name: `Pipeline ${i}`,
      steps: [{ type: 'approval', name: 'Approve' }],
    });
    pipelineIds.push(pipeline.id);
  }
  return { stackIds, pipelineIds };
}

/** One execution summary for every fifth run. */
async function writeSummaries(
  knex: Knex,
  stores: Stores,
  organizationId: string,
  runIds: string[],
  pipelineIds: string[],
  stackIds: string[],
): Promise<number> {
  if (runIds.length === 0) return 0;
  const context = {
    organizationId,
    pipelineId: pipelineIds[0],
    pipelineRunId: runIds[0],
    stepExecutionId: newId(),
    stackId: stackIds[0],
    runType: 'PLAN' as const,
  };
  const summary = await stores.iacResults.insertSummary(context, PLAN_COUNTS, {
    applyable: true,
  });
  const template = await rowOf(knex, 'iac_execution_summaries', summary.id);
  await knex('iac_execution_summaries').where({ id: summary.id }).delete();
  const writer = new RowWriter(knex, 'iac_execution_summaries');
  for (let i = 0; i < runIds.length; i += 5) {
    const runId = runIds[i];
    await writer.add({
      ...template,
      id: runId,
      pipeline_id: pipelineIds[i % pipelineIds.length],
      pipeline_run_id: runId,
      step_execution_id: runId,
      stack_id: stackIds[i % stackIds.length],
    });
  }
  await writer.flush();
  return writer.written;
}

/**
 * Every stack gets a plan and an apply of its addresses (the apply being its current state):
 * the big stacks `bigStackResources` addresses each, the others share the rest of the rows.
 */
async function writeResources(
  knex: Knex,
  stores: Stores,
  organizationId: string,
  pipelineIds: string[],
  runIds: string[],
  stackIds: string[],
  sizes: DatasetSizes,
) {
  const stackCount = stackIds.length;
  const runsOfStack = (k: number) => {
    // Runs attach round-robin: the newest two runs of stack k are its plan and its apply.
    const last =
      k + stackCount * Math.floor((runIds.length - 1 - k) / stackCount);
    return {
      apply: runIds[last],
      plan: runIds[Math.max(k, last - stackCount)],
    };
  };
  const bigTotal = 2 * sizes.bigStacks * sizes.bigStackResources;
  const perOther = Math.max(
    0,
    Math.floor(
      (sizes.resources - bigTotal) / (2 * (stackCount - sizes.bigStacks)),
    ),
  );
  const templatePlan = plannedResourcesOf(parsePlanJson(syntheticPlan(1)));
  const [templateId] = await stores.iacResults.insertResources(
    {
      organizationId,
      pipelineId: pipelineIds[0],
      pipelineRunId: runIds[runIds.length - 1],
      stepExecutionId: newId(),
      stackId: stackIds[0],
      runType: 'APPLY',
    },
    templatePlan,
  );
  const template = await rowOf(knex, 'iac_resources', templateId);
  await knex('iac_resources').where({ id: templateId }).delete();
  const vendorData = JSON.parse(String(template.vendor_data));

  const resources = new RowWriter(knex, 'iac_resources');
  const state = new RowWriter(knex, 'stack_resource_state');
  const types = ['aws_instance', 'aws_s3_bucket', 'aws_route53_record'];
  for (let k = 0; k < stackCount; k++) {
    const count = k < sizes.bigStacks ? sizes.bigStackResources : perOther;
    if (count === 0) continue;
    const { plan, apply } = runsOfStack(k);
    for (const [runType, runId] of [
      ['PLAN', plan],
      ['APPLY', apply],
    ] as const) {
      for (let i = 0; i < count; i++) {
        const type = types[i % types.length];
        const address = `module.app_${i % 50}.${type}.r${i}`;
        const id = newId();
        await resources.add({
          ...template,
          id,
          stack_id: stackIds[k],
          pipeline_run_id: runId,
          step_execution_id: runId,
          run_type: runType,
          address,
          module_address: `module.app_${i % 50}`,
          resource_type: type,
          resource_name: `r${i}`,
          vendor_data: JSON.stringify({
            before: null,
            after: { ...vendorData.after, name: `stack-${k}-${type}-${i}` },
          }),
        });
        if (runType === 'APPLY') {
          await state.add({
            stack_id: stackIds[k],
            address,
            organization_id: organizationId,
            iac_resource_id: id,
            updated_at: template.updated_at,
          });
        }
      }
    }
  }
  await resources.flush();
  await state.flush();
  return {
    iac_resources: resources.written,
    stack_resource_state: state.written,
  };
}

/** Deployments spread over services, each with its share of task-state events. */
async function writeDeployments(
  knex: Knex,
  stores: Stores,
  organizationId: string,
  projectId: string,
  environmentId: string,
  cloudAccountId: string,
  sizes: DatasetSizes,
  since: number,
) {
  const now = new Date().toISOString();
  const created = await stores.deployments.create({
    organizationId,
    projectId,
    environmentId,
    status: 'SUCCEEDED',
    triggerSource: 'API',
    description: 'Release 1',
    externalDeploymentId: 'ecs-svc/0',
    data: deploymentData(cloudAccountId, 'svc-0', 2, now),
    startedAt: now,
    completedAt: now,
  });
  const template = await rowOf(knex, 'deployments', created.id);
  await knex('deployments').where({ id: created.id }).delete();
  const event = await stores.infrastructureEvents.insert({
    organizationId,
    cloudAccountId,
    eventId: 'template',
    kind: 'CONTAINER_TASK_STATE_CHANGE',
    detailType: 'ECS Task State Change',
    source: 'aws.ecs',
    region: 'eu-west-1',
    eventTime: now,
    taskRef: 'arn:aws:ecs:eu-west-1:111122223333:task/bench/0',
    taskVersion: 1,
    moduleDeploymentId: created.id,
    data: {
      type: 'CONTAINER_TASK_STATE_CHANGE',
      taskRef: 'arn:aws:ecs:eu-west-1:111122223333:task/bench/0',
      clusterRef: 'arn:aws:ecs:eu-west-1:111122223333:cluster/bench',
      lastStatus: 'RUNNING',
      desiredStatus: 'RUNNING',
      launchType: 'FARGATE',
      availabilityZone: 'eu-west-1a',
      taskDefinitionRef:
        'arn:aws:ecs:eu-west-1:111122223333:task-definition/svc-0:2',
      containers: [
        {
          name: 'app',
          lastStatus: 'RUNNING',
          image: 'registry.example.com/svc-0:2',
        },
      ],
      rawDetail: { version: 1, group: 'service:svc-0' },
    },
  });
  const eventTemplate = await rowOf(knex, 'infrastructure_events', event.id);
  await knex('infrastructure_events').where({ id: event.id }).delete();

  const deployments = new RowWriter(knex, 'deployments');
  const events = new RowWriter(knex, 'infrastructure_events');
  const eventsPerDeployment = Math.max(
    1,
    Math.round(sizes.events / Math.max(1, sizes.deployments)),
  );
  const step = (Date.now() - since - 120_000) / Math.max(1, sizes.deployments);
  let deploymentWithEvents = '';
  let eventCount = 0;
  for (let d = 0; d < sizes.deployments; d++) {
    const at = since + d * step;
    const timestamp = new Date(at).toISOString();
    const service = `svc-${d % sizes.services}`;
    const id = uuidV7(at, 0);
    const revision = Math.floor(d / sizes.services) + 2;
    await deployments.add({
      ...template,
      id,
      service_name: service,
      external_deployment_id: `ecs-svc/${d}`,
      description: `Release ${revision} of ${service}`,
      data: JSON.stringify(
        deploymentData(cloudAccountId, service, revision, timestamp),
      ),
      created_at: timestamp,
      updated_at: timestamp,
      started_at: timestamp,
      completed_at: timestamp,
    });
    deploymentWithEvents = id;
    for (let e = 0; e < eventsPerDeployment && eventCount < sizes.events; e++) {
      eventCount += 1;
      await events.add({
        ...eventTemplate,
        id: uuidV7(at, e + 1),
        event_id: `bench-${d}-${e}`,
        module_deployment_id: id,
        task_ref: `arn:aws:ecs:eu-west-1:111122223333:task/bench/${d}-${e}`,
        event_time: timestamp,
        created_at: timestamp,
      });
    }
  }
  await deployments.flush();
  await events.flush();
  return {
    deploymentWithEvents,
    rows: {
      deployments: deployments.written,
      infrastructure_events: events.written,
    },
  };
}

/**
 * The pipelines' and stacks' counters (the bulk copies bypass the stores that keep them), statistics
 * for the planner, and on SQLite the write-ahead log folded back in.
 */
async function finishDataset(knex: Knex) {
  await knex.raw(
    `UPDATE stacks SET resource_count =
       (SELECT count(*) FROM stack_resource_state
         WHERE stack_resource_state.organization_id = stacks.organization_id
           AND stack_resource_state.stack_id = stacks.id)`,
  );
  await knex.raw(
    `INSERT INTO pipeline_run_counters (organization_id, pipeline_id, shard, run_count)
     SELECT organization_id, pipeline_id, 0, count(*) FROM pipeline_runs
     GROUP BY organization_id, pipeline_id`,
  );
  // The runs carry their plans' counts already (PLANNED_CHANGES): nothing to backfill.
  await knex('run_change_summary_backfill').delete();
  if (String(knex.client.config.client).includes('sqlite')) {
    await knex.raw('ANALYZE');
    await knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
  } else {
    await knex.raw('VACUUM ANALYZE');
  }
}
