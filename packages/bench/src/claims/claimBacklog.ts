import { namedBenchDatabase } from '../databases';
import {
  applyDatabaseMigrations,
  changePipelineSteps,
  createStores,
  PipelineEngine,
  RUNNER_STEP_TYPES,
  Stores,
} from '../pluginInternals';

const quietLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return quietLogger;
  },
};

/** A stack requiring `runnerLabels`, with a run started on it: its plan waits for a claim. */
async function stackWaitingForRunner(
  stores: Stores,
  engine: PipelineEngine,
  scope: { organizationId: string; projectId: string; environmentId: string },
  index: number,
  runnerLabels: string[],
) {
  const stackId = await stores.stacks.create({
    organizationId: scope.organizationId,
    projectId: scope.projectId,
    environmentId: scope.environmentId,
    givenId: `stack-${index}`,
    name: `Stack ${index}`,
    autoApprove: false,
    runnerLabels,
  });
  const steps = changePipelineSteps(false);
  const pipeline = await stores.pipelines.create({
    organizationId: scope.organizationId,
    projectId: scope.projectId,
    stackId,
    givenId: `stack-${index}-change`,
    name: `Stack ${index}: change`,
    steps,
  });
  await stores.stacks.attachPipelines(stackId, {
    changePipelineId: pipeline.id,
    destroyPipelineId: pipeline.id,
  });
  await engine.start({
    organizationId: scope.organizationId,
    pipelineId: pipeline.id,
    pipelineVersionId: pipeline.latestVersionId!,
    projectId: scope.projectId,
    attachedEntityId: stackId,
    attachedEntityType: 'STACK',
    steps,
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/**
 * `yarn bench:claims`: what one claim costs while a backlog of steps waits for labels the
 * claiming runner lacks (a production runner down). `--stacks N` stacks require `env=prod`,
 * each with its plan queued, then one stack requiring nothing queues the newest step; each
 * runner's claim (the store's locking read, in a transaction) is timed `--repeat` times.
 */
export async function main(argv: string[]): Promise<number> {
  const option = (name: string, fallback: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : fallback;
  };
  const kinds =
    option('db', 'both') === 'both'
      ? (['sqlite', 'postgres'] as const)
      : [option('db', 'both') as 'sqlite' | 'postgres'];
  const backlog = Number(option('stacks', '5000'));
  const repeat = Number(option('repeat', '50'));
  for (const kind of kinds) {
    const database = namedBenchDatabase(kind, 'claims');
    await database.recreate();
    const knex = database.open();
    await applyDatabaseMigrations({ getClient: async () => knex }, knex);
    const stores = createStores(knex);
    const engine = new PipelineEngine({
      stores,
      logger: quietLogger,
      events: { runChanged: async () => {} },
    });
    const organization = await stores.organizations.create({ name: 'Claims' });
    const project = await stores.projects.createProject(organization.id, {
      givenId: 'claims',
      name: 'Claims',
    });
    const environment = await stores.projects.createEnvironment(
      organization.id,
      project.id,
      { givenId: 'production', name: 'Production' },
    );
    const scope = {
      organizationId: organization.id,
      projectId: project.id,
      environmentId: environment.id,
    };
    const started = Date.now();
    for (let i = 0; i < backlog; i++) {
      await stackWaitingForRunner(stores, engine, scope, i, ['env=prod']);
    }
    await stackWaitingForRunner(stores, engine, scope, backlog, []);
    process.stderr.write(
      `[${kind}] ${backlog} stacks requiring env=prod and one requiring nothing, each with its plan queued, in ${(
        (Date.now() - started) /
        1000
      ).toFixed(1)} s\n`,
    );
    for (const [who, labels] of [
      ['a runner without labels (takes the newest step, past the backlog)', []],
      ['a runner with env=prod (takes the oldest step)', ['env=prod']],
      ['a runner with env=dev (finds nothing)', ['env=dev']],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < repeat; i++) {
        const at = process.hrtime.bigint();
        await stores.transaction(tx =>
          tx.pipelineRuns.lockNextClaimableStep(
            organization.id,
            RUNNER_STEP_TYPES,
            [...labels],
          ),
        );
        times.push(Number(process.hrtime.bigint() - at) / 1e6);
      }
      times.sort((a, b) => a - b);
      process.stdout.write(
        `[${kind}] ${who}: p50 ${percentile(times, 0.5).toFixed(
          2,
        )} ms, p95 ${percentile(times, 0.95).toFixed(
          2,
        )} ms over ${repeat} claims\n`,
      );
    }
    await knex.destroy();
  }
  return 0;
}
