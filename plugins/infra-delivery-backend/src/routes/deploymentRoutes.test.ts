import { followLocalDeployments } from '../__testUtils__/localDeployments';
import fs from 'node:fs';
import path from 'node:path';
import {
  ContinueServiceDeploymentCommand,
  DescribeServiceDeploymentsCommand,
  DescribeServicesCommand,
  DescribeTaskDefinitionCommand,
  ECSClient,
  RegisterTaskDefinitionCommand,
  UpdateServiceCommand,
} from '@aws-sdk/client-ecs';
import { mockServices } from '@backstage/backend-test-utils';
import { mockClient } from 'aws-sdk-client-mock';
import {
  Deployment,
  deploymentSchema,
  errorBodySchema,
  INGEST_TOKEN_HEADER,
  infrastructureEventSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import request from 'supertest';
import {
  createEnvironment,
  expectStatus,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { createStores } from '../database/stores';
import { AwsEcsDeploymentProvider } from '../providers/aws/AwsEcsDeploymentProvider';
import { DeploymentFollower } from '../services/DeploymentFollower';
import { DeploymentService } from '../services/DeploymentService';

jest.setTimeout(60_000);

const databases = createTestDatabases();
const INGEST_TOKEN = 'test-ingest-token-0123456789abcdef0123456789';
/** Long stages, so that only the test's own ticks (with a clock it chooses) move anything. */
const STAGE_MILLIS = 3_600_000;

const fixtures = path.resolve(
  __dirname,
  '../deployments/__fixtures__/ecs-events',
);
function fixture(name: string): any {
  return JSON.parse(
    fs.readFileSync(path.join(fixtures, `${name}.json`), 'utf8'),
  );
}

function errorCode(response: request.Response, status: number): string {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: expect.anything(),
  });
  return errorBodySchema.parse(response.body).code;
}

let counter = 0;
function taskDefinition(family = 'web') {
  counter += 1;
  return {
    family,
    containerDefinitions: [
      {
        name: 'app',
        image: `registry.example.com/web:${counter}`,
        essential: true,
        portMappings: [{ containerPort: 8080 }],
        environment: [
          { name: 'Z_LAST', value: 'ü' },
          { name: 'A_FIRST', value: '1' },
        ],
      },
    ],
    cpu: '256',
    memory: '512',
  };
}

describe.each(databases.eachSupportedId())(
  'deployment routes on %s',
  databaseId => {
    let knex: Knex;
    let api: InfraDeliveryTestClient;
    const auditor = mockServices.auditor.mock();

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
            events: { ingestToken: INGEST_TOKEN },
          },
        },
        extraFeatures: [auditor.factory],
      });
    });

    /** One pass of the scheduled follower, `hoursLater` on the clock. */
    async function tick(hoursLater: number) {
      await followLocalDeployments(knex, STAGE_MILLIS, hoursLater);
    }

    interface World {
      owner: TestOrganization;
      cloudAccountId: string;
      environmentId: string;
      projectId: string;
    }

    async function world(cloudId = '123456789012'): Promise<World> {
      const owner = await api.signup();
      counter += 1;
      const account = await api.post(
        '/cloud-accounts',
        { data: { givenId: `aws-${counter}`, name: 'AWS', cloudId } },
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

    async function deploy(
      w: World,
      overrides: Record<string, unknown> = {},
      token = w.owner.token,
    ): Promise<request.Response> {
      return api.post(
        '/deployments',
        {
          data: {
            cloudAccountId: w.cloudAccountId,
            region: 'eu-west-1',
            environmentId: w.environmentId,
            clusterRef: 'main',
            serviceRef: 'web',
            taskDefinition: taskDefinition(),
            ...overrides,
          },
        },
        token,
      );
    }

    async function get(w: World, id: string): Promise<Deployment> {
      const response = await api.get(`/deployments/${id}`, w.owner.token);
      expectStatus(response, 200);
      return deploymentSchema.parse(response.body.data);
    }

    /** A deployment that the follower took to its end. */
    async function finishedDeployment(
      w: World,
      overrides: Record<string, unknown> = {},
    ) {
      const created = await deploy(w, overrides);
      expectStatus(created, 201);
      await tick(10);
      return get(w, created.body.data.id);
    }

    function ingest(event: unknown, token: string | null = INGEST_TOKEN) {
      const req = request(api.server)
        .post('/api/infra-delivery/infrastructure-events/ingest')
        .send(event as object);
      return token ? req.set(INGEST_TOKEN_HEADER, token) : req;
    }

    async function eventsOf(w: World, query: string) {
      const response = await api.get(
        `/infrastructure-events?${query}`,
        w.owner.token,
      );
      expectStatus(response, 200);
      return response.body.data.data.map((e: unknown) =>
        infrastructureEventSchema.parse(e),
      );
    }

    describe('deployments', () => {
      it('registers and rolls a release, and the tick follows it to SUCCEEDED', async () => {
        const w = await world();
        const definition = taskDefinition();
        const created = await deploy(w, {
          taskDefinition: definition,
          description: 'First',
        });
        expectStatus(created, 201);
        const deployment = deploymentSchema.parse(created.body.data);
        expect(deployment).toMatchObject({
          status: 'IN_PROGRESS',
          triggerSource: 'API',
          description: 'First',
          environmentId: w.environmentId,
          projectId: w.projectId,
          resourceRef: 'arn:aws:ecs:eu-west-1:123456789012:service/main/web',
          data: {
            type: 'cloud:container',
            clusterRef: 'main',
            serviceRef: 'web',
            strategy: 'rolling',
            deployedTaskDefinition: { definition },
          },
        });
        expect(deployment.data.events.map(e => e.stepCode)).toEqual(['INIT']);
        expect(deployment.externalDeploymentId).toMatch(/^ecs-svc\//);
        // #17: a service without lifecycle hooks, and no module instance behind the release.
        expect(deployment.data).toMatchObject({
          preDeployEnabled: false,
          postDeployEnabled: false,
        });
        expect(deployment.data).not.toHaveProperty(
          'containerModuleDeploymentId',
        );

        await tick(1.5);
        const halfway = await get(w, deployment.id);
        expect(halfway.status).toBe('IN_PROGRESS');
        expect(halfway.data.events.map(e => e.lifecycleStage)).toEqual([
          'RECONCILE_SERVICE',
          'SCALE_UP',
        ]);

        await tick(10);
        const done = await get(w, deployment.id);
        expect(done.status).toBe('SUCCEEDED');
        expect(done.completedAt).toBeDefined();
        expect(
          done.data.events.map(e => [e.stepCode, e.currentStep, e.totalSteps]),
        ).toEqual([
          ['INIT', 1, 4],
          ['IN_PROGRESS', 2, 4],
          ['SUCCEEDED', 4, 4],
        ]);
        expect(done.data.serviceDeploymentState).toMatchObject({
          status: 'SUCCEEDED',
        });
        await tick(20);
        expect((await get(w, deployment.id)).updatedAt).toBe(done.updatedAt);
        expect(auditor.createEvent).toHaveBeenCalledWith(
          expect.objectContaining({ eventId: 'deployment-create' }),
        );
      });

      it('fails a release whose tasks do not start', async () => {
        const w = await world();
        const failed = await finishedDeployment(w, {
          taskDefinition: taskDefinition('web-fail'),
        });
        expect(failed.status).toBe('FAILED');
        expect(failed.error?.code).toBe(
          'InfraDelivery:Deployment:TASKS_FAILED_TO_START',
        );
        // It says why, and which rule of the local driver failed it.
        expect(failed.error?.message).toMatch(
          /^Tasks of the new revision failed to start: essential container in task exited \(the local driver fails every task definition family ending in -fail\)$/,
        );
      });

      it('numbers the revisions of each family 1, 2, 3… per account and region, as ECS does', async () => {
        // An account of its own: revisions are the account's, whichever organization registers.
        const cloudId = String(900_000_000_000 + counter);
        const w = await world(cloudId);
        const revisionOf = async (family: string, region = 'eu-west-1') => {
          const finished = await finishedDeployment(w, {
            taskDefinition: taskDefinition(family),
            region,
          });
          return finished.data.deployedTaskDefinition;
        };
        const first = await revisionOf('numbered');
        expect(first).toMatchObject({
          revision: 1,
          ref: `arn:aws:ecs:eu-west-1:${cloudId}:task-definition/numbered:1`,
        });
        // The same definition again is a new registration, as with ECS.
        expect((await revisionOf('numbered'))?.revision).toBe(2);
        expect((await revisionOf('numbered-fail'))?.revision).toBe(1);
        expect((await revisionOf('numbered', 'us-east-1'))?.revision).toBe(1);
        expect((await revisionOf('numbered'))?.revision).toBe(3);
      });

      it('keeps one deployment per service in flight', async () => {
        const w = await world();
        expectStatus(await deploy(w), 201);
        expect(errorCode(await deploy(w), 409)).toBe(
          'InfraDelivery:Deployment:SERVICE_BUSY',
        );
        expectStatus(await deploy(w, { serviceRef: 'worker' }), 201);
      });

      it('pauses at a lifecycle hook until continued', async () => {
        const w = await world();
        const created = await deploy(w, {
          taskDefinition: taskDefinition('web-pause'),
        });
        expectStatus(created, 201);
        const id = created.body.data.id;
        expect(
          errorCode(
            await api.post(`/deployments/${id}/continue`, {}, w.owner.token),
            409,
          ),
        ).toBe('InfraDelivery:Deployment:NOT_PAUSED');
        await tick(5);
        const paused = await get(w, id);
        expect(paused.status).toBe('IN_PROGRESS');
        // #17: the hook waits before the production traffic shift.
        expect(paused.data).toMatchObject({
          preDeployEnabled: true,
          postDeployEnabled: false,
        });
        const hook = paused.data.events[paused.data.events.length - 1];
        expect(hook.hookId).toBeDefined();

        const continued = await api.post(
          `/deployments/${id}/continue`,
          {},
          w.owner.token,
        );
        expectStatus(continued, 200);
        expect(continued.body.data.data.acceptedPauseControl).toMatchObject({
          action: 'CONTINUE',
          labelKind: 'continue',
          hookId: hook.hookId,
          eventStartedAt: hook.startedAt,
        });
        await tick(10);
        expect((await get(w, id)).status).toBe('SUCCEEDED');
      });

      it('simulates a blue/green deployment with its listener rules and a pause after the test traffic shift', async () => {
        const w = await world();
        const created = await deploy(w, {
          taskDefinition: taskDefinition('web-bluegreen-pause'),
        });
        expectStatus(created, 201);
        const deployment = deploymentSchema.parse(created.body.data);
        const elb = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012';
        expect(deployment.data.strategy).toBe('blue_green');
        expect(deployment.data.elbListenerState).toEqual([
          {
            capturedAt: expect.any(String),
            loadBalancerRef: expect.stringMatching(
              new RegExp(`^${elb}:loadbalancer/app/web/`),
            ),
            rules: [
              expect.objectContaining({
                role: 'production',
                targetGroupName: 'web-blue',
              }),
              expect.objectContaining({
                role: 'test',
                targetGroupName: 'web-green',
              }),
            ],
          },
        ]);
        await tick(2.5);
        await tick(5);
        const paused = await get(w, deployment.id);
        expect(
          paused.data.events.map(e => [
            e.lifecycleStage,
            e.trafficPhase,
            e.currentStep,
            e.totalSteps,
            Boolean(e.hookId),
          ]),
        ).toEqual([
          ['RECONCILE_SERVICE', 'standby', 1, 10, false],
          ['TEST_TRAFFIC_SHIFT', 'test', 5, 10, false],
          ['POST_TEST_TRAFFIC_SHIFT', 'test', 6, 10, true],
        ]);
        expect(paused.data.serviceDeploymentState).toMatchObject({
          strategy: 'BLUE_GREEN',
          lifecycleStage: 'POST_TEST_TRAFFIC_SHIFT',
        });
        expectStatus(
          await api.post(
            `/deployments/${deployment.id}/continue`,
            {},
            w.owner.token,
          ),
          200,
        );
        await tick(10);
        const done = await get(w, deployment.id);
        expect(done.status).toBe('SUCCEEDED');
        expect(done.data.events.at(-1)).toMatchObject({
          stepCode: 'SUCCEEDED',
          lifecycleStage: 'CLEAN_UP',
          trafficPhase: 'production',
          currentStep: 10,
        });
      });

      it('cancels a deployment in progress, and the follower ends it CANCELLED', async () => {
        const w = await world();
        const created = await deploy(w);
        expectStatus(created, 201);
        const id = created.body.data.id;
        const cancelling = await api.post(
          `/deployments/${id}/cancel`,
          {},
          w.owner.token,
        );
        expectStatus(cancelling, 200);
        const requested = deploymentSchema.parse(cancelling.body.data);
        expect(requested.status).toBe('IN_PROGRESS');
        expect(requested.data).toMatchObject({
          revertRequestedAt: expect.any(String),
          revertExternalDeploymentId: requested.externalDeploymentId,
          revertServiceDeploymentRef: requested.data.serviceDeploymentRef,
        });
        // A second cancel says the first one is under way, not that the deployment is not
        // in progress (it still is, until ECS has rolled the service back).
        const again = await api.post(
          `/deployments/${id}/cancel`,
          {},
          w.owner.token,
        );
        expect(errorCode(again, 409)).toBe(
          'InfraDelivery:Deployment:NOT_CANCELLABLE',
        );
        expect(again.body.message).toBe(
          `Deployment ${id} is already being cancelled (since ${requested.data.revertRequestedAt}); it ends CANCELLED once the service is rolled back`,
        );
        expect(again.body.metadata).toEqual({
          status: 'IN_PROGRESS',
          revertRequestedAt: requested.data.revertRequestedAt,
        });

        await tick(0.5);
        const cancelled = await get(w, id);
        expect(cancelled.status).toBe('CANCELLED');
        expect(cancelled.completedAt).toBeDefined();
        expect(cancelled.error?.code).toBe(
          'InfraDelivery:Deployment:CANCELLED',
        );
        expect(cancelled.data.events.map(e => e.stepCode)).toEqual([
          'INIT',
          'CANCELLED',
        ]);
        const ended = await api.post(
          `/deployments/${id}/cancel`,
          {},
          w.owner.token,
        );
        expect(errorCode(ended, 409)).toBe(
          'InfraDelivery:Deployment:NOT_CANCELLABLE',
        );
        expect(ended.body.message).toBe(
          `Deployment ${id} is CANCELLED; only a deployment in progress can be cancelled`,
        );
        const other = await world();
        expect(
          errorCode(
            await api.post(`/deployments/${id}/cancel`, {}, other.owner.token),
            404,
          ),
        ).toBe('InfraDelivery:Deployment:NOT_FOUND');
        expect(auditor.createEvent).toHaveBeenCalledWith(
          expect.objectContaining({ eventId: 'deployment-cancel' }),
        );
      });

      it('cancels a PENDING deployment at once', async () => {
        const w = await world();
        const created = await deploy(w);
        expectStatus(created, 201);
        const id = created.body.data.id;
        await knex('deployments').where({ id }).update({ status: 'PENDING' });
        const cancelled = await api.post(
          `/deployments/${id}/cancel`,
          {},
          w.owner.token,
        );
        expectStatus(cancelled, 200);
        expect(cancelled.body.data).toMatchObject({
          status: 'CANCELLED',
          error: { code: 'InfraDelivery:Deployment:CANCELLED' },
        });
        expectStatus(await deploy(w), 201);
      });

      it('refuses to delete a cloud account that deployments were made with (409), and keeps them', async () => {
        const w = await world();
        const finished = await finishedDeployment(w);
        const running = await deploy(w, { serviceRef: 'api' });
        expectStatus(running, 201);
        expect(running.body.data.status).toBe('IN_PROGRESS');

        const refused = await api.delete(
          `/cloud-accounts/${w.cloudAccountId}`,
          w.owner.token,
        );
        expect(errorCode(refused, 409)).toBe(
          'InfraDelivery:CloudAccount:IN_USE',
        );
        expect(refused.body.message).toBe(
          '2 deployments were made with this cloud account (1 of them still in progress); their history and rollbacks need it, so it cannot be removed',
        );
        expect(refused.body.metadata).toEqual({
          cloudAccountId: w.cloudAccountId,
          deployments: 2,
          deploymentsInProgress: 1,
        });

        // Nothing went: the account, both deployments, and the rollback to the first.
        expectStatus(
          await api.get(`/cloud-accounts/${w.cloudAccountId}`, w.owner.token),
          200,
        );
        const listed = await api.get('/deployments', w.owner.token);
        expectStatus(listed, 200);
        expect(listed.body.data.map((d: Deployment) => d.id).sort()).toEqual(
          [finished.id, running.body.data.id].sort(),
        );
        await tick(10);
        await finishedDeployment(w);
        expectStatus(
          await api.post(
            `/deployments/${finished.id}/rollback`,
            undefined,
            w.owner.token,
          ),
          201,
        );

        // An account without deployments still goes.
        const unused = await api.post(
          '/cloud-accounts',
          {
            data: {
              givenId: 'unused',
              name: 'Unused',
              cloudId: '000000000001',
            },
          },
          w.owner.token,
        );
        expectStatus(unused, 201);
        expectStatus(
          await api.delete(
            `/cloud-accounts/${unused.body.data.id}`,
            w.owner.token,
          ),
          204,
        );
      });

      it('redeploys the exact release of a finished deployment', async () => {
        const w = await world();
        const source = await finishedDeployment(w);
        expect(source.status).toBe('SUCCEEDED');
        const response = await api.post(
          `/deployments/${source.id}/redeploy`,
          {},
          w.owner.token,
        );
        expectStatus(response, 201);
        const again = deploymentSchema.parse(response.body.data);
        expect(again).toMatchObject({
          status: 'IN_PROGRESS',
          triggerSource: 'REDEPLOY',
          redeployOfDeploymentId: source.id,
          environmentId: source.environmentId,
          data: { triggerChannel: 'REDEPLOY' },
        });
        // Named after the release it deploys again; the id is in redeployOfDeploymentId.
        expect(again.description).toContain(`“${source.description}”`);
        expect(JSON.stringify(again.data.deployedTaskDefinition)).toBe(
          JSON.stringify(source.data.deployedTaskDefinition),
        );
        expect(
          errorCode(
            await api.post(
              `/deployments/${source.id}/redeploy`,
              {},
              w.owner.token,
            ),
            409,
          ),
        ).toBe('InfraDelivery:Deployment:SERVICE_BUSY');
        expect(
          errorCode(
            await api.post(
              `/deployments/${again.id}/redeploy`,
              {},
              w.owner.token,
            ),
            422,
          ),
        ).toBe('InfraDelivery:Deployment:NOT_REDEPLOYABLE');
        const other = await world();
        expect(
          errorCode(
            await api.post(
              `/deployments/${source.id}/redeploy`,
              {},
              other.owner.token,
            ),
            404,
          ),
        ).toBe('InfraDelivery:Deployment:NOT_FOUND');
      });

      describe('an image into the current release', () => {
        /** A deployment of an image alone, with no task definition. */
        function deployImage(
          w: World,
          image: Record<string, unknown>,
          token = w.owner.token,
          overrides: Record<string, unknown> = {},
        ) {
          return deploy(
            w,
            { taskDefinition: undefined, image, ...overrides },
            token,
          );
        }

        it('rolls the last successful release with the new image and every other field kept', async () => {
          const w = await world();
          const running = await finishedDeployment(w);
          const created = await deployImage(w, {
            image: 'registry.example.com/web:2.0.0',
          });
          expectStatus(created, 201);
          const deployment = deploymentSchema.parse(created.body.data);
          const before = running.data.deployedTaskDefinition!.definition;
          expect(deployment).toMatchObject({
            status: 'IN_PROGRESS',
            triggerSource: 'API',
            // Named after the build people know it by, not the family that stays the same.
            description: 'Deploy web:2.0.0 to web',
            data: {
              deployedTaskDefinition: {
                revision: running.data.deployedTaskDefinition!.revision + 1,
                definition: {
                  ...before,
                  containerDefinitions: [
                    {
                      ...(before.containerDefinitions as object[])[0],
                      image: 'registry.example.com/web:2.0.0',
                    },
                  ],
                },
              },
            },
          });
          expect(auditor.createEvent).toHaveBeenCalledWith(
            expect.objectContaining({
              eventId: 'deployment-create',
              meta: expect.objectContaining({
                image: 'registry.example.com/web:2.0.0',
              }),
            }),
          );
          await tick(10);
          expect((await get(w, deployment.id)).status).toBe('SUCCEEDED');
        });

        it('refuses a release that is not one image or one task definition (400), a container it cannot find and a service without a release (422)', async () => {
          const w = await world();
          for (const body of [
            { image: { image: 'web:2' }, taskDefinition: taskDefinition() },
            { taskDefinition: undefined },
            { taskDefinition: undefined, image: { image: 'web 2' } },
            { taskDefinition: undefined, image: { image: '' } },
          ]) {
            expect(errorCode(await deploy(w, body), 400)).toBe(
              'InfraDelivery:Request:VALIDATION_FAILED',
            );
          }
          // The local driver reports no task definition for a service it never rolled.
          expect(errorCode(await deployImage(w, { image: 'web:2' }), 422)).toBe(
            'InfraDelivery:Deployment:NO_CURRENT_TASK_DEFINITION',
          );
          await finishedDeployment(w);
          expect(
            errorCode(
              await deployImage(w, {
                image: 'web:2',
                containerName: 'sidecar',
              }),
              422,
            ),
          ).toBe('InfraDelivery:Deployment:CONTAINER_NOT_FOUND');
          expect(
            await api.get(
              '/deployments?serviceRef=web&clusterRef=main',
              w.owner.token,
            ),
          ).toMatchObject({
            body: { meta: { totalCount: 1 } },
          });
        });

        it('needs MEMBER, a credential and the caller’s own cloud account', async () => {
          const w = await world();
          await finishedDeployment(w);
          const other = await world();
          const viewer = await api.member(w.owner, 'VIEWER');
          expect(
            errorCode(
              await deployImage(w, { image: 'web:2' }, viewer.token),
              403,
            ),
          ).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
          expect(
            errorCode(
              await api.post('/deployments', {
                data: {
                  cloudAccountId: w.cloudAccountId,
                  region: 'eu-west-1',
                  environmentId: w.environmentId,
                  clusterRef: 'main',
                  serviceRef: 'web',
                  image: { image: 'web:2' },
                },
              }),
              401,
            ),
          ).toMatch(/^InfraDelivery:Auth:/);
          // Another organization's service: its account and environment are answered as missing.
          expect(
            errorCode(
              await deployImage(w, { image: 'web:2' }, other.owner.token, {
                cloudAccountId: w.cloudAccountId,
                environmentId: other.environmentId,
              }),
              404,
            ),
          ).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
          const member = await api.member(w.owner, 'MEMBER');
          expectStatus(
            await deployImage(w, { image: 'web:2' }, member.token),
            201,
          );
        });
      });

      describe('on ECS', () => {
        const ecs = mockClient(ECSClient);
        const SD_ARN =
          'arn:aws:ecs:eu-west-1:123456789012:service-deployment/main/web/r9i43YFjvgF_xlg7m2eJ1r';
        const TD_ARN =
          'arn:aws:ecs:eu-west-1:123456789012:task-definition/web:7';
        const LB = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012';
        const HOOK = 'ecs-pause-Xk7rT2mP9sLwQn4vB8fYd3hJ6gA1cE5iO0uR_ZpWq';

        afterAll(() => ecs.restore());

        function awsDeployments() {
          const deps = {
            stores: createStores(knex),
            authorizer: new Authorizer(mockServices.permissions()),
            auditor,
            deployments: {
              provider: new AwsEcsDeploymentProvider({
                credentialsFor: async () => ({
                  accessKeyId: 'AKIA',
                  secretAccessKey: 'secret',
                  sessionToken: 'session',
                }),
                baseDelayMillis: 1,
              }),
            },
          };
          return Object.assign(new DeploymentService(deps), {
            follower: new DeploymentFollower(deps),
          });
        }

        function paused(hookStatus: string, stage: string) {
          return {
            serviceDeployments: [
              {
                serviceDeploymentArn: SD_ARN,
                status: 'IN_PROGRESS' as const,
                lifecycleStage: stage as any,
                deploymentConfiguration: { strategy: 'BLUE_GREEN' as const },
                targetServiceRevision: {
                  arn: 'rev-new',
                  requestedTaskCount: 2,
                  runningTaskCount: 2,
                },
                lifecycleHookDetails: [
                  {
                    hookId: HOOK,
                    targetType: 'PAUSE' as const,
                    status: hookStatus as any,
                  },
                ],
              },
            ],
          };
        }

        it('shows a pause hook of a blue/green deployment and continues it through ECS', async () => {
          const w = await world();
          ecs.reset();
          ecs.on(DescribeServicesCommand).resolves({ services: [{}] });
          ecs.on(RegisterTaskDefinitionCommand).resolves({
            taskDefinition: { taskDefinitionArn: TD_ARN, revision: 7 },
          });
          ecs.on(UpdateServiceCommand).resolves({
            service: {
              serviceArn: 'arn:aws:ecs:eu-west-1:123456789012:service/main/web',
              currentServiceDeployment: SD_ARN,
              deploymentConfiguration: { strategy: 'BLUE_GREEN' },
              loadBalancers: [
                {
                  targetGroupArn: `${LB}:targetgroup/web-blue/1`,
                  advancedConfiguration: {
                    alternateTargetGroupArn: `${LB}:targetgroup/web-green/2`,
                    productionListenerRule: `${LB}:listener-rule/app/web/a/b/c`,
                  },
                },
              ],
              deployments: [
                { id: 'ecs-svc/1', status: 'PRIMARY', taskDefinition: TD_ARN },
              ],
            },
          });
          ecs.on(DescribeTaskDefinitionCommand).resolves({});
          const caller: Caller = {
            organizationId: w.owner.organizationId,
            role: 'OWNER',
            principal: {
              type: 'membership',
              membershipId: 'membership-1',
              userId: 'user-1',
            },
            credentialKind: 'access-token',
          };
          const service = awsDeployments();
          const created = await service.create(caller, {
            cloudAccountId: w.cloudAccountId,
            region: 'eu-west-1',
            environmentId: w.environmentId,
            clusterRef: 'main',
            serviceRef: 'web',
            taskDefinition: taskDefinition(),
          });
          expect(created.data).toMatchObject({
            serviceDeploymentRef: SD_ARN,
            strategy: 'blue_green',
            elbListenerState: [
              {
                loadBalancerRef: `${LB}:loadbalancer/app/web/a`,
                rules: [
                  {
                    listenerRef: `${LB}:listener/app/web/a/b`,
                    ruleRef: `${LB}:listener-rule/app/web/a/b/c`,
                    targetGroupRef: `${LB}:targetgroup/web-blue/1`,
                    targetGroupName: 'web-blue',
                    isDefaultRule: false,
                    role: 'production',
                  },
                ],
              },
            ],
          });

          ecs
            .on(DescribeServiceDeploymentsCommand)
            .resolves(paused('AWAITING_ACTION', 'POST_TEST_TRAFFIC_SHIFT'));
          await service.follower.followDeployments();
          const waiting = await get(w, created.id);
          const hook = waiting.data.events[waiting.data.events.length - 1];
          expect(hook).toMatchObject({
            hookId: HOOK,
            lifecycleStage: 'POST_TEST_TRAFFIC_SHIFT',
            trafficPhase: 'test',
            currentStep: 6,
            totalSteps: 10,
          });
          expect(waiting.data.serviceDeploymentState).toMatchObject({
            lifecycleStage: 'POST_TEST_TRAFFIC_SHIFT',
            strategy: 'BLUE_GREEN',
          });

          ecs.on(ContinueServiceDeploymentCommand).rejectsOnce(
            Object.assign(new Error('The hook is not awaiting action'), {
              name: 'InvalidParameterException',
              $fault: 'client',
              $metadata: { httpStatusCode: 400 },
            }),
          );
          await expect(service.continue(caller, created.id)).rejects.toThrow();
          expect(
            (await get(w, created.id)).data.acceptedPauseControl,
          ).toBeUndefined();

          ecs
            .on(ContinueServiceDeploymentCommand)
            .resolves({ serviceDeploymentArn: SD_ARN });
          const continued = await service.continue(caller, created.id);
          expect(
            ecs.commandCalls(ContinueServiceDeploymentCommand).at(-1)?.args[0]
              .input,
          ).toEqual({
            serviceDeploymentArn: SD_ARN,
            hookId: HOOK,
            action: 'CONTINUE',
          });
          expect(continued.data.acceptedPauseControl).toEqual({
            acceptedAt: expect.any(String),
            action: 'CONTINUE',
            hookId: HOOK,
            eventStartedAt: hook.startedAt,
            labelKind: 'continue',
            lifecycleStage: 'POST_TEST_TRAFFIC_SHIFT',
          });
          await expect(
            service.continue(caller, created.id),
          ).rejects.toMatchObject({
            code: 'InfraDelivery:Deployment:NOT_PAUSED',
          });

          ecs.on(DescribeServiceDeploymentsCommand).resolves({
            serviceDeployments: [
              {
                serviceDeploymentArn: SD_ARN,
                status: 'SUCCESSFUL',
                lifecycleStage: 'CLEAN_UP',
                deploymentConfiguration: { strategy: 'BLUE_GREEN' },
              },
            ],
          });
          await service.follower.followDeployments();
          const done = await get(w, created.id);
          expect(done.status).toBe('SUCCEEDED');
          expect(done.data.acceptedPauseControl?.hookId).toBe(HOOK);
        });
      });

      it('refuses what is not valid or not the caller’s', async () => {
        const w = await world();
        const other = await world();
        expect(
          errorCode(
            await deploy(w, { taskDefinition: { containerDefinitions: [] } }),
            400,
          ),
        ).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        // A task definition ECS could not start: no container, or one without its image (the
        // local driver would have rolled it). The refusal names the field.
        for (const containerDefinitions of [
          [],
          [{ name: 'app' }],
          [{ name: 'app', image: '' }],
          [{ image: 'web:1' }],
          [{ name: 'app', image: 'web:1' }, { name: 'sidecar' }],
        ]) {
          const refused = await deploy(w, {
            taskDefinition: { family: 'web', containerDefinitions },
          });
          expect(errorCode(refused, 400)).toBe(
            'InfraDelivery:Request:VALIDATION_FAILED',
          );
          expect(JSON.stringify(refused.body.details)).toContain(
            'body.data.taskDefinition: containerDefinitions: at least one container, each with a name and an image',
          );
        }
        expect(
          await api.get(
            '/deployments?serviceRef=web&clusterRef=main',
            w.owner.token,
          ),
        ).toMatchObject({ body: { data: [] } });
        expect(
          errorCode(
            await deploy(w, { cloudAccountId: other.cloudAccountId }),
            404,
          ),
        ).toBe('InfraDelivery:CloudAccount:NOT_FOUND');
        expect(
          errorCode(
            await deploy(w, { environmentId: other.environmentId }),
            404,
          ),
        ).toBe('InfraDelivery:Environment:NOT_FOUND');
        const created = await deploy(w);
        expectStatus(created, 201);
        expect(
          errorCode(
            await api.get(
              `/deployments/${created.body.data.id}`,
              other.owner.token,
            ),
            404,
          ),
        ).toBe('InfraDelivery:Deployment:NOT_FOUND');
        expect(
          errorCode(await api.get(`/deployments/${created.body.data.id}`), 401),
        ).toMatch(/^InfraDelivery:Auth:/);
        const viewer = await api.member(w.owner, 'VIEWER');
        expect(
          errorCode(
            await deploy(w, { serviceRef: 'other' }, viewer.token),
            403,
          ),
        ).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
      });

      it('lists newest first with keyset pages and filters', async () => {
        const w = await world();
        const second = await createEnvironment(api, w.owner);
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const created = await deploy(w, {
            serviceRef: `svc-${i}`,
            environmentId: i % 2 === 0 ? w.environmentId : second.environmentId,
            ...(i === 4 ? { taskDefinition: taskDefinition('x-fail') } : {}),
          });
          expectStatus(created, 201);
          ids.push(created.body.data.id);
        }
        await tick(10);
        const all = await api.walk('/deployments', w.owner.token, 2);
        expect(all.map(d => d.id)).toEqual([...ids].reverse());

        const first = await api.get('/deployments?limit=2', w.owner.token);
        expect(first.body.meta).toEqual({
          limit: 2,
          nextCursor: expect.any(String),
          totalCount: 5,
        });

        const inSecond = await api.walk(
          `/deployments?environmentId=${second.environmentId}`,
          w.owner.token,
          1,
        );
        expect(inSecond.map(d => d.id)).toEqual([ids[3], ids[1]]);
        const ofService = await api.get(
          '/deployments?clusterRef=arn:aws:ecs:eu-west-1:123456789012:cluster/main&serviceRef=svc-2',
          w.owner.token,
        );
        expect(ofService.body.data.map((d: Deployment) => d.id)).toEqual([
          ids[2],
        ]);
        const failed = await api.get(
          '/deployments?status=FAILED',
          w.owner.token,
        );
        expect(failed.body.data.map((d: Deployment) => d.id)).toEqual([ids[4]]);
        expect(failed.body.meta.totalCount).toBe(1);

        const cursor = first.body.meta.nextCursor;
        expect(
          errorCode(
            await api.get(
              `/deployments?status=FAILED&cursor=${encodeURIComponent(cursor)}`,
              w.owner.token,
            ),
            400,
          ),
        ).toMatch(/CURSOR/);
        expect(
          errorCode(
            await api.get('/deployments?status=DONE', w.owner.token),
            400,
          ),
        ).toBe('InfraDelivery:Request:VALIDATION_FAILED');
      });
    });

    describe('rollback', () => {
      it('replays the stored release of an earlier successful deployment byte for byte', async () => {
        const w = await world();
        const first = await finishedDeployment(w);
        const second = await finishedDeployment(w);
        expect([first.status, second.status]).toEqual([
          'SUCCEEDED',
          'SUCCEEDED',
        ]);
        // The local driver cannot read the running revision: the previous release is the
        // service's last successful deployment by the platform's own record.
        expect(second.data.previousTaskDefinition).toEqual(
          first.data.deployedTaskDefinition,
        );

        const response = await api.post(
          `/deployments/${first.id}/rollback`,
          undefined,
          w.owner.token,
        );
        expectStatus(response, 201);
        const rollback = deploymentSchema.parse(response.body.data);
        expect(rollback).toMatchObject({
          status: 'IN_PROGRESS',
          triggerSource: 'ROLLBACK',
          rollbackToDeploymentId: first.id,
          environmentId: w.environmentId,
        });
        expect(rollback.id).not.toBe(first.id);
        // Named after the release it returns to; the id is in rollbackToDeploymentId.
        expect(rollback.description).toContain(`“${first.description}”`);
        expect(rollback.data.previousTaskDefinition).toEqual(
          second.data.deployedTaskDefinition,
        );
        expect(JSON.stringify(rollback.data.deployedTaskDefinition)).toBe(
          JSON.stringify(first.data.deployedTaskDefinition),
        );
        const stored = await knex('deployments')
          .where({ id: rollback.id })
          .first();
        const storedTarget = await knex('deployments')
          .where({ id: first.id })
          .first();
        expect(
          JSON.stringify(JSON.parse(stored.data).deployedTaskDefinition),
        ).toBe(
          JSON.stringify(JSON.parse(storedTarget.data).deployedTaskDefinition),
        );
        expect(auditor.createEvent).toHaveBeenCalledWith(
          expect.objectContaining({
            eventId: 'deployment-rollback',
            meta: expect.objectContaining({ targetDeploymentId: first.id }),
          }),
        );
        await tick(10);
        expect((await get(w, rollback.id)).status).toBe('SUCCEEDED');
      });

      it('names a rollback to a rollback after the release both returned to, once', async () => {
        const w = await world();
        const first = await finishedDeployment(w);
        await finishedDeployment(w);
        const back = await api.post(
          `/deployments/${first.id}/rollback`,
          undefined,
          w.owner.token,
        );
        expectStatus(back, 201);
        await tick(10);
        expect((await get(w, back.body.data.id)).status).toBe('SUCCEEDED');
        await finishedDeployment(w);

        const again = await api.post(
          `/deployments/${back.body.data.id}/rollback`,
          undefined,
          w.owner.token,
        );
        expectStatus(again, 201);
        const { description } = deploymentSchema.parse(again.body.data);
        expect(description).toContain(`“${first.description}”`);
        expect(description.match(/Rollback of/g)).toHaveLength(1);
        expect(again.body.data.rollbackToDeploymentId).toBe(back.body.data.id);
        await tick(10);
      });

      it('refuses a target that did not succeed, is current, or is another organization’s', async () => {
        const w = await world();
        const good = await finishedDeployment(w);
        const failed = await finishedDeployment(w, {
          taskDefinition: taskDefinition('web-fail'),
        });
        expect(failed.status).toBe('FAILED');
        expect(
          errorCode(
            await api.post(
              `/deployments/${failed.id}/rollback`,
              undefined,
              w.owner.token,
            ),
            422,
          ),
        ).toBe('InfraDelivery:Deployment:ROLLBACK_TARGET_NOT_SUCCEEDED');
        const latest = await finishedDeployment(w);
        expect(
          errorCode(
            await api.post(
              `/deployments/${latest.id}/rollback`,
              undefined,
              w.owner.token,
            ),
            422,
          ),
        ).toBe('InfraDelivery:Deployment:ROLLBACK_TARGET_IS_CURRENT');
        const other = await world();
        expect(
          errorCode(
            await api.post(
              `/deployments/${good.id}/rollback`,
              undefined,
              other.owner.token,
            ),
            404,
          ),
        ).toBe('InfraDelivery:Deployment:NOT_FOUND');
        expect(
          Number(
            (
              await knex('deployments')
                .where({ organization_id: other.owner.organizationId })
                .count({ n: '*' })
            )[0].n,
          ),
        ).toBe(0);
      });

      it('refuses a rollback while another deployment of the service is in flight, also when two race', async () => {
        const w = await world();
        const first = await finishedDeployment(w);
        await finishedDeployment(w);
        const [a, b] = await Promise.all([
          api.post(
            `/deployments/${first.id}/rollback`,
            undefined,
            w.owner.token,
          ),
          api.post(
            `/deployments/${first.id}/rollback`,
            undefined,
            w.owner.token,
          ),
        ]);
        expect([a.status, b.status].sort()).toEqual([201, 409]);
        const refused = a.status === 409 ? a : b;
        expect(errorBodySchema.parse(refused.body).code).toBe(
          'InfraDelivery:Deployment:SERVICE_BUSY',
        );
        expect(
          errorCode(
            await api.post(
              `/deployments/${first.id}/rollback`,
              undefined,
              w.owner.token,
            ),
            409,
          ),
        ).toBe('InfraDelivery:Deployment:SERVICE_BUSY');
        const rollbacks = await api.get(
          '/deployments?status=IN_PROGRESS',
          w.owner.token,
        );
        expect(rollbacks.body.meta.totalCount).toBe(1);
      });

      it('needs MEMBER and a credential', async () => {
        const w = await world();
        const first = await finishedDeployment(w);
        await finishedDeployment(w);
        const viewer = await api.member(w.owner, 'VIEWER');
        expect(
          errorCode(
            await api.post(
              `/deployments/${first.id}/rollback`,
              undefined,
              viewer.token,
            ),
            403,
          ),
        ).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
        expect(
          errorCode(
            await api.post(`/deployments/${first.id}/rollback`, undefined),
            401,
          ),
        ).toMatch(/^InfraDelivery:Auth:/);
        const member = await api.member(w.owner, 'MEMBER');
        expectStatus(
          await api.post(
            `/deployments/${first.id}/rollback`,
            undefined,
            member.token,
          ),
          201,
        );
      });
    });

    describe('infrastructure events', () => {
      const ALL_FIXTURES = [
        'task-state-change-running-fargate',
        'task-state-change-stopped-essential-container-exited',
        'task-state-change-deprovisioning-runtask',
        'service-action-service-steady-state',
        'service-action-capacity-provider-steady-state',
        'service-action-service-task-start-impaired',
        'service-action-service-task-placement-failure',
        'service-action-service-task-placement-failure-2',
        'deployment-state-change-in-progress',
        'deployment-state-change-in-progress-rollback',
        'deployment-state-change-completed',
        'deployment-state-change-failed',
      ];

      it.each(ALL_FIXTURES)(
        'stores %s for the organization of its account',
        async name => {
          const event = fixture(name);
          const w = await world(event.account);
          const response = await ingest(event);
          expectStatus(response, 200);
          expect(response.body.data.outcome).toBe('STORED');
          const rows = await knex('infrastructure_events').where({
            organization_id: w.owner.organizationId,
            event_id: event.id,
          });
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({
            kind: {
              'ECS Task State Change': 'CONTAINER_TASK_STATE_CHANGE',
              'ECS Service Action': 'CONTAINER_SERVICE_ACTION',
              'ECS Deployment State Change':
                'CONTAINER_DEPLOYMENT_STATE_CHANGE',
            }[event['detail-type'] as string],
            cloud_account_id: w.cloudAccountId,
            region: event.region,
          });
          expect(JSON.parse(rows[0].data).rawDetail).toEqual(event.detail);
        },
      );

      it('links service events to the service’s deployment and lists them by deployment, resource and kind', async () => {
        const event = fixture('service-action-service-task-start-impaired');
        const w = await world(event.account);
        const created = await deploy(w, {
          region: 'us-west-2',
          clusterRef: 'default',
          serviceRef: 'servicetest',
        });
        expectStatus(created, 201);
        expectStatus(await ingest(event), 200);

        const steady = fixture('service-action-service-steady-state');
        expectStatus(await ingest(steady), 200);

        const byDeployment = await eventsOf(
          w,
          `deploymentId=${created.body.data.id}`,
        );
        expect(byDeployment.map((e: any) => e.eventId)).toEqual([
          steady.id,
          event.id,
        ]);
        expect(byDeployment[1]).toMatchObject({
          kind: 'CONTAINER_SERVICE_ACTION',
          moduleDeploymentId: created.body.data.id,
          detailType: 'ECS Service Action',
          source: 'aws.ecs',
          eventTime: '2019-11-19T19:55:38.000Z',
          data: {
            type: 'CONTAINER_SERVICE_ACTION',
            eventName: 'SERVICE_TASK_START_IMPAIRED',
          },
        });
        expect(
          await eventsOf(
            w,
            `deploymentId=${created.body.data.id}&kind=CONTAINER_TASK_STATE_CHANGE`,
          ),
        ).toEqual([]);
        const other = await world();
        expect(
          await eventsOf(other, `deploymentId=${created.body.data.id}`),
        ).toEqual([]);
        expect(
          errorCode(
            await api.get('/infrastructure-events', w.owner.token),
            400,
          ),
        ).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        expect(
          errorCode(
            await api.get(
              `/infrastructure-events?deploymentId=a&resourceId=b`,
              w.owner.token,
            ),
            400,
          ),
        ).toBe('InfraDelivery:Request:VALIDATION_FAILED');
      });

      it('records a deployment started outside the platform and links its tasks by ECS deployment id', async () => {
        const task = fixture(
          'task-state-change-stopped-essential-container-exited',
        );
        const w = await world(task.account);
        const started = {
          ...fixture('deployment-state-change-in-progress'),
          id: 'external-start',
          account: task.account,
          region: task.region,
          resources: [
            'arn:aws:ecs:eu-central-1:111111111111:service/test/example-api-v1',
          ],
          detail: {
            ...fixture('deployment-state-change-in-progress').detail,
            deploymentId: task.detail.startedBy,
          },
        };
        expectStatus(await ingest(started), 200);
        const [external] = (await api.get('/deployments', w.owner.token)).body
          .data as Deployment[];
        expect(external).toMatchObject({
          status: 'IN_PROGRESS',
          triggerSource: 'EVENT_BUS',
          externalDeploymentId: task.detail.startedBy,
          data: {
            detectedVia: 'EVENT_BUS',
            clusterRef: 'test',
            serviceRef: started.resources[0],
          },
        });

        expectStatus(await ingest(task), 200);
        const completed = {
          ...started,
          id: 'external-completed',
          detail: {
            ...started.detail,
            eventName: 'SERVICE_DEPLOYMENT_COMPLETED',
          },
        };
        expectStatus(await ingest(completed), 200);

        const events = await eventsOf(w, `deploymentId=${external.id}`);
        expect(events.map((e: any) => e.kind)).toEqual([
          'CONTAINER_DEPLOYMENT_STATE_CHANGE',
          'CONTAINER_TASK_STATE_CHANGE',
          'CONTAINER_DEPLOYMENT_STATE_CHANGE',
        ]);
        expect(events[1].data).toMatchObject({
          type: 'CONTAINER_TASK_STATE_CHANGE',
          taskRef: task.detail.taskArn,
          lastStatus: 'STOPPED',
          stopCode: 'EssentialContainerExited',
          exitCode: 2,
          taskDefinitionFamily: 'example-api-v1',
          taskDefinitionRevision: 20,
          taskGroup: 'service:example-api-v1',
        });
        expect((await get(w, external.id)).status).toBe('SUCCEEDED');
        expect(
          (
            await eventsOf(
              w,
              `deploymentId=${external.id}&kind=CONTAINER_TASK_STATE_CHANGE`,
            )
          ).length,
        ).toBe(1);
      });

      it('drops duplicates and task events older than one stored', async () => {
        const event = fixture('task-state-change-running-fargate');
        const w = await world(event.account);
        expect((await ingest(event)).body.data.outcome).toBe('STORED');
        expect((await ingest(event)).body.data).toEqual({
          outcome: 'DUPLICATE',
          eventIds: [],
        });
        const older = {
          ...event,
          id: 'older-copy',
          detail: { ...event.detail, version: 3, lastStatus: 'PENDING' },
        };
        expect((await ingest(older)).body.data.outcome).toBe('OUT_OF_ORDER');
        const newer = {
          ...event,
          id: 'newer',
          detail: { ...event.detail, version: 5, lastStatus: 'STOPPED' },
        };
        expect((await ingest(newer)).body.data.outcome).toBe('STORED');
        const rows = await knex('infrastructure_events')
          .where({ organization_id: w.owner.organizationId })
          .orderBy('task_version');
        expect(rows.map(r => [r.event_id, r.task_version])).toEqual([
          [event.id, 4],
          ['newer', 5],
        ]);
      });

      it('answers a malformed event with a 400 ErrorBody and stores nothing', async () => {
        const event = fixture('task-state-change-running-fargate');
        const w = await world(event.account);
        const broken = [
          { ...event, detail: { ...event.detail, version: 'four' } },
          { ...event, time: 'yesterday' },
          { ...event, 'detail-type': 'ECS Container Instance State Change' },
          { ...event, source: 'aws.ec2' },
          (({ account: _a, ...rest }) => rest)(event),
          { ...fixture('deployment-state-change-completed'), resources: [] },
        ];
        for (const body of broken) {
          const response = await ingest({ ...body, id: `broken-${counter++}` });
          expect(errorCode(response, 400)).toMatch(
            /^InfraDelivery:(Request|InfrastructureEvent):/,
          );
        }
        const stored = await knex('infrastructure_events').where({
          organization_id: w.owner.organizationId,
        });
        expect(stored).toEqual([]);
        expect(
          Number(
            (
              await knex('deployments')
                .where({ organization_id: w.owner.organizationId })
                .count({ n: '*' })
            )[0].n,
          ),
        ).toBe(0);
      });

      it('checks the ingest token before it reads the body', async () => {
        const path_ = '/api/infra-delivery/infrastructure-events/ingest';
        const malformed = await request(api.server)
          .post(path_)
          .set('content-type', 'application/json')
          .send('{"not json');
        expect(errorCode(malformed, 401)).toBe(
          'InfraDelivery:InfrastructureEvent:INVALID_INGEST_TOKEN',
        );
        expect(malformed.body.requestId).toEqual(expect.any(String));

        const huge = JSON.stringify({ padding: 'x'.repeat(3 * 1024 * 1024) });
        const unauthenticated = await request(api.server)
          .post(path_)
          .set('content-type', 'application/json')
          .set(INGEST_TOKEN_HEADER, 'wrong')
          .send(huge);
        expect(errorCode(unauthenticated, 401)).toBe(
          'InfraDelivery:InfrastructureEvent:INVALID_INGEST_TOKEN',
        );
        const authenticated = await request(api.server)
          .post(path_)
          .set('content-type', 'application/json')
          .set(INGEST_TOKEN_HEADER, INGEST_TOKEN)
          .send(huge);
        expect(authenticated.status).toBe(413);
        const broken = await request(api.server)
          .post(path_)
          .set('content-type', 'application/json')
          .set(INGEST_TOKEN_HEADER, INGEST_TOKEN)
          .send('{"not json');
        expect(errorCode(broken, 400)).toMatch(/^InfraDelivery:/);
      });

      /**
       * Where each fixture belongs: `platform` to the platform's deployment of the event's
       * service, `detected` to a deployment the event records as started outside the platform,
       * `none` for tasks started by RunTask, which belong to no service.
       */
      const SERVICETEST = {
        region: 'us-west-2',
        clusterRef: 'default',
        serviceRef: 'servicetest',
      };
      interface Link {
        name: string;
        link: 'platform' | 'detected' | 'none';
        service?: { region: string; clusterRef: string; serviceRef: string };
        externalId?: string;
      }
      const LINKS: Link[] = [
        { name: 'task-state-change-running-fargate', link: 'none' },
        { name: 'task-state-change-deprovisioning-runtask', link: 'none' },
        {
          name: 'task-state-change-stopped-essential-container-exited',
          link: 'platform',
          service: {
            region: 'eu-central-1',
            clusterRef: 'test',
            serviceRef: 'example-api-v1',
          },
          externalId: 'ecs-svc/9300480928766973637',
        },
        ...[
          'service-action-service-steady-state',
          'service-action-capacity-provider-steady-state',
          'service-action-service-task-start-impaired',
          'service-action-service-task-placement-failure',
          'service-action-service-task-placement-failure-2',
          'deployment-state-change-in-progress',
          'deployment-state-change-in-progress-rollback',
        ].map(
          (name): Link => ({ name, link: 'platform', service: SERVICETEST }),
        ),
        ...[
          'deployment-state-change-completed',
          'deployment-state-change-failed',
        ].map(
          (name): Link => ({ name, link: 'detected', service: SERVICETEST }),
        ),
      ];

      it.each(LINKS)(
        'links $name to the $link deployment',
        async ({ name, link, service, externalId }) => {
          const event = fixture(name);
          const w = await world(event.account);
          let platformId: string | undefined;
          if (service) {
            const created = await deploy(w, service);
            expectStatus(created, 201);
            platformId = created.body.data.id;
            if (externalId) {
              await knex('deployments')
                .where({ id: platformId })
                .update({ external_deployment_id: externalId });
            }
          }
          expectStatus(await ingest(event), 200);
          const [row] = await knex('infrastructure_events').where({
            organization_id: w.owner.organizationId,
            event_id: event.id,
          });
          const detected = await knex('deployments')
            .where({
              organization_id: w.owner.organizationId,
              trigger_source: 'EVENT_BUS',
              external_deployment_id: event.detail.deploymentId ?? null,
            })
            .first();
          const expected = {
            none: null,
            platform: platformId,
            detected: detected?.id ?? 'a deployment detected from the event',
          }[link];
          expect(row.module_deployment_id).toBe(expected);
          const listed = row.module_deployment_id
            ? await eventsOf(w, `deploymentId=${row.module_deployment_id}`)
            : [];
          expect(listed.map((e: any) => e.eventId).includes(event.id)).toBe(
            link !== 'none',
          );
        },
      );

      it('needs the ingest token', async () => {
        const event = fixture('service-action-service-steady-state');
        await world(event.account);
        expect(errorCode(await ingest(event, null), 401)).toBe(
          'InfraDelivery:InfrastructureEvent:INVALID_INGEST_TOKEN',
        );
        expect(errorCode(await ingest(event, `${INGEST_TOKEN}x`), 401)).toBe(
          'InfraDelivery:InfrastructureEvent:INVALID_INGEST_TOKEN',
        );
        const unknown = await ingest({ ...event, account: '999999999999' });
        expect(unknown.body.data).toEqual({
          outcome: 'UNKNOWN_ACCOUNT',
          eventIds: [],
        });
      });

      it('lists events by resource: the module instance of the linked deployment', async () => {
        const event = fixture('service-action-service-steady-state');
        const w = await world(event.account);
        await knex('deployments').insert({
          id: '00000000-0000-7000-8000-00000000abcd',
          organization_id: w.owner.organizationId,
          project_id: w.projectId,
          environment_id: w.environmentId,
          module_instance_id: 'instance-1',
          cloud_account_id: w.cloudAccountId,
          region: 'us-west-2',
          cluster_name: 'default',
          service_name: 'servicetest',
          status: 'SUCCEEDED',
          trigger_source: 'API',
          description: 'seeded',
          data: JSON.stringify({
            type: 'cloud:container',
            cloudAccountId: w.cloudAccountId,
            region: 'us-west-2',
            clusterRef: 'default',
            serviceRef: 'servicetest',
            events: [],
          }),
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        });
        expectStatus(await ingest(event), 200);
        const events = await eventsOf(w, 'resourceId=instance-1');
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({
          deploymentResourceId: 'instance-1',
          eventId: event.id,
        });
        // #17: the deployment names itself as the module deployment its events carry.
        const deployment = await get(w, '00000000-0000-7000-8000-00000000abcd');
        expect(deployment.data.containerModuleDeploymentId).toBe(
          events[0].moduleDeploymentId,
        );
        expect(deployment.data.containerModuleDeploymentId).toBe(deployment.id);
      });
    });
  },
);
