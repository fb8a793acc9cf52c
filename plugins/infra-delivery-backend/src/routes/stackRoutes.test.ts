import {
  errorBodySchema,
  givenIdSchema,
  pipelineSchema,
  pipelineVersionSchema,
  stackSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import {
  act,
  createEnvironment,
  createStack,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/** The one validation issue list of a 400 VALIDATION_FAILED answer. */
function validationItems(response: request.Response): string[] {
  expect(response.status).toBe(400);
  const body = errorBodySchema.parse(response.body);
  expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
  return body.details?.[0].items ?? [];
}

describe.each(databases.eachSupportedId())('stack routes on %s', databaseId => {
  let api: InfraDeliveryTestClient;

  beforeAll(async () => {
    api = await startInfraDeliveryBackend(await databases.init(databaseId));
  });

  describe('POST /stacks', () => {
    it('creates a stack with its change and destroy pipelines', async () => {
      const owner = await api.signup();
      const { projectId, environmentId } = await createEnvironment(api, owner);

      const created = await api.post(
        '/stacks',
        {
          data: {
            projectId,
            environmentId,
            name: '  Payments Network (EU)  ',
            description: 'VPCs and peering',
            path: 'infra/network',
          },
        },
        owner.token,
      );
      expect(created.status).toBe(201);
      const stack = created.body.data;
      expect(stack).toEqual({
        id: expect.any(String),
        organizationId: owner.organizationId,
        projectId,
        environmentId,
        type: 'IAC_OPEN',
        givenId: 'payments-network-eu',
        name: 'Payments Network (EU)',
        description: 'VPCs and peering',
        path: 'infra/network',
        autoApprove: false,
        changePipelineId: expect.any(String),
        destroyPipelineId: expect.any(String),
        serviceStateBackendWorkspace: `${owner.organizationId}/${stack.id}`,
        driftStatus: 'UNKNOWN',
        runnerLabels: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(stackSchema.parse(stack)).toEqual(stack);
      expect(stack.changePipelineId).not.toBe(stack.destroyPipelineId);

      const change = await api.get(
        `/pipelines/${stack.changePipelineId}`,
        owner.token,
      );
      expect(change.status).toBe(200);
      expect(change.body.data).toEqual({
        id: stack.changePipelineId,
        organizationId: owner.organizationId,
        projectId,
        stackId: stack.id,
        givenId: `stack-${stack.id}-change`,
        name: 'Payments Network (EU): change',
        latestVersionId: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(pipelineSchema.parse(change.body.data)).toEqual(change.body.data);

      const destroy = await api.get(
        `/pipelines/${stack.destroyPipelineId}`,
        owner.token,
      );
      expect(destroy.status).toBe(200);
      expect(destroy.body.data).toMatchObject({
        id: stack.destroyPipelineId,
        stackId: stack.id,
        projectId,
        givenId: `stack-${stack.id}-destroy`,
        name: 'Payments Network (EU): destroy',
      });

      const changeVersions = await api.get(
        `/pipelines/${stack.changePipelineId}/versions`,
        owner.token,
      );
      expect(changeVersions.status).toBe(200);
      expect(changeVersions.body).toEqual({
        data: [
          {
            id: change.body.data.latestVersionId,
            organizationId: owner.organizationId,
            pipelineId: stack.changePipelineId,
            version: 1,
            steps: [
              { type: 'iac.plan', name: 'Plan' },
              { type: 'approval', name: 'Approve the plan' },
              { type: 'iac.apply', name: 'Apply' },
            ],
            createdAt: expect.any(String),
          },
        ],
        meta: { limit: 50, totalCount: 1 },
      });
      expect(pipelineVersionSchema.parse(changeVersions.body.data[0])).toEqual(
        changeVersions.body.data[0],
      );

      const destroyVersions = await api.get(
        `/pipelines/${stack.destroyPipelineId}/versions`,
        owner.token,
      );
      expect(destroyVersions.body.data.map((v: any) => v.steps)).toEqual([
        [
          {
            type: 'iac.plan',
            name: 'Plan the destruction',
            config: { destroy: true },
          },
          { type: 'approval', name: 'Approve the destruction' },
          { type: 'iac.destroy', name: 'Destroy' },
        ],
      ]);

      const pipelines = await api.get(
        `/pipelines?projectId=${projectId}`,
        owner.token,
      );
      expect(pipelines.body.data.map((p: any) => p.id).sort()).toEqual(
        [stack.changePipelineId, stack.destroyPipelineId].sort(),
      );
    });

    it('leaves out the approval steps when the stack approves automatically', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner, { autoApprove: true });
      expect(stack.autoApprove).toBe(true);

      const change = await api.get(
        `/pipelines/${stack.changePipelineId}/versions`,
        owner.token,
      );
      expect(change.status).toBe(200);
      expect(change.body.data.map((v: any) => v.steps)).toEqual([
        [
          { type: 'iac.plan', name: 'Plan' },
          { type: 'iac.apply', name: 'Apply' },
        ],
      ]);
      const destroy = await api.get(
        `/pipelines/${stack.destroyPipelineId}/versions`,
        owner.token,
      );
      expect(destroy.body.data.map((v: any) => v.steps)).toEqual([
        [
          {
            type: 'iac.plan',
            name: 'Plan the destruction',
            config: { destroy: true },
          },
          { type: 'iac.destroy', name: 'Destroy' },
        ],
      ]);
    });

    it('takes an explicit givenId, and refuses a givenId taken in the project (409)', async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);

      const explicit = await api.post(
        '/stacks',
        { data: { ...place, name: 'Network', givenId: 'net-eu' } },
        owner.token,
      );
      expect(explicit.status).toBe(201);
      expect(explicit.body.data.givenId).toBe('net-eu');

      const derived = await createStack(api, owner, {
        ...place,
        name: 'Data Lake',
      });
      expect(derived.givenId).toBe('data-lake');

      const sameName = await api.post(
        '/stacks',
        { data: { ...place, name: 'DATA lake!' } },
        owner.token,
      );
      expect(sameName.status).toBe(409);
      const body = errorBodySchema.parse(sameName.body);
      expect(body.code).toBe('InfraDelivery:Stack:GIVEN_ID_TAKEN');
      expect(body.metadata).toEqual({ givenId: 'data-lake' });
      expect(body.requestId).toEqual(expect.any(String));

      const sameGivenId = await api.post(
        '/stacks',
        { data: { ...place, name: 'Other', givenId: 'net-eu' } },
        owner.token,
      );
      expect(sameGivenId.status).toBe(409);
      expect(sameGivenId.body.code).toBe('InfraDelivery:Stack:GIVEN_ID_TAKEN');

      // Nothing of the refused stacks was left behind.
      const stacks = await api.get('/stacks', owner.token);
      expect(stacks.body.meta.totalCount).toBe(2);
      const pipelines = await api.get('/pipelines', owner.token);
      expect(pipelines.body.meta.totalCount).toBe(4);

      // Another project may use the same givenId.
      const elsewhere = await createStack(api, owner, { name: 'Data Lake' });
      expect(elsewhere.givenId).toBe('data-lake');
    });

    it.each([
      ['spaces', 'Payments API', 'payments-api'],
      ['punctuation at both ends', '  --Edge__Cache v2--  ', 'edge-cache-v2'],
      ['no letter or digit', '!!!', 'stack'],
      // Cut at 50 characters, without a dash left at the end.
      ['a cut at a word boundary', `${'A'.repeat(49)} Network`, 'a'.repeat(49)],
      ['a long word', 'b'.repeat(80), 'b'.repeat(50)],
    ])(
      'derives a valid givenId from a name with %s',
      async (_case, name, givenId) => {
        const owner = await api.signup();
        const stack = await createStack(api, owner, { name });
        expect(stack.givenId).toBe(givenId);
        expect(givenIdSchema.safeParse(stack.givenId).success).toBe(true);
      },
    );

    it('answers 404 for an unknown environment, or one of another project or organization', async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);
      const otherProject = await createEnvironment(api, owner);
      const stranger = await api.signup();
      const strangerPlace = await createEnvironment(api, stranger);

      const cases = [
        { ...place, environmentId: 'no-such-environment' },
        { ...place, environmentId: otherProject.environmentId },
        strangerPlace,
        {
          projectId: place.projectId,
          environmentId: strangerPlace.environmentId,
        },
      ];
      for (const data of cases) {
        const response = await api.post(
          '/stacks',
          { data: { ...data, name: 'Network' } },
          owner.token,
        );
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('InfraDelivery:Environment:NOT_FOUND');
        expect(response.body.message).toBe(
          `Environment ${data.environmentId} was not found`,
        );
      }
      const stacks = await api.get('/stacks', owner.token);
      expect(stacks.body.meta.totalCount).toBe(0);
      const strangerStacks = await api.get('/stacks', stranger.token);
      expect(strangerStacks.body.meta.totalCount).toBe(0);
    });

    it('lets MEMBERs create stacks and refuses VIEWERs (403)', async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);
      const member = await api.member(owner, 'MEMBER');
      const viewer = await api.member(owner, 'VIEWER');

      const byViewer = await api.post(
        '/stacks',
        { data: { ...place, name: 'Network' } },
        viewer.token,
      );
      expect(byViewer.status).toBe(403);
      expect(byViewer.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');
      expect((await api.get('/stacks', owner.token)).body.meta.totalCount).toBe(
        0,
      );

      const byMember = await api.post(
        '/stacks',
        { data: { ...place, name: 'Network' } },
        member.token,
      );
      expect(byMember.status).toBe(201);
    });

    it('validates the body (400)', async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);

      expect(
        validationItems(
          await api.post('/stacks', { data: { ...place } }, owner.token),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.name: /)]);
      expect(
        validationItems(
          await api.post(
            '/stacks',
            { data: { ...place, name: 'Network', givenId: 'Bad_Id' } },
            owner.token,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.givenId: /)]);
      expect(
        validationItems(
          await api.post(
            '/stacks',
            { data: { projectId: place.projectId, name: 'Network' } },
            owner.token,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.environmentId: /)]);
      expect(
        validationItems(
          await api.post(
            '/stacks',
            { data: { ...place, name: 'Network', autoApprove: 'yes' } },
            owner.token,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.autoApprove: /)]);
    });

    it('keeps a stack’s path inside its repository, without slashes around', async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);
      const withPath = (path: string) =>
        api.post(
          '/stacks',
          { data: { ...place, name: `Path ${path}`, path } },
          owner.token,
        );
      for (const path of [
        '../../etc',
        'infra/../..',
        'infra\\net',
        'infra/50%',
      ]) {
        expect(validationItems(await withPath(path))).toEqual([
          'body.data.path: must be a directory inside the repository (no `.` or `..` segments, no `%`)',
        ]);
      }

      const created = await withPath('/infra/network/');
      expect(created.status).toBe(201);
      expect(created.body.data.path).toBe('infra/network');

      const moved = await api.patch(
        `/stacks/${created.body.data.id}`,
        { data: { path: 'infra/edge/' } },
        owner.token,
      );
      expect(moved.status).toBe(200);
      expect(moved.body.data.path).toBe('infra/edge');
      expect(
        validationItems(
          await api.patch(
            `/stacks/${created.body.data.id}`,
            { data: { path: 'infra/../../etc' } },
            owner.token,
          ),
        ),
      ).toEqual([
        'body.data.path: must be a directory inside the repository (no `.` or `..` segments, no `%`)',
      ]);
    });
  });

  describe('GET /stacks', () => {
    it('lists and gets stacks newest first, to VIEWERs too', async () => {
      const owner = await api.signup();
      const viewer = await api.member(owner, 'VIEWER');
      const place = await createEnvironment(api, owner);
      const first = await createStack(api, owner, { ...place, name: 'One' });
      const second = await createStack(api, owner, { ...place, name: 'Two' });

      const listed = await api.get('/stacks', viewer.token);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({
        data: [second, first],
        meta: { limit: 50, totalCount: 2 },
      });

      const fetched = await api.get(`/stacks/${first.id}`, viewer.token);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual({ data: first });
    });

    it('pages through the stacks, each once', async () => {
      const owner = await api.signup();
      const place = await createEnvironment(api, owner);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(
          (await createStack(api, owner, { ...place, name: `S${i}` })).id,
        );
      }

      const firstPage = await api.get('/stacks?limit=2', owner.token);
      expect(firstPage.status).toBe(200);
      expect(firstPage.body.data.map((s: any) => s.id)).toEqual([
        ids[4],
        ids[3],
      ]);
      expect(firstPage.body.meta).toEqual({
        limit: 2,
        nextCursor: expect.any(String),
        totalCount: 5,
      });

      const walked = await api.walk('/stacks', owner.token, 2);
      expect(walked.map(s => s.id)).toEqual([...ids].reverse());

      // A cursor belongs to its query: another filter refuses it.
      const reused = await api.get(
        `/stacks?limit=2&projectId=${
          place.projectId
        }&cursor=${encodeURIComponent(firstPage.body.meta.nextCursor)}`,
        owner.token,
      );
      expect(reused.status).toBe(400);
      expect(reused.body.code).toBe('InfraDelivery:Request:INVALID_CURSOR');
    });

    it('filters by projectId and environmentId', async () => {
      const owner = await api.signup();
      const a = await createEnvironment(api, owner);
      const otherEnvironment = await api.post(
        `/projects/${a.projectId}/environments`,
        { data: { givenId: 'staging', name: 'Staging' } },
        owner.token,
      );
      expect(otherEnvironment.status).toBe(201);
      const b = await createEnvironment(api, owner);

      const inA = await createStack(api, owner, { ...a, name: 'A prod' });
      const inAStaging = await createStack(api, owner, {
        projectId: a.projectId,
        environmentId: otherEnvironment.body.data.id,
        name: 'A staging',
      });
      const inB = await createStack(api, owner, { ...b, name: 'B prod' });

      const byProject = await api.get(
        `/stacks?projectId=${a.projectId}`,
        owner.token,
      );
      expect(byProject.body.data.map((s: any) => s.id)).toEqual([
        inAStaging.id,
        inA.id,
      ]);
      expect(byProject.body.meta.totalCount).toBe(2);

      const byEnvironment = await api.get(
        `/stacks?environmentId=${a.environmentId}`,
        owner.token,
      );
      expect(byEnvironment.body.data.map((s: any) => s.id)).toEqual([inA.id]);

      const both = await api.get(
        `/stacks?projectId=${b.projectId}&environmentId=${b.environmentId}`,
        owner.token,
      );
      expect(both.body.data.map((s: any) => s.id)).toEqual([inB.id]);

      const mismatch = await api.get(
        `/stacks?projectId=${b.projectId}&environmentId=${a.environmentId}`,
        owner.token,
      );
      expect(mismatch.body).toEqual({
        data: [],
        meta: { limit: 50, totalCount: 0 },
      });

      const walked = await api.walk(
        `/stacks?projectId=${a.projectId}`,
        owner.token,
        1,
      );
      expect(walked.map(s => s.id)).toEqual([inAStaging.id, inA.id]);
    });

    it('lists the stacks of the ids given, leaving out unknown and foreign ones', async () => {
      const owner = await api.signup();
      const stranger = await api.signup();
      const place = await createEnvironment(api, owner);
      const one = await createStack(api, owner, { ...place, name: 'One' });
      await createStack(api, owner, { ...place, name: 'Two' });
      const three = await createStack(api, owner, { ...place, name: 'Three' });
      const theirs = await createStack(api, stranger);

      const byIds = await api.get(
        `/stacks?id=${one.id}&id=${three.id}&id=${theirs.id}&id=no-such-stack`,
        owner.token,
      );
      expect(byIds.status).toBe(200);
      expect(byIds.body).toEqual({
        data: [three, one],
        meta: { limit: 50, totalCount: 2 },
      });

      const walked = await api.walk(
        `/stacks?id=${one.id}&id=${three.id}`,
        owner.token,
        1,
      );
      expect(walked.map(s => s.id)).toEqual([three.id, one.id]);

      const tooMany = await api.get(
        `/stacks?${Array.from({ length: 201 }, (_, i) => `id=s${i}`).join(
          '&',
        )}`,
        owner.token,
      );
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
    });

    it("answers 404 for another organization's stack and never lists it", async () => {
      const owner = await api.signup();
      const stranger = await api.signup();
      const theirs = await createStack(api, stranger);
      const ours = await createStack(api, owner);

      const fetched = await api.get(`/stacks/${theirs.id}`, owner.token);
      expect(fetched.status).toBe(404);
      expect(fetched.body.code).toBe('InfraDelivery:Stack:NOT_FOUND');
      const unknown = await api.get('/stacks/no-such-stack', owner.token);
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('InfraDelivery:Stack:NOT_FOUND');

      const listed = await api.get('/stacks', owner.token);
      expect(listed.body.data.map((s: any) => s.id)).toEqual([ours.id]);
      const byTheirProject = await api.get(
        `/stacks?projectId=${theirs.projectId}`,
        owner.token,
      );
      expect(byTheirProject.body.data).toEqual([]);

      const theirPipeline = await api.get(
        `/pipelines/${theirs.changePipelineId}`,
        owner.token,
      );
      expect(theirPipeline.status).toBe(404);
    });
  });

  it('answers 401 without a credential', async () => {
    const owner = await api.signup();
    const stack = await createStack(api, owner);
    for (const response of [
      await api.get('/stacks'),
      await api.get(`/stacks/${stack.id}`),
      await api.post('/stacks', {
        data: {
          projectId: stack.projectId,
          environmentId: stack.environmentId,
          name: 'Anonymous',
        },
      }),
    ]) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('InfraDelivery:Auth:MISSING_CREDENTIAL');
    }
  });

  it('records the latest run of the stack when a run is triggered', async () => {
    const owner = await api.signup();
    const stack = await createStack(api, owner);
    expect(stack).not.toHaveProperty('latestRunId');

    const run = await trigger(api, owner, stack.changePipelineId);
    expect(run.attachedEntityId).toBe(stack.id);
    const afterTrigger = await api.get(`/stacks/${stack.id}`, owner.token);
    expect(afterTrigger.body.data.latestRunId).toBe(run.id);

    // A run held in the queue is the latest run as soon as it is triggered.
    const destroyRun = await trigger(api, owner, stack.destroyPipelineId);
    expect(destroyRun.status).toBe('QUEUED');
    const afterQueued = await api.get(`/stacks/${stack.id}`, owner.token);
    expect(afterQueued.body.data.latestRunId).toBe(destroyRun.id);

    // The older run ending does not take the place back.
    await act(api, owner, run.id, 'cancel');
    const afterCancel = await api.get(`/stacks/${stack.id}`, owner.token);
    expect(afterCancel.body.data.latestRunId).toBe(destroyRun.id);
    expect(
      (await api.get(`/pipeline-runs/${destroyRun.id}`, owner.token)).body.data
        .status,
    ).toBe('RUNNING');

    const listed = await api.get('/stacks', owner.token);
    expect(listed.body.data[0].latestRunId).toBe(destroyRun.id);
  });
});
