import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import {
  createEnvironment,
  createStack,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(120_000);

const databases = createTestDatabases();

/** How many times each race is run: each round is one chance for the two calls to interleave. */
const ROUNDS = 12;

/** An answer as a test compares it: its status, and its error code when it is an error. */
function answerOf(response: request.Response): string {
  return response.status < 400
    ? String(response.status)
    : `${response.status} ${errorBodySchema.parse(response.body).code}`;
}

describe.each(databases.eachSupportedId())(
  'a deletion racing the creation of what it contains, on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    it('answers an environment created in a project being deleted with 404, or refuses the deletion', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const project = await api.post(
          '/projects',
          { data: { givenId: `project-${round}`, name: 'Project' } },
          owner.token,
        );
        expect(project.status).toBe(201);
        const projectId = project.body.data.id;
        const [deletion, creation] = await Promise.all([
          api.delete(`/projects/${projectId}`, owner.token),
          api.post(
            `/projects/${projectId}/environments`,
            { data: { givenId: `env-${round}`, name: 'Environment' } },
            owner.token,
          ),
        ]);

        const environments = await api.get(
          `/projects/${projectId}/environments`,
          owner.token,
        );
        const created = { creation: '201', environments: 1 };
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:Project:NOT_FOUND',
            environments: undefined,
          },
          {
            deletion: '409 InfraDelivery:Project:HAS_ENVIRONMENTS',
            ...created,
          },
          { deletion: '409 InfraDelivery:Project:IN_USE', ...created },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
          environments: environments.body.data?.length,
        });
      }
    });

    it('answers a pipeline created in a project being deleted with 404, or refuses the deletion', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const project = await api.post(
          '/projects',
          { data: { givenId: `pipelines-${round}`, name: 'Project' } },
          owner.token,
        );
        expect(project.status).toBe(201);
        const projectId = project.body.data.id;
        const [deletion, creation] = await Promise.all([
          api.delete(`/projects/${projectId}`, owner.token),
          api.post(
            '/pipelines',
            {
              data: {
                projectId,
                givenId: `pipeline-${round}`,
                name: 'Pipeline',
                steps: [{ type: 'approval', name: 'Approve' }],
              },
            },
            owner.token,
          ),
        ]);

        const pipelines = await api.get(
          `/pipelines?projectId=${projectId}`,
          owner.token,
        );
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:Project:NOT_FOUND',
            pipelines: 0,
          },
          {
            deletion: '409 InfraDelivery:Project:IN_USE',
            creation: '201',
            pipelines: 1,
          },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
          pipelines: pipelines.body.data?.length,
        });
      }
    });

    it('answers a stack created in an environment being deleted with 404, or refuses the deletion', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const place = await createEnvironment(api, owner);
        const [deletion, creation] = await Promise.all([
          api.delete(
            `/projects/${place.projectId}/environments/${place.environmentId}`,
            owner.token,
          ),
          api.post(
            '/stacks',
            { data: { ...place, name: 'Stack' } },
            owner.token,
          ),
        ]);

        const stack =
          creation.status === 201
            ? await api.get(`/stacks/${creation.body.data.id}`, owner.token)
            : undefined;
        expect([
          {
            deletion: '204',
            creation: '404 InfraDelivery:Environment:NOT_FOUND',
            stack: undefined,
          },
          {
            deletion: '409 InfraDelivery:Environment:IN_USE',
            creation: '201',
            stack: 200,
          },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          creation: answerOf(creation),
          stack: stack?.status,
        });
      }
    });

    it('answers a run triggered on a stack being deleted with 404, or refuses the deletion while the run is open', async () => {
      const owner = await api.signup();
      for (let round = 0; round < ROUNDS; round++) {
        const stack = await createStack(api, owner);
        const [deletion, triggered] = await Promise.all([
          api.delete(`/stacks/${stack.id}`, owner.token),
          api.post(
            `/pipelines/${stack.changePipelineId}/runs`,
            { data: {} },
            owner.token,
          ),
        ]);

        const run =
          triggered.status === 201
            ? await api.get(
                `/pipeline-runs/${triggered.body.data.id}`,
                owner.token,
              )
            : undefined;
        expect([
          {
            deletion: '204',
            trigger: '404 InfraDelivery:Pipeline:NOT_FOUND',
            run: undefined,
          },
          {
            deletion: '409 InfraDelivery:Stack:BUSY',
            trigger: '201',
            run: 'RUNNING',
          },
        ]).toContainEqual({
          deletion: answerOf(deletion),
          trigger: answerOf(triggered),
          run: run?.body.data?.status,
        });
      }
    });
  },
);
