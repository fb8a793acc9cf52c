import { localDeployments } from '../__testUtils__/localDeployments';
import { mockServices } from '@backstage/backend-test-utils';
import {
  Deployment,
  deploymentSchema,
  PipelineStep,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import {
  act,
  createEnvironment,
  createPipeline,
  expectStatus,
  getRun,
  getSteps,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';
import { createStores } from '../database/stores';
import { DeploymentFollower } from '../services/DeploymentFollower';
import { StepDeploymentService } from '../services/StepDeploymentService';
import { ContainerDeployStepExecutor } from './ContainerDeployStepExecutor';
import { PipelineEngine } from './PipelineEngine';

jest.setTimeout(60_000);

const databases = createTestDatabases();
/** Long stages, so that only the test's own ticks (with a clock it chooses) move anything. */
const STAGE_MILLIS = 3_600_000;

describe.each(databases.eachSupportedId())(
  'container.deploy steps on %s',
  databaseId => {
    let knex: Knex;
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex, {
        config: {
          infraDelivery: {
            rateLimits: {
              signup: { limit: 100000 },
              tokenPerAddress: { limit: 100000 },
            },
            deployments: { localStageMillis: STAGE_MILLIS },
          },
        },
      });
    });

    /** One backend instance's scheduled pass, `hoursLater` on the clock. */
    function instance() {
      const stores = createStores(knex);
      const deps = {
        stores,
        deployments: localDeployments(stores, STAGE_MILLIS),
      };
      const follower = new DeploymentFollower(deps);
      const engine = new PipelineEngine({
        stores,
        logger: mockServices.logger.mock(),
        events: { runChanged: async () => undefined },
      });
      const steps = new ContainerDeployStepExecutor({
        stores,
        engine,
        deployments: new StepDeploymentService(deps),
        logger: mockServices.logger.mock(),
      });
      return {
        async tick(hoursLater: number) {
          const now = new Date(Date.now() + hoursLater * STAGE_MILLIS);
          await follower.followDeployments(now);
          await steps.tick(now);
        },
        steps,
      };
    }

    interface World {
      owner: TestOrganization;
      cloudAccountId: string;
      environmentId: string;
      projectId: string;
    }

    let counter = 0;
    async function world(): Promise<World> {
      const owner = await api.signup();
      counter += 1;
      const account = await api.post(
        '/cloud-accounts',
        {
          data: {
            givenId: `aws-${counter}`,
            name: 'AWS',
            cloudId: '123456789012',
          },
        },
        owner.token,
      );
      expectStatus(account, 201);
      expectStatus(
        await api.post(
          `/cloud-accounts/${account.body.data.id}/connect-local`,
          {},
          owner.token,
        ),
        200,
      );
      const { projectId, environmentId } = await createEnvironment(api, owner);
      return {
        owner,
        cloudAccountId: account.body.data.id,
        environmentId,
        projectId,
      };
    }

    async function logsOf(w: World, stepId: string): Promise<string[]> {
      const response = await api.get(
        `/pipeline-step-executions/${stepId}/logs`,
        w.owner.token,
      );
      expectStatus(response, 200);
      return response.body.data.map((line: { text: string }) => line.text);
    }

    function deployStep(
      w: World,
      config: Record<string, unknown> = {},
    ): PipelineStep {
      return {
        type: 'container.deploy',
        name: 'Deploy web',
        config: {
          cloudAccountId: w.cloudAccountId,
          region: 'eu-west-1',
          environmentId: w.environmentId,
          clusterRef: 'main',
          serviceRef: 'web',
          taskDefinition: {
            family: 'web',
            containerDefinitions: [
              { name: 'app', image: 'registry.example.com/web:1' },
            ],
          },
          ...config,
        },
      };
    }

    async function deploymentsOf(w: World): Promise<Deployment[]> {
      const response = await api.get('/deployments', w.owner.token);
      expectStatus(response, 200);
      return response.body.data.map((d: unknown) => deploymentSchema.parse(d));
    }

    it('deploys in-process and succeeds the step and the run when the deployment succeeds', async () => {
      const w = await world();
      const pipeline = await createPipeline(api, w.owner, {
        projectId: w.projectId,
        steps: [deployStep(w)],
      });
      const run = await trigger(api, w.owner, pipeline.id);
      expect((await getSteps(api, w.owner, run.id))[0].status).toBe('QUEUED');

      const backend = instance();
      await backend.tick(0);
      const [deployment] = await deploymentsOf(w);
      const [step] = await getSteps(api, w.owner, run.id);
      expect(step.status).toBe('RUNNING');
      expect(deployment).toMatchObject({
        status: 'IN_PROGRESS',
        triggerSource: 'PIPELINE',
        pipelineRunId: run.id,
        stepExecutionId: step.id,
        environmentId: w.environmentId,
        projectId: w.projectId,
        description: 'Deploy web: deploy web to web',
        data: { triggerChannel: 'PIPELINE', triggeredBy: run.createdById },
      });
      expect((await getRun(api, w.owner, run.id)).status).toBe('RUNNING');

      await backend.tick(1.5);
      expect((await getSteps(api, w.owner, run.id))[0].status).toBe('RUNNING');

      await backend.tick(10);
      const [done] = await getSteps(api, w.owner, run.id);
      expect(done).toMatchObject({
        status: 'SUCCEEDED',
        outputs: {
          deploymentId: deployment.id,
          deploymentStatus: 'SUCCEEDED',
          taskDefinitionRef: deployment.data.deployedTaskDefinition!.ref,
        },
      });
      expect((await getRun(api, w.owner, run.id)).status).toBe('SUCCEEDED');
      expect(await deploymentsOf(w)).toHaveLength(1);
      // The step's log tells each status of its deployment once, ticks between changes aside.
      expect(await logsOf(w, done.id)).toEqual([
        `Deployment ${deployment.id} of main / web: IN_PROGRESS`,
        `Deployment ${deployment.id} of main / web: SUCCEEDED`,
      ]);
    });

    it('fails the step and the run when the deployment fails', async () => {
      const w = await world();
      const pipeline = await createPipeline(api, w.owner, {
        projectId: w.projectId,
        steps: [
          deployStep(w, {
            taskDefinition: {
              family: 'web-fail',
              containerDefinitions: [{ name: 'app', image: 'broken:1' }],
            },
          }),
          { type: 'approval', name: 'Never reached' },
        ],
      });
      const run = await trigger(api, w.owner, pipeline.id);
      const backend = instance();
      await backend.tick(0);
      await backend.tick(5);

      const [deployment] = await deploymentsOf(w);
      expect(deployment.status).toBe('FAILED');
      const [step, after] = await getSteps(api, w.owner, run.id);
      expect(step).toMatchObject({
        status: 'FAILED',
        error: {
          code: 'InfraDelivery:StepExecution:DEPLOYMENT_NOT_SUCCEEDED',
          metadata: {
            deploymentId: deployment.id,
            deploymentStatus: 'FAILED',
            deploymentError: 'InfraDelivery:Deployment:TASKS_FAILED_TO_START',
          },
        },
      });
      expect(after.status).toBe('SKIPPED');
      const log = await logsOf(w, step.id);
      expect(log[log.length - 2]).toBe(
        `Deployment ${deployment.id} of main / web: FAILED`,
      );
      expect(log[log.length - 1]).toMatch(/^Error: /);
      const failedRun = await getRun(api, w.owner, run.id);
      expect(failedRun.status).toBe('FAILED');
      expect(failedRun.error?.code).toBe(
        'InfraDelivery:StepExecution:DEPLOYMENT_NOT_SUCCEEDED',
      );
    });

    it('cancels the deployment of a run that is cancelled', async () => {
      const w = await world();
      const pipeline = await createPipeline(api, w.owner, {
        projectId: w.projectId,
        steps: [deployStep(w)],
      });
      const run = await trigger(api, w.owner, pipeline.id);
      const backend = instance();
      await backend.tick(0);
      expect((await act(api, w.owner, run.id, 'cancel')).status).toBe(
        'CANCELLED',
      );
      expect((await getSteps(api, w.owner, run.id))[0].status).toBe(
        'CANCELLED',
      );

      await backend.tick(0.1);
      const [stopping] = await deploymentsOf(w);
      expect(stopping.data.revertRequestedAt).toBeDefined();
      await backend.tick(0.2);
      const [stopped] = await deploymentsOf(w);
      expect(stopped.status).toBe('CANCELLED');
      expect((await getRun(api, w.owner, run.id)).status).toBe('CANCELLED');
    });

    it('starts a new deployment for a retried attempt', async () => {
      const w = await world();
      const pipeline = await createPipeline(api, w.owner, {
        projectId: w.projectId,
        steps: [
          deployStep(w, {
            taskDefinition: {
              family: 'web-fail',
              containerDefinitions: [{ name: 'app', image: 'broken:1' }],
            },
          }),
        ],
      });
      const run = await trigger(api, w.owner, pipeline.id);
      const backend = instance();
      await backend.tick(0);
      await backend.tick(5);
      expect((await getRun(api, w.owner, run.id)).status).toBe('FAILED');

      await act(api, w.owner, run.id, 'retry');
      await backend.tick(6);
      await backend.tick(12);
      const deployments = await deploymentsOf(w);
      expect(deployments).toHaveLength(2);
      expect(new Set(deployments.map(d => d.stepExecutionId)).size).toBe(1);
      const [step] = await getSteps(api, w.owner, run.id);
      expect(step).toMatchObject({ attemptEpoch: 2, status: 'FAILED' });
      expect(step.error?.metadata?.deploymentId).toBe(deployments[0].id);
    });

    it('rolls a new image of the service’s last successful release', async () => {
      const w = await world();
      const first = await createPipeline(api, w.owner, {
        projectId: w.projectId,
        steps: [deployStep(w)],
      });
      const backend = instance();
      await trigger(api, w.owner, first.id);
      await backend.tick(0);
      await backend.tick(10);

      const imageOnly = await createPipeline(api, w.owner, {
        projectId: w.projectId,
        steps: [
          deployStep(w, {
            taskDefinition: undefined,
            image: { image: 'registry.example.com/web:2' },
          }),
        ],
      });
      const run = await trigger(api, w.owner, imageOnly.id);
      await backend.tick(20);
      const [latest] = await deploymentsOf(w);
      expect(latest.pipelineRunId).toBe(run.id);
      expect(latest.data.deployedTaskDefinition?.definition).toEqual({
        family: 'web',
        containerDefinitions: [
          { name: 'app', image: 'registry.example.com/web:2' },
        ],
      });
    });

    it('fails a step whose image has no release to go into', async () => {
      const w = await world();
      const pipeline = await createPipeline(api, w.owner, {
        projectId: w.projectId,
        steps: [
          deployStep(w, {
            taskDefinition: undefined,
            image: { image: 'registry.example.com/web:2' },
          }),
        ],
      });
      const run = await trigger(api, w.owner, pipeline.id);
      await instance().tick(0);
      const [step] = await getSteps(api, w.owner, run.id);
      expect(step.status).toBe('FAILED');
      expect(step.error?.code).toBe(
        'InfraDelivery:Deployment:NO_CURRENT_TASK_DEFINITION',
      );
      expect(await deploymentsOf(w)).toEqual([]);
    });

    it('starts one deployment per step attempt when instances tick together', async () => {
      const w = await world();
      const pipeline = await createPipeline(api, w.owner, {
        projectId: w.projectId,
        steps: [deployStep(w)],
      });
      const run = await trigger(api, w.owner, pipeline.id);
      await Promise.all([
        instance().tick(0),
        instance().tick(0),
        instance().tick(0),
      ]);
      expect(await deploymentsOf(w)).toHaveLength(1);

      // A step whose instance stopped before it inserted the deployment is taken up again.
      await knex('deployments').where({ pipeline_run_id: run.id }).delete();
      await instance().tick(0);
      expect(await deploymentsOf(w)).toHaveLength(0);
      await Promise.all([instance().tick(0.01), instance().tick(0.01)]);
      const again = await deploymentsOf(w);
      expect(again).toHaveLength(1);
      await instance().tick(10);
      expect((await getRun(api, w.owner, run.id)).status).toBe('SUCCEEDED');
    });

    it('refuses a container.deploy step without a valid config', async () => {
      const w = await world();
      const response = await api.post(
        '/pipelines',
        {
          data: {
            projectId: w.projectId,
            givenId: 'bad-deploy',
            name: 'Bad',
            steps: [
              {
                type: 'container.deploy',
                name: 'Deploy',
                config: {
                  cloudAccountId: w.cloudAccountId,
                  region: 'eu-west-1',
                  environmentId: w.environmentId,
                  clusterRef: 'main',
                  serviceRef: 'web',
                },
              },
            ],
          },
        },
        w.owner.token,
      );
      expectStatus(response, 400);
      expect(response.body.code).toBe(
        'InfraDelivery:Request:VALIDATION_FAILED',
      );
      expect(JSON.stringify(response.body.details)).toContain(
        'exactly one of taskDefinition or image',
      );
    });
  },
);
