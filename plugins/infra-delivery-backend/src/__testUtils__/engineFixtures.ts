import { mockServices } from '@backstage/backend-test-utils';
import { Knex } from 'knex';
import { applyDatabaseMigrations } from '../database/migrations';
import { CreateRunInput } from '../database/PipelineRunStore';
import { createStores, Stores } from '../database/stores';
import { PipelineEngine } from '../engine/PipelineEngine';
import { RunStatusChange } from '../engine/RunEvents';
import { changePipelineSteps } from '../services/StackService';

/** Stores on a migrated database. */
export async function migratedStores(knex: Knex): Promise<Stores> {
  await applyDatabaseMigrations(mockServices.database({ knex }), knex);
  return createStores(knex);
}

/** An engine whose announcements are recorded for assertions. */
export function recordingEngine(stores: Stores, leaseSeconds?: number) {
  const changes: RunStatusChange[] = [];
  const engine = new PipelineEngine({
    stores,
    logger: mockServices.logger.mock(),
    events: { runChanged: async change => void changes.push(change) },
    leaseSeconds,
  });
  return { engine, changes };
}

/** An organization with a project, an environment and `count` stacks with change pipelines. */
export async function seedStacks(
  stores: Stores,
  count: number,
  options: { autoApprove?: boolean } = {},
) {
  const organization = await stores.organizations.create({ name: 'acme' });
  const organizationId = organization.id;
  const project = await stores.projects.createProject(organizationId, {
    givenId: 'core',
    name: 'Core',
  });
  const environment = await stores.projects.createEnvironment(
    organizationId,
    project.id,
    { givenId: 'prod', name: 'Production' },
  );
  const stacks: { stackId: string; pipelineId: string; versionId: string }[] =
    [];
  for (let i = 0; i < count; i++) {
    const stackId = await stores.stacks.create({
      organizationId,
      projectId: project.id,
      environmentId: environment.id,
      givenId: `stack-${i}`,
      name: `Stack ${i}`,
      autoApprove: options.autoApprove ?? false,
    });
    const pipeline = await stores.pipelines.create({
      organizationId,
      projectId: project.id,
      stackId,
      givenId: `stack-${i}-change`,
      name: `Stack ${i}: change`,
      steps: changePipelineSteps(options.autoApprove ?? false),
    });
    await stores.stacks.attachPipelines(stackId, {
      changePipelineId: pipeline.id,
      destroyPipelineId: pipeline.id,
    });
    stacks.push({
      stackId,
      pipelineId: pipeline.id,
      versionId: pipeline.latestVersionId!,
    });
  }
  return { organizationId, projectId: project.id, stacks };
}

/** What a trigger of a stack's change pipeline asks to create: the input of its run. */
export async function stackRunInput(
  stores: Stores,
  seed: Awaited<ReturnType<typeof seedStacks>>,
  stackIndex: number,
  input?: Record<string, unknown>,
): Promise<CreateRunInput> {
  const stack = seed.stacks[stackIndex];
  const version = await stores.pipelines.getVersion(
    seed.organizationId,
    stack.versionId,
  );
  return {
    organizationId: seed.organizationId,
    pipelineId: stack.pipelineId,
    pipelineVersionId: stack.versionId,
    projectId: seed.projectId,
    attachedEntityId: stack.stackId,
    attachedEntityType: 'STACK',
    input,
    steps: version!.steps,
  };
}

/** Creates a queued run of a stack's change pipeline (what `trigger` does before admission). */
export async function queueStackRun(
  stores: Stores,
  seed: Awaited<ReturnType<typeof seedStacks>>,
  stackIndex: number,
  input?: Record<string, unknown>,
) {
  return stores.pipelineRuns.createRun(
    await stackRunInput(stores, seed, stackIndex, input),
  );
}

/**
 * A pipeline's run count, summed over its counter rows, and its latest run as the API reads
 * it: what the engine's writes leave for a pipeline.
 */
export async function pipelineRunTally(knex: Knex, pipelineId: string) {
  const [{ count }] = await knex('pipeline_run_counters')
    .where({ pipeline_id: pipelineId })
    .sum({ count: 'run_count' });
  const { organization_id } = await knex('pipelines')
    .where({ id: pipelineId })
    .first();
  const pipeline = await createStores(knex).pipelines.get(
    organization_id,
    pipelineId,
  );
  return {
    runCount: Number(count ?? 0),
    pipelineLatest: [pipeline?.latestRunId, pipeline?.latestRunStatus],
  };
}
