import {
  errorBodySchema,
  PipelineRun,
  pipelineRunSchema,
  pipelineSchema,
  stepExecutionSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import {
  act,
  createEnvironment,
  createPipeline,
  createStack,
  getRun,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/** The one validation issue list of a 400 VALIDATION_FAILED answer. */
function validationItems(response: request.Response): string[] {
  expect(response.status).toBe(400);
  const body = errorBodySchema.parse(response.body);
  expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
  expect(body.requestId).toEqual(expect.any(String));
  return body.details?.[0].items ?? [];
}

/** `/pipeline-runs?…` with repeated parameters. */
function runsPath(params: [string, string | number][]): string {
  const query = new URLSearchParams(
    params.map(([name, value]) => [name, String(value)]),
  );
  return `/pipeline-runs?${query.toString()}`;
}

function ids(items: { id: string }[]): string[] {
  return items.map(item => item.id);
}

/** Newest first: the reverse of the given runs, which are listed in creation order. */
function newestFirst(runs: { id: string }[]): string[] {
  return ids(runs).reverse();
}

describe.each(databases.eachSupportedId())(
  'pipeline routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    let knex: Awaited<ReturnType<typeof databases.init>>;

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex);
    });

    async function ownMembershipId(owner: TestOrganization): Promise<string> {
      const members = await api.get('/memberships', owner.token);
      return members.body.data.find(
        (m: { userId?: string }) => m.userId === owner.userId,
      ).id;
    }

    async function stepsOf(token: string, runId: string) {
      const response = await api.get(
        `/pipeline-runs/${runId}/step-executions`,
        token,
      );
      expect(response.status).toBe(200);
      return response.body.data as {
        id: string;
        type: string;
        status: string;
        attemptEpoch: number;
        [key: string]: unknown;
      }[];
    }

    describe('pipelines', () => {
      it('creates, gets, lists and updates a pipeline', async () => {
        const owner = await api.signup();
        const { projectId } = await createEnvironment(api, owner);
        const steps = [
          { type: 'iac.plan', name: 'Plan', config: { workdir: 'infra' } },
          { type: 'approval', name: 'Approve' },
        ];

        const created = await api.post(
          '/pipelines',
          {
            data: {
              projectId,
              givenId: 'release',
              name: '  Release  ',
              description: 'Ships the release',
              steps,
            },
          },
          owner.token,
        );
        expect(created.status).toBe(201);
        const pipeline = created.body.data;
        expect(pipeline).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          projectId,
          givenId: 'release',
          name: 'Release',
          description: 'Ships the release',
          latestVersionId: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(pipelineSchema.parse(pipeline)).toEqual(pipeline);

        const fetched = await api.get(`/pipelines/${pipeline.id}`, owner.token);
        expect(fetched.status).toBe(200);
        expect(fetched.body).toEqual({ data: pipeline });

        const versions = await api.get(
          `/pipelines/${pipeline.id}/versions`,
          owner.token,
        );
        expect(versions.body).toEqual({
          data: [
            {
              id: pipeline.latestVersionId,
              organizationId: owner.organizationId,
              pipelineId: pipeline.id,
              version: 1,
              steps,
              createdAt: expect.any(String),
            },
          ],
          meta: { limit: 50, totalCount: 1 },
        });

        const other = await createPipeline(api, owner);
        const listed = await api.get('/pipelines', owner.token);
        expect(listed.status).toBe(200);
        expect(ids(listed.body.data)).toEqual([other.id, pipeline.id]);
        expect(listed.body.meta.totalCount).toBe(2);
        const inProject = await api.get(
          `/pipelines?projectId=${projectId}`,
          owner.token,
        );
        expect(inProject.body).toEqual({
          data: [pipeline],
          meta: { limit: 50, totalCount: 1 },
        });

        const renamed = await api.patch(
          `/pipelines/${pipeline.id}`,
          { data: { name: 'Release train' } },
          owner.token,
        );
        expect(renamed.status).toBe(200);
        expect(renamed.body.data).toEqual({
          ...pipeline,
          name: 'Release train',
          updatedAt: expect.any(String),
        });
        const emptyPatch = await api.patch(
          `/pipelines/${pipeline.id}`,
          { data: {} },
          owner.token,
        );
        expect(validationItems(emptyPatch)).toEqual([
          'body.data: name or description is required',
        ]);
      });

      it('validates steps (400) and refuses a taken givenId (409) or an unknown project (404)', async () => {
        const owner = await api.signup();
        const { projectId } = await createEnvironment(api, owner);
        const body = (steps: unknown, givenId = 'deploy') => ({
          data: { projectId, givenId, name: 'Deploy', steps },
        });

        const badType = await api.post(
          '/pipelines',
          body([{ type: 'shell.script', name: 'Run' }]),
          owner.token,
        );
        expect(validationItems(badType)).toEqual([
          expect.stringMatching(/^body\.data\.steps\.0\.type: /),
        ]);
        expect(
          validationItems(await api.post('/pipelines', body([]), owner.token)),
        ).toEqual([expect.stringMatching(/^body\.data\.steps: /)]);
        expect(
          validationItems(
            await api.post(
              '/pipelines',
              body([{ type: 'approval', name: '' }]),
              owner.token,
            ),
          ),
        ).toEqual([expect.stringMatching(/^body\.data\.steps\.0\.name: /)]);
        const tooMany = Array.from({ length: 51 }, (_, i) => ({
          type: 'approval',
          name: `Approve ${i}`,
        }));
        expect(
          validationItems(
            await api.post('/pipelines', body(tooMany), owner.token),
          ),
        ).toEqual([expect.stringMatching(/^body\.data\.steps: /)]);

        const steps = [{ type: 'approval', name: 'Approve' }];
        expect(
          (await api.post('/pipelines', body(steps), owner.token)).status,
        ).toBe(201);
        const taken = await api.post('/pipelines', body(steps), owner.token);
        expect(taken.status).toBe(409);
        expect(taken.body.code).toBe('InfraDelivery:Pipeline:GIVEN_ID_TAKEN');
        expect(taken.body.metadata).toEqual({ givenId: 'deploy' });

        const stranger = await api.signup();
        const strangerPlace = await createEnvironment(api, stranger);
        for (const unknownProject of [
          'no-such-project',
          strangerPlace.projectId,
        ]) {
          const response = await api.post(
            '/pipelines',
            {
              data: { ...body(steps, 'other').data, projectId: unknownProject },
            },
            owner.token,
          );
          expect(response.status).toBe(404);
          expect(response.body.code).toBe('InfraDelivery:Project:NOT_FOUND');
        }
        expect(
          (await api.get('/pipelines', owner.token)).body.meta.totalCount,
        ).toBe(1);
      });

      it('publishes new versions of a pipeline; running runs keep their version', async () => {
        const owner = await api.signup();
        const pipeline = await createPipeline(api, owner, {
          steps: [{ type: 'approval', name: 'First approval' }],
        });
        const v1 = (await api.get(`/pipelines/${pipeline.id}`, owner.token))
          .body.data.latestVersionId;
        const oldRun = await trigger(api, owner, pipeline.id);
        expect(oldRun.pipelineVersionId).toBe(v1);

        const newSteps = [
          { type: 'approval', name: 'Security approval' },
          { type: 'approval', name: 'Product approval' },
        ];
        const published = await api.post(
          `/pipelines/${pipeline.id}/versions`,
          { data: { steps: newSteps } },
          owner.token,
        );
        expect(published.status).toBe(201);
        expect(published.body.data).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          pipelineId: pipeline.id,
          version: 2,
          steps: newSteps,
          createdAt: expect.any(String),
        });

        const fetched = await api.get(`/pipelines/${pipeline.id}`, owner.token);
        expect(fetched.body.data.latestVersionId).toBe(published.body.data.id);
        const versions = await api.get(
          `/pipelines/${pipeline.id}/versions`,
          owner.token,
        );
        expect(versions.body.data.map((v: any) => v.version)).toEqual([2, 1]);
        const walked = await api.walk(
          `/pipelines/${pipeline.id}/versions`,
          owner.token,
          1,
        );
        expect(ids(walked)).toEqual([published.body.data.id, v1]);

        const newRun = await trigger(api, owner, pipeline.id);
        expect(newRun.pipelineVersionId).toBe(published.body.data.id);
        expect(
          (await stepsOf(owner.token, newRun.id)).map(s => s.name),
        ).toEqual(['Security approval', 'Product approval']);
        expect(
          (await stepsOf(owner.token, oldRun.id)).map(s => s.name),
        ).toEqual(['First approval']);

        const badType = await api.post(
          `/pipelines/${pipeline.id}/versions`,
          { data: { steps: [{ type: 'webhook', name: 'Call' }] } },
          owner.token,
        );
        expect(validationItems(badType)).toEqual([
          expect.stringMatching(/^body\.data\.steps\.0\.type: /),
        ]);
      });

      it("refuses new versions of a stack's pipelines (409)", async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        for (const pipelineId of [
          stack.changePipelineId,
          stack.destroyPipelineId,
        ]) {
          const response = await api.post(
            `/pipelines/${pipelineId}/versions`,
            { data: { steps: [{ type: 'approval', name: 'Only this' }] } },
            owner.token,
          );
          expect(response.status).toBe(409);
          expect(response.body.code).toBe(
            'InfraDelivery:Pipeline:MANAGED_BY_STACK',
          );
          const versions = await api.get(
            `/pipelines/${pipelineId}/versions`,
            owner.token,
          );
          expect(versions.body.data.map((v: any) => v.version)).toEqual([1]);
        }
      });

      it("refuses deploy steps naming another organization's or unknown ids (404), and two steps of one name (400)", async () => {
        const owner = await api.signup();
        const { projectId, environmentId } = await createEnvironment(
          api,
          owner,
        );
        const accountOf = async (org: TestOrganization, cloudId: string) => {
          const account = await api.post(
            '/cloud-accounts',
            { data: { givenId: 'aws', name: 'AWS', cloudId } },
            org.token,
          );
          expect(account.status).toBe(201);
          return account.body.data.id as string;
        };
        const cloudAccountId = await accountOf(owner, '123456789012');
        const stranger = await api.signup();
        const strangerAccountId = await accountOf(stranger, '210987654321');
        const strangerPlace = await createEnvironment(api, stranger);
        const deployStep = (config: Record<string, unknown> = {}) => ({
          type: 'container.deploy',
          name: 'Deploy web',
          config: {
            cloudAccountId,
            region: 'eu-west-1',
            environmentId,
            clusterRef: 'main',
            serviceRef: 'web',
            image: {
              containerName: 'app',
              image: 'registry.example.com/web:2',
            },
            ...config,
          },
        });
        const unknownId = '0193a8c0-0000-7000-8000-000000000000';
        const refusals: [Record<string, unknown>, string, string][] = [
          [
            { cloudAccountId: strangerAccountId },
            'CloudAccount',
            'cloudAccountId',
          ],
          [{ cloudAccountId: unknownId }, 'CloudAccount', 'cloudAccountId'],
          [
            { environmentId: strangerPlace.environmentId },
            'Environment',
            'environmentId',
          ],
          [{ environmentId: unknownId }, 'Environment', 'environmentId'],
          [
            { moduleInstanceId: unknownId },
            'ModuleInstance',
            'moduleInstanceId',
          ],
        ];
        const plain = await createPipeline(api, owner, {
          projectId,
          steps: [{ type: 'approval', name: 'Approve' }],
        });
        for (const [config, entity, field] of refusals) {
          const steps = [
            { type: 'approval', name: 'Approve' },
            deployStep(config),
          ];
          const named = (config[field] as string) ?? '';
          for (const response of [
            await api.post(
              '/pipelines',
              { data: { projectId, givenId: 'deploy', name: 'Deploy', steps } },
              owner.token,
            ),
            await api.post(
              `/pipelines/${plain.id}/versions`,
              { data: { steps } },
              owner.token,
            ),
          ]) {
            expect(response.status).toBe(404);
            expect(errorBodySchema.parse(response.body)).toMatchObject({
              code: `InfraDelivery:${entity}:NOT_FOUND`,
              message: `${entity} ${named} was not found: step "Deploy web" (steps[1]) names it as config.${field}`,
              metadata: {
                id: named,
                stepName: 'Deploy web',
                field: `steps.1.config.${field}`,
              },
            });
          }
        }
        expect(
          (await api.get('/pipelines', owner.token)).body.meta.totalCount,
        ).toBe(1);
        expect(
          (await api.get(`/pipelines/${plain.id}/versions`, owner.token)).body
            .meta.totalCount,
        ).toBe(1);

        // Two steps of one name: which of them a log, an approval or a message means is unclear.
        const twice = [
          { type: 'approval', name: 'Approve' },
          deployStep(),
          { type: 'approval', name: 'Approve' },
        ];
        for (const response of [
          await api.post(
            '/pipelines',
            {
              data: {
                projectId,
                givenId: 'twice',
                name: 'Twice',
                steps: twice,
              },
            },
            owner.token,
          ),
          await api.post(
            `/pipelines/${plain.id}/versions`,
            { data: { steps: twice } },
            owner.token,
          ),
        ]) {
          expect(validationItems(response)).toEqual([
            'body.data.steps.2.name: "Approve" is the name of steps[0] already: each step of a pipeline has its own name',
          ]);
        }

        // The organization's own account and environment are taken, connected or not.
        const created = await api.post(
          '/pipelines',
          {
            data: {
              projectId,
              givenId: 'deploy',
              name: 'Deploy',
              steps: [{ type: 'approval', name: 'Approve' }, deployStep()],
            },
          },
          owner.token,
        );
        expect(created.status).toBe(201);
        expect(
          (
            await api.post(
              `/pipelines/${plain.id}/versions`,
              { data: { steps: [deployStep()] } },
              owner.token,
            )
          ).status,
        ).toBe(201);
      });

      it('shows the latest run and its status on the pipeline', async () => {
        const owner = await api.signup();
        const pipeline = await createPipeline(api, owner);
        const before = await api.get(`/pipelines/${pipeline.id}`, owner.token);
        expect(before.body.data).not.toHaveProperty('latestRunId');
        expect(before.body.data).not.toHaveProperty('latestRunStatus');

        const run = await trigger(api, owner, pipeline.id);
        expect(run.status).toBe('WAITING_FOR_APPROVAL');
        const waiting = await api.get(`/pipelines/${pipeline.id}`, owner.token);
        expect(waiting.body.data).toMatchObject({
          latestRunId: run.id,
          latestRunStatus: 'WAITING_FOR_APPROVAL',
        });

        await act(api, owner, run.id, 'approve');
        const done = await api.get(`/pipelines/${pipeline.id}`, owner.token);
        expect(done.body.data).toMatchObject({
          latestRunId: run.id,
          latestRunStatus: 'SUCCEEDED',
        });

        const second = await trigger(api, owner, pipeline.id);
        await act(api, owner, second.id, 'reject');
        const rejected = await api.get(
          `/pipelines/${pipeline.id}`,
          owner.token,
        );
        expect(rejected.body.data).toMatchObject({
          latestRunId: second.id,
          latestRunStatus: 'FAILED',
        });
        const listed = await api.get('/pipelines', owner.token);
        expect(listed.body.data[0]).toMatchObject({
          id: pipeline.id,
          latestRunId: second.id,
          latestRunStatus: 'FAILED',
        });

        // A stack run held in the queue is its pipeline's latest run at once.
        const stack = await createStack(api, owner);
        const holder = await trigger(api, owner, stack.changePipelineId);
        const held = await trigger(api, owner, stack.changePipelineId);
        expect(held.status).toBe('QUEUED');
        const change = await api.get(
          `/pipelines/${stack.changePipelineId}`,
          owner.token,
        );
        expect(change.body.data).toMatchObject({
          latestRunId: held.id,
          latestRunStatus: 'QUEUED',
        });
        await act(api, owner, holder.id, 'cancel');
        const admitted = await api.get(
          `/pipelines/${stack.changePipelineId}`,
          owner.token,
        );
        expect(admitted.body.data).toMatchObject({
          latestRunId: held.id,
          latestRunStatus: 'RUNNING',
        });
      });

      it('makes a retried older run the latest run of its pipeline and stack', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        const older = await trigger(api, owner, stack.changePipelineId);
        await act(api, owner, older.id, 'cancel');
        const newer = await trigger(api, owner, stack.changePipelineId);
        await act(api, owner, newer.id, 'cancel');

        // The stack read "Cancelled" (the newer run) while the retry applied its changes.
        await act(api, owner, older.id, 'retry');
        const latest = async () => ({
          stack: (await api.get(`/stacks/${stack.id}`, owner.token)).body.data
            .latestRunId,
          pipeline: (
            await api.get(`/pipelines/${stack.changePipelineId}`, owner.token)
          ).body.data,
        });
        expect(await latest()).toEqual({
          stack: older.id,
          pipeline: expect.objectContaining({
            latestRunId: older.id,
            latestRunStatus: 'RUNNING',
          }),
        });

        // Ended, it stays the latest.
        await act(api, owner, older.id, 'cancel');
        expect(await latest()).toEqual({
          stack: older.id,
          pipeline: expect.objectContaining({
            latestRunId: older.id,
            latestRunStatus: 'CANCELLED',
          }),
        });

        // Until a run is created after the retry.
        const next = await trigger(api, owner, stack.changePipelineId);
        expect(await latest()).toEqual({
          stack: next.id,
          pipeline: expect.objectContaining({
            latestRunId: next.id,
            latestRunStatus: next.status,
          }),
        });
      });

      it('lets VIEWERs read and MEMBERs write pipelines', async () => {
        const owner = await api.signup();
        const viewer = await api.member(owner, 'VIEWER');
        const member = await api.member(owner, 'MEMBER');
        const { projectId } = await createEnvironment(api, owner);
        const data = {
          projectId,
          givenId: 'deploy',
          name: 'Deploy',
          steps: [{ type: 'approval', name: 'Approve' }],
        };

        const byViewer = await api.post('/pipelines', { data }, viewer.token);
        expect(byViewer.status).toBe(403);
        expect(byViewer.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');

        const byMember = await api.post('/pipelines', { data }, member.token);
        expect(byMember.status).toBe(201);
        const id = byMember.body.data.id;

        for (const response of [
          await api.patch(
            `/pipelines/${id}`,
            { data: { name: 'x' } },
            viewer.token,
          ),
          await api.post(
            `/pipelines/${id}/versions`,
            { data: { steps: data.steps } },
            viewer.token,
          ),
        ]) {
          expect(response.status).toBe(403);
          expect(response.body.code).toBe(
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
        }
        expect((await api.get(`/pipelines/${id}`, viewer.token)).status).toBe(
          200,
        );
        expect(
          (await api.get(`/pipelines/${id}/versions`, viewer.token)).status,
        ).toBe(200);
        expect(
          (await api.get('/pipelines', viewer.token)).body.meta.totalCount,
        ).toBe(1);
      });
    });

    describe('runs', () => {
      it('admits a stack run at once and holds a second run of the stack in the queue', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);

        const triggered = await api.post(
          `/pipelines/${stack.changePipelineId}/runs`,
          { data: { description: 'First change' } },
          owner.token,
        );
        expect(triggered.status).toBe(201);
        const first: PipelineRun = triggered.body.data;
        expect(first).toEqual({
          id: expect.any(String),
          organizationId: owner.organizationId,
          pipelineId: stack.changePipelineId,
          pipelineVersionId: expect.any(String),
          attachedEntityId: stack.id,
          status: 'RUNNING',
          isCancellable: true,
          attemptEpoch: 1,
          description: 'First change',
          createdById: await ownMembershipId(owner),
          data: { kind: 'stack', module_input: {} },
          triggerMetadata: { trigger_given_id: 'triggerPipelineRun' },
          kind: 'STANDARD',
          triggerSource: 'API',
          // Admitted, its plan waits for a runner, and this organization has none.
          queueState: {
            preflightBlockedByAdmissionCondition: false,
            stackRunPreflightPending: false,
            projectId: stack.projectId,
            waitingForRunner: true,
            reason: 'No runner is connected to this organization',
          },
          engineWorkflowId: `pipeline-run/${first.id}`,
          engineRunId: `${first.id}/attempt-1`,
          startedAt: expect.any(String),
          lastAttemptStartedAt: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        expect(pipelineRunSchema.parse(first)).toEqual(first);

        const steps = await stepsOf(owner.token, first.id);
        expect(steps).toEqual([
          {
            id: expect.any(String),
            pipelineRunId: first.id,
            position: 0,
            type: 'iac.plan',
            name: 'Plan',
            status: 'QUEUED',
            attemptEpoch: 1,
          },
          {
            id: expect.any(String),
            pipelineRunId: first.id,
            position: 1,
            type: 'approval',
            name: 'Approve the plan',
            status: 'PENDING',
            attemptEpoch: 1,
          },
          {
            id: expect.any(String),
            pipelineRunId: first.id,
            position: 2,
            type: 'iac.apply',
            name: 'Apply',
            status: 'PENDING',
            attemptEpoch: 1,
          },
        ]);
        for (const step of steps) {
          expect(stepExecutionSchema.parse(step)).toEqual(step);
        }

        const second = await trigger(api, owner, stack.changePipelineId);
        const heldState = {
          preflightBlockedByAdmissionCondition: true,
          stackRunPreflightPending: false,
          reason: 'STACK_BUSY',
          blockingEntityType: 'STACK',
          blockingEntityId: stack.id,
          blockingRunId: first.id,
          conditionKey: `stack:${stack.id}`,
          projectId: stack.projectId,
        };
        expect(second).toMatchObject({
          status: 'QUEUED',
          isCancellable: true,
          attachedEntityId: stack.id,
          queueState: heldState,
          queueConditionKey: `stack:${stack.id}`,
        });
        expect(second.queueReason).toBe(
          `Held: stack ${stack.name} is busy with run “First change”`,
        );
        expect(second).not.toHaveProperty('startedAt');
        expect(second).not.toHaveProperty('engineRunId');
        expect(
          (await stepsOf(owner.token, second.id)).map(s => s.status),
        ).toEqual(['PENDING', 'PENDING', 'PENDING']);

        // The destroy pipeline's runs queue on the same stack.
        const destroy = await trigger(api, owner, stack.destroyPipelineId);
        expect(destroy.status).toBe('QUEUED');
        expect(destroy.queueState).toEqual(heldState);

        // Another stack is not held by this one.
        const otherStack = await createStack(api, owner);
        const elsewhere = await trigger(
          api,
          owner,
          otherStack.changePipelineId,
        );
        expect(elsewhere.status).toBe('RUNNING');

        const fetched = await getRun(api, owner, second.id);
        expect(fetched).toEqual(second);

        // When the holder ends, the oldest queued run takes the stack.
        await act(api, owner, first.id, 'cancel');
        const admitted = await getRun(api, owner, second.id);
        expect(admitted).toMatchObject({
          status: 'RUNNING',
          queueState: {
            preflightBlockedByAdmissionCondition: false,
            stackRunPreflightPending: false,
            projectId: stack.projectId,
          },
        });
        expect(admitted).not.toHaveProperty('queueReason');
        expect(admitted).not.toHaveProperty('queueConditionKey');
        expect(
          (await stepsOf(owner.token, second.id)).map(s => s.status),
        ).toEqual(['QUEUED', 'PENDING', 'PENDING']);
        expect((await getRun(api, owner, destroy.id)).status).toBe('QUEUED');
      });

      it('records what triggered a run, its variant and, for a stack, its module input beside the one before', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        const first = await api.post(
          `/pipelines/${stack.changePipelineId}/runs`,
          {
            data: {
              input: { replicas: 2 },
              variantId: 'blue',
              variantName: 'Blue fleet',
            },
          },
          owner.token,
        );
        expect(first.status).toBe(201);
        expect(first.body.data).toMatchObject({
          variantId: 'blue',
          variantName: 'Blue fleet',
          triggerMetadata: { trigger_given_id: 'triggerPipelineRun' },
          data: { kind: 'stack', module_input: { replicas: 2 } },
        });
        expect(first.body.data.data).not.toHaveProperty(
          'previous_module_input',
        );

        const destroy = await api.post(
          `/stacks/${stack.id}/destroy`,
          { data: {} },
          owner.token,
        );
        expect(destroy.status).toBe(201);
        const destroyRun: PipelineRun = destroy.body.data;
        expect(destroyRun.triggerMetadata).toEqual({
          trigger_given_id: 'destroyStack',
        });
        expect(destroyRun.data).toEqual({
          kind: 'stack',
          module_input: {},
          previous_module_input: { replicas: 2 },
        });
        // A variant id alone has no name of its own.
        expect(destroyRun).not.toHaveProperty('variantName');
        const unnamed = await api.post(
          `/pipelines/${stack.changePipelineId}/runs`,
          { data: { variantId: 'green' } },
          owner.token,
        );
        expect(unnamed.status).toBe(201);
        expect(unnamed.body.data.variantId).toBe('green');
        expect(unnamed.body.data).not.toHaveProperty('variantName');
        // The run before it, the destroy run, was given no input: it had an empty one.
        expect(unnamed.body.data.data).toEqual({
          kind: 'stack',
          module_input: {},
          previous_module_input: {},
        });

        const nameWithoutId = await api.post(
          `/pipelines/${stack.changePipelineId}/runs`,
          { data: { variantName: 'Orphan' } },
          owner.token,
        );
        expect(nameWithoutId.status).toBe(400);
      });

      it('attaches runs of a plain pipeline to a given stack', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        const pipeline = await createPipeline(api, owner, {
          projectId: stack.projectId,
        });
        const holder = await trigger(api, owner, stack.changePipelineId);

        const attached = await api.post(
          `/pipelines/${pipeline.id}/runs`,
          { data: { attachedEntityId: stack.id } },
          owner.token,
        );
        expect(attached.status).toBe(201);
        expect(attached.body.data).toMatchObject({
          status: 'QUEUED',
          attachedEntityId: stack.id,
          queueState: { blockingRunId: holder.id },
        });

        const unknownStack = await api.post(
          `/pipelines/${pipeline.id}/runs`,
          { data: { attachedEntityId: 'no-such-stack' } },
          owner.token,
        );
        expect(unknownStack.status).toBe(404);
        expect(unknownStack.body.code).toBe('InfraDelivery:Stack:NOT_FOUND');

        const otherStack = await createStack(api, owner);
        const mismatch = await api.post(
          `/pipelines/${stack.changePipelineId}/runs`,
          { data: { attachedEntityId: otherStack.id } },
          owner.token,
        );
        expect(mismatch.status).toBe(400);
        expect(mismatch.body.code).toBe(
          'InfraDelivery:PipelineRun:ATTACHMENT_MISMATCH',
        );

        const elsewhere = await createStack(api, owner);
        const otherProject = await api.post(
          `/pipelines/${pipeline.id}/runs`,
          { data: { attachedEntityId: elsewhere.id } },
          owner.token,
        );
        expect(otherProject.status).toBe(400);
        expect(otherProject.body).toMatchObject({
          code: 'InfraDelivery:PipelineRun:ATTACHMENT_MISMATCH',
          message: `Stack ${elsewhere.id} is in another project than the pipeline: a run attaches to a stack of its pipeline's project`,
        });

        const unattached = await trigger(api, owner, pipeline.id);
        expect(unattached.status).toBe('WAITING_FOR_APPROVAL');
        expect(unattached).not.toHaveProperty('attachedEntityId');
        expect(unattached).not.toHaveProperty('data');
      });

      it('refuses query parameters the operation does not take (400)', async () => {
        const owner = await api.signup();
        const pipeline = await createPipeline(api, owner);
        // A misspelled filter listed every run of the organization.
        const misspelled = await api.get(
          '/pipeline-runs?stackId=abc&limit=5',
          owner.token,
        );
        expect(validationItems(misspelled)).toEqual([
          expect.stringMatching(
            /^query\.stackId: is not a parameter of this operation \(it takes .*\battachedEntityId\b.*\)$/,
          ),
        ]);
        expect(
          validationItems(
            await api.get(`/pipelines/${pipeline.id}?expand=runs`, owner.token),
          ),
        ).toEqual([
          'query.expand: is not a parameter of this operation (it takes no query parameters)',
        ]);
        // Listed with the operation's own issues.
        expect(
          validationItems(
            await api.get('/pipeline-runs?limit=0&pipelineID=x', owner.token),
          ),
        ).toEqual([
          expect.stringMatching(/^query\.pipelineID: is not a parameter/),
          expect.stringMatching(/^query\.limit: /),
        ]);
      });

      it('says a parameter taking one value was given twice or with brackets (400)', async () => {
        const owner = await api.signup();
        // Its schema saw an array and said "expected number, received NaN".
        expect(
          validationItems(
            await api.get('/pipeline-runs?limit=1&limit=2', owner.token),
          ),
        ).toEqual(['query.limit: is given 2 times; give it once']);
        expect(
          validationItems(
            await api.get('/pipeline-runs?limit[a]=1', owner.token),
          ),
        ).toEqual([
          'query.limit: must be a plain value (no brackets after its name)',
        ]);
        // Filters that repeat still take several values.
        const repeated = await api.get(
          '/pipeline-runs?status=QUEUED&status=RUNNING&limit=1',
          owner.token,
        );
        expect(repeated.status).toBe(200);
      });

      it('leaves applying and destroying to a stack’s own pipelines (422)', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        const refusal = (step: { type: string; name: string }) => ({
          code: 'InfraDelivery:Pipeline:CHANGES_OUTSIDE_STACK',
          message: `Step "${step.name}" (${step.type}) changes infrastructure, which only a stack's own pipelines do: create a stack (POST /stacks) and trigger its changePipelineId or destroyPipelineId. A pipeline of your own may plan (iac.plan), wait for an approval and deploy containers`,
          metadata: { stepName: step.name, stepType: step.type },
        });

        const apply = { type: 'iac.apply', name: 'Apply at once' };
        const created = await api.post(
          '/pipelines',
          {
            data: {
              projectId: stack.projectId,
              givenId: 'apply-at-once',
              name: 'Apply at once',
              steps: [{ type: 'iac.plan', name: 'Plan' }, apply],
            },
          },
          owner.token,
        );
        expect(created.status).toBe(422);
        expect(created.body).toMatchObject(refusal(apply));

        const own = await createPipeline(api, owner, {
          projectId: stack.projectId,
          steps: [{ type: 'iac.plan', name: 'Plan' }],
        });
        const destroy = { type: 'iac.destroy', name: 'Tear down' };
        const versioned = await api.post(
          `/pipelines/${own.id}/versions`,
          { data: { steps: [destroy] } },
          owner.token,
        );
        expect(versioned.status).toBe(422);
        expect(versioned.body).toMatchObject(refusal(destroy));

        // A pipeline that carried such a step before the rule cannot run it on the stack.
        await knex('pipeline_versions')
          .where({ pipeline_id: own.id })
          .update({ steps: JSON.stringify([apply]) });
        const run = await api.post(
          `/pipelines/${own.id}/runs`,
          { data: { attachedEntityId: stack.id } },
          owner.token,
        );
        expect(run.status).toBe(422);
        expect(run.body).toMatchObject(refusal(apply));
        const runs = await api.get(
          `/pipeline-runs?pipelineId=${own.id}`,
          owner.token,
        );
        expect(runs.body.data).toEqual([]);
      });

      it('approves and rejects a waiting run, and refuses a run not waiting (409)', async () => {
        const owner = await api.signup();
        const pipeline = await createPipeline(api, owner, {
          steps: [
            { type: 'approval', name: 'First' },
            { type: 'approval', name: 'Second' },
          ],
        });
        const run = await trigger(api, owner, pipeline.id);
        expect(run.status).toBe('WAITING_FOR_APPROVAL');
        expect(run.isCancellable).toBe(true);

        const afterFirst = await act(api, owner, run.id, 'approve', 'LGTM');
        expect(afterFirst.status).toBe('WAITING_FOR_APPROVAL');
        const afterSecond = await act(api, owner, run.id, 'approve');
        expect(afterSecond).toMatchObject({
          status: 'SUCCEEDED',
          isCancellable: false,
          completedAt: expect.any(String),
        });
        const steps = await stepsOf(owner.token, run.id);
        expect(steps.map(s => s.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
        // Each approval keeps who decided, for the run's page.
        const decidedById = await ownMembershipId(owner);
        expect(steps[0].outputs).toEqual({ comment: 'LGTM', decidedById });
        expect(steps[0]).toMatchObject({
          startedAt: expect.any(String),
          completedAt: expect.any(String),
        });
        expect(steps[1].outputs).toEqual({ decidedById });

        const again = await api.post(
          `/pipeline-runs/${run.id}/approve`,
          { data: {} },
          owner.token,
        );
        expect(again.status).toBe(409);
        expect(errorBodySchema.parse(again.body).code).toBe(
          'InfraDelivery:PipelineRun:NOT_WAITING_FOR_APPROVAL',
        );

        const rejectedRun = await trigger(api, owner, pipeline.id);
        const rejected = await act(
          api,
          owner,
          rejectedRun.id,
          'reject',
          'too risky',
        );
        const rejection = {
          code: 'InfraDelivery:Approval:REJECTED',
          message: 'The approval was rejected: too risky',
        };
        expect(rejected).toMatchObject({
          status: 'FAILED',
          isCancellable: false,
          error: rejection,
        });
        const rejectedSteps = await stepsOf(owner.token, rejectedRun.id);
        expect(rejectedSteps.map(s => s.status)).toEqual(['FAILED', 'SKIPPED']);
        expect(rejectedSteps[0].error).toEqual(rejection);
        expect(rejectedSteps[0].outputs).toEqual({
          comment: 'too risky',
          decidedById,
        });

        for (const action of ['approve', 'reject']) {
          const late = await api.post(
            `/pipeline-runs/${rejectedRun.id}/${action}`,
            { data: {} },
            owner.token,
          );
          expect(late.status).toBe(409);
          expect(late.body.code).toBe(
            'InfraDelivery:PipelineRun:NOT_WAITING_FOR_APPROVAL',
          );
        }

        // A running stack run (its plan queued for a runner) is not waiting either.
        const stack = await createStack(api, owner);
        const running = await trigger(api, owner, stack.changePipelineId);
        const notWaiting = await api.post(
          `/pipeline-runs/${running.id}/approve`,
          { data: { comment: 'early' } },
          owner.token,
        );
        expect(notWaiting.status).toBe(409);
        expect(notWaiting.body.code).toBe(
          'InfraDelivery:PipelineRun:NOT_WAITING_FOR_APPROVAL',
        );
        expect(notWaiting.body.message).toBe(
          `Run ${running.id} is RUNNING, not waiting for an approval`,
        );
        expect((await getRun(api, owner, running.id)).status).toBe('RUNNING');

        const tooLong = await api.post(
          `/pipeline-runs/${running.id}/approve`,
          { data: { comment: 'x'.repeat(2001) } },
          owner.token,
        );
        expect(validationItems(tooLong)).toEqual([
          expect.stringMatching(/^body\.data\.comment: /),
        ]);
      });

      it('cancels queued, running and waiting runs, and refuses finished ones (409)', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        const running = await trigger(api, owner, stack.changePipelineId);
        const queued = await trigger(api, owner, stack.changePipelineId);
        expect(queued.status).toBe('QUEUED');

        const cancelledQueued = await act(api, owner, queued.id, 'cancel');
        // Named after who cancelled it, as an approval is after who decided.
        const cancellation = {
          code: 'InfraDelivery:PipelineRun:CANCELLED',
          message: `The run was cancelled by ${owner.email}`,
          metadata: { cancelledById: expect.any(String) },
        };
        expect(cancelledQueued).toMatchObject({
          status: 'CANCELLED',
          isCancellable: false,
          error: cancellation,
          completedAt: expect.any(String),
        });
        expect(cancelledQueued).not.toHaveProperty('queueReason');
        expect(
          (await stepsOf(owner.token, queued.id)).map(s => s.status),
        ).toEqual(['SKIPPED', 'SKIPPED', 'SKIPPED']);
        // The holder is untouched.
        expect((await getRun(api, owner, running.id)).status).toBe('RUNNING');

        const cancelledRunning = await act(api, owner, running.id, 'cancel');
        expect(cancelledRunning).toMatchObject({
          status: 'CANCELLED',
          error: cancellation,
        });
        expect(
          (await stepsOf(owner.token, running.id)).map(s => s.status),
        ).toEqual(['CANCELLED', 'SKIPPED', 'SKIPPED']);

        const waitingPipeline = await createPipeline(api, owner);
        const waiting = await trigger(api, owner, waitingPipeline.id);
        expect((await act(api, owner, waiting.id, 'cancel')).status).toBe(
          'CANCELLED',
        );
        expect(
          (await stepsOf(owner.token, waiting.id)).map(s => s.status),
        ).toEqual(['CANCELLED']);

        for (const id of [running.id, queued.id, waiting.id]) {
          const again = await api.post(
            `/pipeline-runs/${id}/cancel`,
            { data: {} },
            owner.token,
          );
          expect(again.status).toBe(409);
          expect(again.body.code).toBe(
            'InfraDelivery:PipelineRun:NOT_CANCELLABLE',
          );
          expect(again.body.message).toBe(
            `Run ${id} is CANCELLED and cannot be cancelled`,
          );
        }
      });

      it('retries failed and cancelled runs as a new attempt, and refuses running ones (409)', async () => {
        const owner = await api.signup();
        const stack = await createStack(api, owner);
        const run = await trigger(api, owner, stack.changePipelineId);

        const notYet = await api.post(
          `/pipeline-runs/${run.id}/retry`,
          { data: {} },
          owner.token,
        );
        expect(notYet.status).toBe(409);
        expect(notYet.body.code).toBe(
          'InfraDelivery:PipelineRun:NOT_RETRYABLE',
        );
        expect(notYet.body.message).toBe(
          `Run ${run.id} is RUNNING; only failed or cancelled runs can be retried`,
        );

        await act(api, owner, run.id, 'cancel');
        const retried = await act(api, owner, run.id, 'retry');
        expect(retried).toMatchObject({
          id: run.id,
          status: 'RUNNING',
          attemptEpoch: 2,
          isCancellable: true,
          engineRunId: `${run.id}/attempt-2`,
        });
        expect(retried).not.toHaveProperty('error');
        expect(retried).not.toHaveProperty('completedAt');
        const steps = await stepsOf(owner.token, run.id);
        expect(steps.map(s => [s.status, s.attemptEpoch])).toEqual([
          ['QUEUED', 2],
          ['PENDING', 2],
          ['PENDING', 2],
        ]);

        // A retried run waits for the stack like any other run.
        await act(api, owner, run.id, 'cancel');
        const next = await trigger(api, owner, stack.changePipelineId);
        expect(next.status).toBe('RUNNING');
        const heldRetry = await act(api, owner, run.id, 'retry');
        expect(heldRetry).toMatchObject({
          status: 'QUEUED',
          attemptEpoch: 3,
          queueState: {
            preflightBlockedByAdmissionCondition: true,
            blockingEntityType: 'STACK',
            blockingEntityId: stack.id,
            blockingRunId: next.id,
          },
        });

        // A rejected approval is retried from the approval; succeeded steps stay done.
        const pipeline = await createPipeline(api, owner, {
          steps: [
            { type: 'approval', name: 'First' },
            { type: 'approval', name: 'Second' },
          ],
        });
        const approvals = await trigger(api, owner, pipeline.id);
        await act(api, owner, approvals.id, 'approve');
        await act(api, owner, approvals.id, 'reject');
        const again = await act(api, owner, approvals.id, 'retry');
        expect(again).toMatchObject({
          status: 'WAITING_FOR_APPROVAL',
          attemptEpoch: 2,
        });
        expect(
          (await stepsOf(owner.token, approvals.id)).map(s => [
            s.name,
            s.status,
          ]),
        ).toEqual([
          ['First', 'SUCCEEDED'],
          ['Second', 'WAITING_FOR_APPROVAL'],
        ]);
        expect((await act(api, owner, approvals.id, 'approve')).status).toBe(
          'SUCCEEDED',
        );
        const succeeded = await api.post(
          `/pipeline-runs/${approvals.id}/retry`,
          { data: {} },
          owner.token,
        );
        expect(succeeded.status).toBe(409);
        expect(succeeded.body.code).toBe(
          'InfraDelivery:PipelineRun:NOT_RETRYABLE',
        );
      });

      it('refuses VIEWERs triggering or acting on runs (403) and lets MEMBERs', async () => {
        const owner = await api.signup();
        const viewer = await api.member(owner, 'VIEWER');
        const member = await api.member(owner, 'MEMBER');
        const pipeline = await createPipeline(api, owner);
        const run = await trigger(api, owner, pipeline.id);

        const attempts = [
          api.post(
            `/pipelines/${pipeline.id}/runs`,
            { data: {} },
            viewer.token,
          ),
          ...['approve', 'reject', 'cancel', 'retry'].map(action =>
            api.post(
              `/pipeline-runs/${run.id}/${action}`,
              { data: {} },
              viewer.token,
            ),
          ),
        ];
        for (const response of await Promise.all(attempts)) {
          expect(response.status).toBe(403);
          expect(response.body.code).toBe(
            'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          );
        }
        expect((await getRun(api, viewer, run.id)).status).toBe(
          'WAITING_FOR_APPROVAL',
        );
        const listed = await api.get('/pipeline-runs', viewer.token);
        expect(ids(listed.body.data)).toEqual([run.id]);
        expect(
          (
            await api.get(
              `/pipeline-runs/${run.id}/step-executions`,
              viewer.token,
            )
          ).status,
        ).toBe(200);

        const byMember = await trigger(api, member, pipeline.id);
        expect(byMember.createdById).toBe(member.membershipId);
        expect((await act(api, member, byMember.id, 'approve')).status).toBe(
          'SUCCEEDED',
        );
        expect((await act(api, member, run.id, 'cancel')).status).toBe(
          'CANCELLED',
        );
        expect((await act(api, member, run.id, 'retry')).status).toBe(
          'WAITING_FOR_APPROVAL',
        );
      });

      it("answers 404 for another organization's pipelines, runs and steps", async () => {
        const owner = await api.signup();
        const stranger = await api.signup();
        const theirStack = await createStack(api, stranger);
        const theirRun = await trigger(
          api,
          stranger,
          theirStack.changePipelineId,
        );
        const [theirStep] = await stepsOf(stranger.token, theirRun.id);

        const pipelineAnswers = [
          await api.get(
            `/pipelines/${theirStack.changePipelineId}`,
            owner.token,
          ),
          await api.patch(
            `/pipelines/${theirStack.changePipelineId}`,
            { data: { name: 'mine' } },
            owner.token,
          ),
          await api.get(
            `/pipelines/${theirStack.changePipelineId}/versions`,
            owner.token,
          ),
          await api.post(
            `/pipelines/${theirStack.changePipelineId}/runs`,
            { data: {} },
            owner.token,
          ),
        ];
        for (const response of pipelineAnswers) {
          expect(response.status).toBe(404);
          expect(response.body.code).toBe('InfraDelivery:Pipeline:NOT_FOUND');
        }

        const runAnswers = [
          await api.get(`/pipeline-runs/${theirRun.id}`, owner.token),
          await api.get(
            `/pipeline-runs/${theirRun.id}/step-executions`,
            owner.token,
          ),
          ...(await Promise.all(
            ['approve', 'reject', 'cancel', 'retry'].map(action =>
              api.post(
                `/pipeline-runs/${theirRun.id}/${action}`,
                { data: {} },
                owner.token,
              ),
            ),
          )),
        ];
        for (const response of runAnswers) {
          expect(response.status).toBe(404);
          expect(response.body.code).toBe(
            'InfraDelivery:PipelineRun:NOT_FOUND',
          );
        }

        const logs = await api.get(
          `/pipeline-step-executions/${theirStep.id}/logs`,
          owner.token,
        );
        expect(logs.status).toBe(404);
        expect(logs.body.code).toBe('InfraDelivery:StepExecution:NOT_FOUND');

        // A plain pipeline may not attach its run to another organization's stack.
        const pipeline = await createPipeline(api, owner);
        const foreignStack = await api.post(
          `/pipelines/${pipeline.id}/runs`,
          { data: { attachedEntityId: theirStack.id } },
          owner.token,
        );
        expect(foreignStack.status).toBe(404);
        expect(foreignStack.body.code).toBe('InfraDelivery:Stack:NOT_FOUND');

        const unknown = await api.get(
          '/pipeline-runs/no-such-run',
          owner.token,
        );
        expect(unknown.status).toBe(404);
        expect(
          (await api.get('/pipeline-runs', owner.token)).body.data,
        ).toEqual([]);
        // Nothing happened to their run.
        expect(await getRun(api, stranger, theirRun.id)).toEqual(theirRun);
      });

      it('answers 401 without a credential', async () => {
        const owner = await api.signup();
        const pipeline = await createPipeline(api, owner);
        const run = await trigger(api, owner, pipeline.id);
        const [step] = await stepsOf(owner.token, run.id);
        const answers = [
          await api.get('/pipelines'),
          await api.get(`/pipelines/${pipeline.id}`),
          await api.post('/pipelines', { data: {} }),
          await api.patch(`/pipelines/${pipeline.id}`, { data: { name: 'x' } }),
          await api.get(`/pipelines/${pipeline.id}/versions`),
          await api.post(`/pipelines/${pipeline.id}/versions`, { data: {} }),
          await api.post(`/pipelines/${pipeline.id}/runs`, { data: {} }),
          await api.get('/pipeline-runs'),
          await api.get(`/pipeline-runs/${run.id}`),
          await api.get(`/pipeline-runs/${run.id}/step-executions`),
          await api.post(`/pipeline-runs/${run.id}/approve`, { data: {} }),
          await api.post(`/pipeline-runs/${run.id}/reject`, { data: {} }),
          await api.post(`/pipeline-runs/${run.id}/cancel`, { data: {} }),
          await api.post(`/pipeline-runs/${run.id}/retry`, { data: {} }),
          await api.get(`/pipeline-step-executions/${step.id}/logs`),
        ];
        for (const response of answers) {
          expect(response.status).toBe(401);
          expect(response.body.code).toBe(
            'InfraDelivery:Auth:MISSING_CREDENTIAL',
          );
        }
        expect((await getRun(api, owner, run.id)).status).toBe(
          'WAITING_FOR_APPROVAL',
        );
      });
    });

    describe('GET /pipeline-runs (#13)', () => {
      /**
       * Two stacks and a plain pipeline with runs in every state, created in this order:
       * a1 RUNNING, a2 QUEUED, b1 CANCELLED, b2 RUNNING, p1 WAITING_FOR_APPROVAL,
       * p2 SUCCEEDED, a3 QUEUED, p3 FAILED, bd1 QUEUED (stack B's destroy pipeline).
       */
      async function seedRuns() {
        const owner = await api.signup();
        const place = await createEnvironment(api, owner);
        const stackA = await createStack(api, owner, { ...place, name: 'A' });
        const stackB = await createStack(api, owner, { ...place, name: 'B' });
        const plain = await createPipeline(api, owner, {
          projectId: place.projectId,
        });

        const a1 = await trigger(api, owner, stackA.changePipelineId);
        const a2 = await trigger(api, owner, stackA.changePipelineId);
        const b1 = await trigger(api, owner, stackB.changePipelineId);
        await act(api, owner, b1.id, 'cancel');
        const b2 = await trigger(api, owner, stackB.changePipelineId);
        const p1 = await trigger(api, owner, plain.id);
        const p2 = await trigger(api, owner, plain.id);
        await act(api, owner, p2.id, 'approve');
        const a3 = await trigger(api, owner, stackA.changePipelineId);
        const p3 = await trigger(api, owner, plain.id);
        await act(api, owner, p3.id, 'reject');
        const bd1 = await trigger(api, owner, stackB.destroyPipelineId);

        const runs = { a1, a2, b1, b2, p1, p2, a3, p3, bd1 };
        const expected: Record<keyof typeof runs, string> = {
          a1: 'RUNNING',
          a2: 'QUEUED',
          b1: 'CANCELLED',
          b2: 'RUNNING',
          p1: 'WAITING_FOR_APPROVAL',
          p2: 'SUCCEEDED',
          a3: 'QUEUED',
          p3: 'FAILED',
          bd1: 'QUEUED',
        };
        for (const [name, run] of Object.entries(runs)) {
          expect([name, (await getRun(api, owner, run.id)).status]).toEqual([
            name,
            expected[name as keyof typeof runs],
          ]);
        }
        return { owner, stackA, stackB, plain, runs, all: Object.values(runs) };
      }

      it('lists every run newest first, with the page meta', async () => {
        const { owner, all, runs } = await seedRuns();
        const listed = await api.get('/pipeline-runs', owner.token);
        expect(listed.status).toBe(200);
        expect(ids(listed.body.data)).toEqual(newestFirst(all));
        expect(listed.body.meta).toEqual({
          limit: 50,
          totalCount: 9,
        });
        for (const run of listed.body.data) {
          expect(pipelineRunSchema.parse(run)).toEqual(run);
        }
        expect(listed.body.data.find((r: any) => r.id === runs.a1.id)).toEqual(
          await getRun(api, owner, runs.a1.id),
        );
      });

      it('lists a run as it is now when the same page was read before it changed', async () => {
        const { owner, runs } = await seedRuns();
        const first = await api.get('/pipeline-runs', owner.token);
        // On SQLite the same page again comes from remembered rows and their kept bytes.
        const again = await api.get('/pipeline-runs', owner.token);
        expect(again.text).toBe(first.text);
        const before = again.body.data.find((r: any) => r.id === runs.a2.id);
        expect(before).toMatchObject({ status: 'QUEUED', isCancellable: true });

        await act(api, owner, runs.a2.id, 'cancel');
        const after = await api.get('/pipeline-runs', owner.token);
        const changed = after.body.data.find((r: any) => r.id === runs.a2.id);
        expect(changed).toMatchObject({
          status: 'CANCELLED',
          isCancellable: false,
        });
        expect(changed).toEqual(await getRun(api, owner, runs.a2.id));
      });

      it('filters by repeated statuses', async () => {
        const { owner, runs } = await seedRuns();
        const active = await api.get(
          runsPath([
            ['status', 'QUEUED'],
            ['status', 'RUNNING'],
          ]),
          owner.token,
        );
        expect(active.status).toBe(200);
        expect(ids(active.body.data)).toEqual(
          newestFirst([runs.a1, runs.a2, runs.b2, runs.a3, runs.bd1]),
        );
        expect(active.body.meta.totalCount).toBe(5);

        const single = await api.get(
          runsPath([['status', 'WAITING_FOR_APPROVAL']]),
          owner.token,
        );
        expect(ids(single.body.data)).toEqual([runs.p1.id]);

        const finished = await api.get(
          runsPath([
            ['status', 'SUCCEEDED'],
            ['status', 'FAILED'],
            ['status', 'CANCELLED'],
          ]),
          owner.token,
        );
        expect(ids(finished.body.data)).toEqual(
          newestFirst([runs.b1, runs.p2, runs.p3]),
        );
      });

      it('filters by repeated pipelineIds, and keeps the newest N per pipeline', async () => {
        const { owner, stackA, stackB, plain, runs } = await seedRuns();

        const byPipelines = await api.get(
          runsPath([
            ['pipelineId', stackA.changePipelineId],
            ['pipelineId', plain.id],
          ]),
          owner.token,
        );
        expect(ids(byPipelines.body.data)).toEqual(
          newestFirst([runs.a1, runs.a2, runs.p1, runs.p2, runs.a3, runs.p3]),
        );
        expect(byPipelines.body.meta.totalCount).toBe(6);

        // A long list (one JSON array on SQLite) answers the same, with or without newest N.
        const unknown = Array.from({ length: 20 }, (_, i): [string, string] => [
          'pipelineId',
          `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
        ]);
        const byLongList = await api.get(
          runsPath([
            ...unknown,
            ['pipelineId', stackA.changePipelineId],
            ['pipelineId', plain.id],
          ]),
          owner.token,
        );
        expect(ids(byLongList.body.data)).toEqual(ids(byPipelines.body.data));
        expect(byLongList.body.meta.totalCount).toBe(6);
        const latestOfLongList = await api.get(
          runsPath([
            ...unknown,
            ['pipelineId', stackA.changePipelineId],
            ['pipelineId', plain.id],
            ['latestPerPipeline', 50],
          ]),
          owner.token,
        );
        expect(ids(latestOfLongList.body.data)).toEqual(
          ids(byPipelines.body.data),
        );

        const latestTwo = await api.get(
          runsPath([
            ['pipelineId', stackA.changePipelineId],
            ['pipelineId', plain.id],
            ['pipelineId', stackB.changePipelineId],
            ['latestPerPipeline', 2],
          ]),
          owner.token,
        );
        expect(latestTwo.status).toBe(200);
        expect(ids(latestTwo.body.data)).toEqual(
          newestFirst([runs.a2, runs.b1, runs.b2, runs.p2, runs.a3, runs.p3]),
        );
        expect(latestTwo.body.meta.totalCount).toBe(6);

        const latestOne = await api.get(
          runsPath([
            ['pipelineId', plain.id],
            ['pipelineId', plain.id],
            ['latestPerPipeline', 1],
          ]),
          owner.token,
        );
        expect(ids(latestOne.body.data)).toEqual([runs.p3.id]);

        // With a status filter, the newest N among the runs of that status.
        const latestActive = await api.get(
          runsPath([
            ['pipelineId', stackA.changePipelineId],
            ['pipelineId', plain.id],
            ['status', 'RUNNING'],
            ['status', 'WAITING_FOR_APPROVAL'],
            ['status', 'SUCCEEDED'],
            ['latestPerPipeline', 1],
          ]),
          owner.token,
        );
        expect(ids(latestActive.body.data)).toEqual(
          newestFirst([runs.a1, runs.p2]),
        );

        const walked = await api.walk(
          runsPath([
            ['pipelineId', stackA.changePipelineId],
            ['pipelineId', plain.id],
            ['pipelineId', stackB.changePipelineId],
            ['latestPerPipeline', 2],
          ]),
          owner.token,
          1,
        );
        expect(ids(walked)).toEqual(ids(latestTwo.body.data));
      });

      it('filters by attachedEntityId, and keeps the newest N per entity', async () => {
        const { owner, stackA, stackB, runs } = await seedRuns();

        const onA = await api.get(
          runsPath([['attachedEntityId', stackA.id]]),
          owner.token,
        );
        expect(ids(onA.body.data)).toEqual(
          newestFirst([runs.a1, runs.a2, runs.a3]),
        );

        const latestPerStack = await api.get(
          runsPath([
            ['attachedEntityId', stackA.id],
            ['attachedEntityId', stackB.id],
            ['latestPerEntity', 1],
          ]),
          owner.token,
        );
        expect(latestPerStack.status).toBe(200);
        expect(ids(latestPerStack.body.data)).toEqual(
          newestFirst([runs.a3, runs.bd1]),
        );
        expect(latestPerStack.body.meta.totalCount).toBe(2);

        // The change pipeline's newest run on each stack: pipelines and entities combine.
        const changeOnB = await api.get(
          runsPath([
            ['attachedEntityId', stackB.id],
            ['pipelineId', stackB.changePipelineId],
            ['latestPerEntity', 2],
          ]),
          owner.token,
        );
        expect(ids(changeOnB.body.data)).toEqual([runs.b2.id]);
      });

      it('filters by id, omitting unknown ids and other organizations’ runs', async () => {
        const { owner, runs } = await seedRuns();
        const stranger = await api.signup();
        const strangerRun = await trigger(
          api,
          stranger,
          (
            await createPipeline(api, stranger)
          ).id,
        );

        const byId = await api.get(
          runsPath([
            ['id', runs.p1.id],
            ['id', 'no-such-run'],
            ['id', strangerRun.id],
            ['id', runs.a1.id],
          ]),
          owner.token,
        );
        expect(byId.status).toBe(200);
        expect(ids(byId.body.data)).toEqual(newestFirst([runs.a1, runs.p1]));
        expect(byId.body.meta.totalCount).toBe(2);

        const combined = await api.get(
          runsPath([
            ['id', runs.p1.id],
            ['id', runs.a1.id],
            ['status', 'RUNNING'],
          ]),
          owner.token,
        );
        expect(ids(combined.body.data)).toEqual([runs.a1.id]);

        const onlyForeign = await api.get(
          runsPath([['id', strangerRun.id]]),
          owner.token,
        );
        expect(onlyForeign.body).toEqual({
          data: [],
          meta: { limit: 50, totalCount: 0 },
        });
      });

      it('enforces the filter limits (400)', async () => {
        const owner = await api.signup();
        const manyIds = (count: number): [string, string][] =>
          Array.from({ length: count }, (_, i) => ['pipelineId', `p-${i}`]);

        expect(
          (await api.get(runsPath(manyIds(200)), owner.token)).status,
        ).toBe(200);
        expect(
          validationItems(await api.get(runsPath(manyIds(201)), owner.token)),
        ).toEqual([expect.stringMatching(/^query\.pipelineId: /)]);
        expect(
          validationItems(
            await api.get(
              runsPath(Array.from({ length: 201 }, (_, i) => ['id', `r-${i}`])),
              owner.token,
            ),
          ),
        ).toEqual([expect.stringMatching(/^query\.id: /)]);
        expect(
          validationItems(
            await api.get(
              runsPath(
                Array.from({ length: 201 }, (_, i) => [
                  'attachedEntityId',
                  `s-${i}`,
                ]),
              ),
              owner.token,
            ),
          ),
        ).toEqual([expect.stringMatching(/^query\.attachedEntityId: /)]);

        const statuses = (count: number): [string, string][] =>
          Array.from({ length: count }, () => ['status', 'RUNNING']);
        expect(
          (await api.get(runsPath(statuses(20)), owner.token)).status,
        ).toBe(200);
        expect(
          validationItems(await api.get(runsPath(statuses(21)), owner.token)),
        ).toEqual([expect.stringMatching(/^query\.status: /)]);

        for (const latest of [0, 51, 1.5, 'two']) {
          expect(
            validationItems(
              await api.get(
                runsPath([
                  ['pipelineId', 'p-1'],
                  ['latestPerPipeline', latest],
                ]),
                owner.token,
              ),
            ),
          ).toEqual([expect.stringMatching(/^query\.latestPerPipeline: /)]);
        }
        for (const latest of [1, 50]) {
          expect(
            (
              await api.get(
                runsPath([
                  ['pipelineId', 'p-1'],
                  ['latestPerPipeline', latest],
                ]),
                owner.token,
              )
            ).status,
          ).toBe(200);
        }
        expect(
          validationItems(
            await api.get(runsPath([['latestPerPipeline', 2]]), owner.token),
          ),
        ).toEqual([
          'query.latestPerPipeline: latestPerPipeline needs pipelineId',
        ]);
        expect(
          validationItems(
            await api.get(
              runsPath([
                ['attachedEntityId', 's-1'],
                ['latestPerPipeline', 2],
              ]),
              owner.token,
            ),
          ),
        ).toEqual([
          'query.latestPerPipeline: latestPerPipeline needs pipelineId',
        ]);
        expect(
          validationItems(
            await api.get(runsPath([['latestPerEntity', 1]]), owner.token),
          ),
        ).toEqual([
          'query.latestPerEntity: latestPerEntity needs attachedEntityId',
        ]);
        for (const latest of [0, 51]) {
          expect(
            validationItems(
              await api.get(
                runsPath([
                  ['attachedEntityId', 's-1'],
                  ['latestPerEntity', latest],
                ]),
                owner.token,
              ),
            ),
          ).toEqual([expect.stringMatching(/^query\.latestPerEntity: /)]);
        }

        const unknownStatus = await api.get(
          runsPath([
            ['status', 'RUNNING'],
            ['status', 'PAUSED'],
          ]),
          owner.token,
        );
        expect(validationItems(unknownStatus)).toEqual([
          expect.stringMatching(/^query\.status\.1: /),
        ]);
        expect(
          validationItems(
            await api.get(runsPath([['status', 'running']]), owner.token),
          ),
        ).toEqual([expect.stringMatching(/^query\.status\.0: /)]);
        expect(
          validationItems(
            await api.get(runsPath([['limit', 501]]), owner.token),
          ),
        ).toEqual([expect.stringMatching(/^query\.limit: /)]);
      });

      it('pages through filtered runs, each once, and refuses a cursor of other filters', async () => {
        const { owner, stackA, stackB, runs, all } = await seedRuns();
        const filter: [string, string][] = [
          ['status', 'QUEUED'],
          ['status', 'RUNNING'],
          ['status', 'CANCELLED'],
        ];

        const firstPage = await api.get(
          runsPath([...filter, ['limit', '2']]),
          owner.token,
        );
        expect(firstPage.status).toBe(200);
        const expected = newestFirst([
          runs.a1,
          runs.a2,
          runs.b1,
          runs.b2,
          runs.a3,
          runs.bd1,
        ]);
        expect(ids(firstPage.body.data)).toEqual(expected.slice(0, 2));
        expect(firstPage.body.meta).toEqual({
          limit: 2,
          nextCursor: expect.any(String),
          totalCount: 6,
        });
        const cursor: string = firstPage.body.meta.nextCursor;

        const secondPage = await api.get(
          runsPath([...filter, ['limit', '2'], ['cursor', cursor]]),
          owner.token,
        );
        expect(secondPage.status).toBe(200);
        expect(ids(secondPage.body.data)).toEqual(expected.slice(2, 4));

        // The page size may change between pages; the filter may not.
        const biggerPage = await api.get(
          runsPath([...filter, ['limit', '10'], ['cursor', cursor]]),
          owner.token,
        );
        expect(ids(biggerPage.body.data)).toEqual(expected.slice(2));
        expect(biggerPage.body.meta).not.toHaveProperty('nextCursor');

        for (const walkLimit of [1, 2, 4]) {
          const walked = await api.walk(
            runsPath(filter),
            owner.token,
            walkLimit,
          );
          expect(ids(walked)).toEqual(expected);
        }
        const walkedAll = await api.walk('/pipeline-runs', owner.token, 4);
        expect(ids(walkedAll)).toEqual(newestFirst(all));
        const walkedEntities = await api.walk(
          runsPath([
            ['attachedEntityId', stackA.id],
            ['attachedEntityId', stackB.id],
          ]),
          owner.token,
          2,
        );
        expect(ids(walkedEntities)).toEqual(
          newestFirst([runs.a1, runs.a2, runs.b1, runs.b2, runs.a3, runs.bd1]),
        );

        const otherFilters: [string, string][][] = [
          [['status', 'QUEUED']],
          [...filter, ['pipelineId', stackA.changePipelineId]],
          [],
        ];
        for (const other of otherFilters) {
          const reused = await api.get(
            runsPath([...other, ['limit', '2'], ['cursor', cursor]]),
            owner.token,
          );
          expect(reused.status).toBe(400);
          expect(reused.body.code).toBe('InfraDelivery:Request:INVALID_CURSOR');
        }

        // Nor is a cursor valid for another organization.
        const stranger = await api.signup();
        const foreign = await api.get(
          runsPath([...filter, ['limit', '2'], ['cursor', cursor]]),
          stranger.token,
        );
        expect(foreign.status).toBe(400);
        expect(foreign.body.code).toBe('InfraDelivery:Request:INVALID_CURSOR');
      });
    });
  },
);
