import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import {
  LoggerService,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import {
  RunGitSource,
  stackPipelineName,
} from '@infra-delivery/plugin-infra-delivery-common';
import { latestRolePolicy } from '../cloud/rolePolicy';
import { Stores } from '../database/stores';
import { PipelineEngine } from '../engine/PipelineEngine';
import { ingestStepReport } from '../iac/ingestStepReport';
import {
  changePipelineSteps,
  destroyPipelineSteps,
} from '../services/StackService';
import { demoServiceAccountId } from './demoServiceAccount';
import { seedDemoModules } from './seedDemoModules';

/**
 * The runner that ran the demo's steps, signed in as the "Demo runner" service account (run
 * pages say "Plan on Demo runner"); no process runs it.
 */
const DEMO_RUNNER_ID = 'demo-runner';
/**
 * Stacks of the demo organization get well-known ids, so that the example catalog entities
 * (examples/entities.yaml) can name them in their `infra-delivery.io/stacks` annotation.
 */
export const DEMO_STACK_IDS = {
  monitoring: '0193a8c0-0000-7000-8000-00000000d001',
  network: '0193a8c0-0000-7000-8000-00000000d002',
} as const;

/** What each demo stack holds: the catalog shows it on the stack's entity. */
const DEMO_STACK_DESCRIPTIONS: Record<keyof typeof DEMO_STACK_IDS, string> = {
  monitoring: 'The alarms and dashboard of the payments API',
  network: 'The VPC and private subnets the payments API runs in',
};

/** The demo AWS account the example component's Metrics tab reads (local driver). */
export const DEMO_CLOUD_ACCOUNT_ID = '0193a8c0-0000-7000-8000-00000000c001';

/** The repository the demo's Network stack follows, and the commits its git-driven runs name. */
export const DEMO_REPOSITORY = {
  name: 'acme/network-infra',
  url: 'https://github.com/acme/network-infra',
} as const;
const DEMO_COMMITS = {
  pullRequestHead: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  merge: '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432',
};

/** A file of demo/plans (its README says what each is), parsed. */
async function demoFile(name: string): Promise<Record<string, unknown>> {
  const file = resolvePackagePath(
    '@infra-delivery/plugin-infra-delivery-backend',
    `demo/plans/${name}`,
  );
  return JSON.parse(await fs.readFile(file, 'utf8'));
}

const demoPlan = (name: string) => demoFile(`${name}.plan.json`);

/** The outputs a state file holds, by name: what its apply reported. */
async function demoOutputs(name: string): Promise<Record<string, unknown>> {
  const { outputs } = (await demoFile(`${name}.tfstate`)) as {
    outputs: Record<string, { value: unknown }>;
  };
  return Object.fromEntries(
    Object.entries(outputs).map(([output, { value }]) => [output, value]),
  );
}

/**
 * Seeds the portal organization with a project, environments, two stacks and runs in every
 * interesting state: an applied one, one waiting for approval, one held behind it, and a
 * failed one; modules (demo/seedDemoModules.ts); and cloud accounts, the stacks deploying into
 * the connected one. Runs through the engine exactly as runners would. Does nothing when the demo project exists already, so
 * every start after the first leaves the data alone.
 */
export async function seedDemoOrganization(options: {
  stores: Stores;
  engine: PipelineEngine;
  organizationId: string;
  logger: LoggerService;
}): Promise<void> {
  const { stores, engine, organizationId, logger } = options;
  const existing = await stores.projects.listProjects(organizationId, {
    limit: 500,
  });
  if (existing.items.some(p => p.givenId === 'payments')) {
    return;
  }
  logger.info('Seeding the demo organization');
  const demoActor = await demoServiceAccountId(stores, organizationId);
  const demoRunner = await demoServiceAccountId(
    stores,
    organizationId,
    'runner',
  );

  const project = await stores.projects.createProject(organizationId, {
    givenId: 'payments',
    name: 'Payments',
    description:
      'Demo project seeded because infraDelivery.demo.enabled is set',
  });
  const production = await stores.projects.createEnvironment(
    organizationId,
    project.id,
    { givenId: 'production', name: 'Production' },
  );
  await stores.projects.createEnvironment(organizationId, project.id, {
    givenId: 'staging',
    name: 'Staging',
  });

  const pipelines: Record<keyof typeof DEMO_STACK_IDS, string> = {
    monitoring: '',
    network: '',
  };
  for (const [key, stackId] of Object.entries(DEMO_STACK_IDS) as [
    keyof typeof DEMO_STACK_IDS,
    string,
  ][]) {
    await stores.transaction(async tx => {
      await tx.stacks.create({
        id: stackId,
        organizationId,
        projectId: project.id,
        environmentId: production.id,
        givenId: key,
        name: key === 'monitoring' ? 'Monitoring' : 'Network',
        description: DEMO_STACK_DESCRIPTIONS[key],
        path: key,
        autoApprove: false,
        // Drift detection is on for one stack, hourly.
        driftCheckIntervalHours: key === 'monitoring' ? 1 : undefined,
      });
      const change = await tx.pipelines.create({
        organizationId,
        projectId: project.id,
        stackId,
        givenId: `stack-${stackId}-change`,
        name: stackPipelineName(key, 'change'),
        steps: changePipelineSteps(false),
      });
      const destroy = await tx.pipelines.create({
        organizationId,
        projectId: project.id,
        stackId,
        givenId: `stack-${stackId}-destroy`,
        name: stackPipelineName(key, 'destroy'),
        steps: destroyPipelineSteps(false),
      });
      await tx.stacks.attachPipelines(stackId, {
        changePipelineId: change.id,
        destroyPipelineId: destroy.id,
      });
      pipelines[key] = change.id;
    });
  }

  const trigger = async (
    key: keyof typeof DEMO_STACK_IDS,
    description: string,
    input?: Record<string, unknown>,
  ) => {
    const pipeline = (await stores.pipelines.get(
      organizationId,
      pipelines[key],
    ))!;
    const version = (await stores.pipelines.getVersion(
      organizationId,
      pipeline.latestVersionId!,
    ))!;
    const run = await stores.pipelineRuns.createRun({
      organizationId,
      pipelineId: pipeline.id,
      pipelineVersionId: version.id,
      projectId: project.id,
      attachedEntityId: DEMO_STACK_IDS[key],
      attachedEntityType: 'STACK',
      description,
      ...(input ? { input } : {}),
      createdById: demoActor,
      data: { kind: 'stack' },
      steps: version.steps,
    });
    await engine.admit(run.id);
    return run.id;
  };

  /** A drift check as the scheduler starts it: the change pipeline's plan step alone. */
  const checkDrift = async (key: keyof typeof DEMO_STACK_IDS) => {
    const pipeline = (await stores.pipelines.get(
      organizationId,
      pipelines[key],
    ))!;
    const run = await stores.pipelineRuns.createRun({
      organizationId,
      pipelineId: pipeline.id,
      pipelineVersionId: pipeline.latestVersionId!,
      projectId: project.id,
      attachedEntityId: DEMO_STACK_IDS[key],
      attachedEntityType: 'STACK',
      description: 'Scheduled drift check',
      data: { kind: 'stack' },
      steps: [{ type: 'iac.plan', name: 'Plan (drift check)' }],
      kind: 'DRIFT_CHECK',
      triggerSource: 'DRIFT_SCHEDULE',
    });
    await engine.admit(run.id);
  };

  /**
   * Does what a runner would: claim the queued step and report the plan (and an apply's
   * `outputs`), or that the tool failed with `failure` (logged as a runner logs the tool's
   * error), as `demo-runner`.
   */
  const runStep = async (
    planJson: Record<string, unknown>,
    outcome: { outputs?: Record<string, unknown> } | { failure: string } = {},
  ) => {
    const claim = await engine.claim(
      organizationId,
      DEMO_RUNNER_ID,
      demoRunner,
    );
    if (!claim) return;
    const failure = 'failure' in outcome ? outcome.failure : undefined;
    await engine.appendLogs(organizationId, claim.step.id, claim.leaseToken, [
      { text: `${claim.step.name} (demo data, no cloud was called)` },
      ...(failure ? [{ text: failure }] : []),
    ]);
    const report = { planJson, ...outcome };
    await engine.complete(
      organizationId,
      claim.step.id,
      claim.leaseToken,
      failure
        ? {
            status: 'FAILED',
            error: {
              code: 'InfraDelivery:Runner:COMMAND_FAILED',
              message: `tofu plan exited with 1: ${failure}`,
            },
          }
        : { status: 'SUCCEEDED' },
      failure
        ? undefined
        : (tx, step, run) => ingestStepReport(tx, step, run, report),
    );
  };

  // Each plan is one the local runner makes of the example module (examples/iac): the plan
  // waiting for approval is of the state the initial rollout left (scripts/local-runner gives
  // the runner that state), so approved, its apply plans the same changes and makes them. A
  // plan of other code or state would be refused as changed since its approval.
  const monitoringPlan = await demoPlan('monitoring');
  const networkPlan = await demoPlan('network');

  // Monitoring: applied once; its drift check found the CPU alarm changed by hand; a second
  // change waits for approval; a third is held behind it.
  const applied = await trigger('monitoring', 'Initial rollout');
  await runStep(monitoringPlan);
  await engine.approve(
    (await stores.pipelineRuns.getRunForEngine(applied))!,
    true,
  );
  await runStep(monitoringPlan, { outputs: await demoOutputs('monitoring') });
  await checkDrift('monitoring');
  await runStep(await demoPlan('monitoring-drift'));
  const raisedThresholds = { alarm_threshold_percent: 90 };
  await trigger('monitoring', 'Raise the alert thresholds', raisedThresholds);
  await runStep(await demoPlan('monitoring-alerts'));
  await trigger('monitoring', 'Add the on-call route', {
    ...raisedThresholds,
    on_call_route: 'payments-primary',
  });

  // Network: a plan that failed.
  await trigger('network', 'First plan');
  await runStep(networkPlan, {
    failure:
      'Error: Reference to undeclared input variable "subnet_count" (main.tf line 24)',
  });

  // Network follows its repository: a pull request got its plan, then the merge's push
  // started the change pipeline, whose plan failed (the stack stays free for whoever plans it
  // next).
  const repository = await stores.codeSources.create({
    organizationId,
    forgeInstallationId: 'demo',
    forgeHost: 'github.com',
    gitRepositoryId: '1',
    repoName: DEMO_REPOSITORY.name,
    repoUrl: DEMO_REPOSITORY.url,
    defaultBranch: 'main',
    visibility: 'PRIVATE',
  });
  await stores.stacks.update(organizationId, DEMO_STACK_IDS.network, {
    codeSourceId: repository.id,
    gitTrigger: {
      branch: 'main',
      pushRuns: true,
      pullRequestPlans: true,
      pullRequestComments: true,
    },
  });
  const gitRun = async (
    description: string,
    gitSource: Omit<RunGitSource, 'codeSourceId' | 'repository' | 'repoUrl'>,
  ) => {
    const pipeline = (await stores.pipelines.get(
      organizationId,
      pipelines.network,
    ))!;
    const version = (await stores.pipelines.getVersion(
      organizationId,
      pipeline.latestVersionId!,
    ))!;
    const pullRequest = gitSource.pullRequest;
    const run = await stores.pipelineRuns.createRun({
      organizationId,
      pipelineId: pipeline.id,
      pipelineVersionId: version.id,
      projectId: project.id,
      attachedEntityId: DEMO_STACK_IDS.network,
      attachedEntityType: 'STACK',
      description,
      data: { kind: 'stack' },
      steps: pullRequest
        ? [
            {
              type: 'iac.plan',
              name: `Plan (pull request #${pullRequest.number})`,
            },
          ]
        : version.steps,
      kind: pullRequest ? 'PULL_REQUEST_PLAN' : 'STANDARD',
      triggerSource: pullRequest ? 'PULL_REQUEST' : 'GIT_PUSH',
      triggerMetadata: {
        trigger_given_id: 'receiveGithubWebhook',
        webhook_event: pullRequest ? 'pull_request.opened' : 'push',
      },
      gitSource: {
        ...gitSource,
        codeSourceId: repository.id,
        repository: DEMO_REPOSITORY.name,
        repoUrl: DEMO_REPOSITORY.url,
      },
    });
    await engine.admit(run.id);
  };
  await gitRun('Plan of pull request #12: Widen the private subnets', {
    branch: 'widen-subnets',
    commit: {
      sha: DEMO_COMMITS.pullRequestHead,
      message: 'Widen the private subnets',
      author: 'alice',
      url: `${DEMO_REPOSITORY.url}/commit/${DEMO_COMMITS.pullRequestHead}`,
    },
    pullRequest: {
      number: 12,
      url: `${DEMO_REPOSITORY.url}/pull/12`,
      title: 'Widen the private subnets',
      baseBranch: 'main',
    },
    webhookDeliveryId: '5b0e6a80-0000-11f0-8000-00000000d012',
  });
  await runStep(networkPlan);
  await gitRun('Push to main: Widen the private subnets (#12)', {
    branch: 'main',
    commit: {
      sha: DEMO_COMMITS.merge,
      message: 'Widen the private subnets (#12)',
      author: 'alice',
      url: `${DEMO_REPOSITORY.url}/commit/${DEMO_COMMITS.merge}`,
    },
    webhookDeliveryId: '5b0e6a80-0000-11f0-8000-00000000d013',
  });
  // Its plan found the state locked by a plan someone ran by hand: Retry is what it needs.
  await runStep(networkPlan, {
    failure:
      'Error acquiring the state lock: held by alice@alice-laptop (terraform plan, since 09:12 UTC)',
  });

  await seedDemoModules({
    stores,
    organizationId,
    codeSourceId: repository.id,
    production,
    commits: { older: DEMO_COMMITS.pullRequestHead, newer: DEMO_COMMITS.merge },
  });

  // Cloud accounts: one connected the way the local driver connects, one awaiting.
  const productionAccount = await stores.cloudAccounts.create({
    id: DEMO_CLOUD_ACCOUNT_ID,
    organizationId,
    givenId: 'demo-production',
    name: 'Production (demo)',
    cloudId: '111111111111',
    externalId: randomUUID(),
  });
  await stores.cloudAccounts.recordConnection(
    organizationId,
    productionAccount.id,
    { status: 'AWAITING_CONNECTION', roleVersion: undefined },
    {
      cloudRef: 'arn:aws:iam::111111111111:role/infra-delivery/local-driver',
      roleVersion: latestRolePolicy.version,
      templateStackId:
        'arn:aws:cloudformation:eu-west-1:111111111111:stack/infra-delivery-demo/1',
    },
  );
  await stores.cloudAccounts.create({
    organizationId,
    givenId: 'demo-sandbox',
    name: 'Sandbox (demo)',
    cloudId: '222222222222',
    externalId: randomUUID(),
  });

  // The catalog shows the demo stacks depending on the account they deploy into.
  for (const stackId of Object.values(DEMO_STACK_IDS)) {
    await stores.stacks.update(organizationId, stackId, {
      cloudAccountId: productionAccount.id,
    });
  }
}
