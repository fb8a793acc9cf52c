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

function codeOf(response: request.Response): string {
  return errorBodySchema.parse(response.body).code;
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
        if (deletion.status === 204) {
          expect(creation.status).toBe(404);
          expect(codeOf(creation)).toBe('InfraDelivery:Project:NOT_FOUND');
          expect(environments.status).toBe(404);
        } else {
          expect(deletion.status).toBe(409);
          expect(creation.status).toBe(201);
          expect(environments.body.data.map((e: any) => e.id)).toEqual([
            creation.body.data.id,
          ]);
        }
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

        if (deletion.status === 204) {
          expect(creation.status).toBe(404);
          expect(codeOf(creation)).toBe('InfraDelivery:Environment:NOT_FOUND');
        } else {
          expect(deletion.status).toBe(409);
          expect(codeOf(deletion)).toBe('InfraDelivery:Environment:IN_USE');
          expect(creation.status).toBe(201);
          const stack = await api.get(
            `/stacks/${creation.body.data.id}`,
            owner.token,
          );
          expect(stack.status).toBe(200);
        }
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

        if (deletion.status === 204) {
          expect(triggered.status).toBe(404);
          expect(codeOf(triggered)).toBe('InfraDelivery:Pipeline:NOT_FOUND');
        } else {
          expect(deletion.status).toBe(409);
          expect(codeOf(deletion)).toBe('InfraDelivery:Stack:BUSY');
          expect(triggered.status).toBe(201);
          const run = await api.get(
            `/pipeline-runs/${triggered.body.data.id}`,
            owner.token,
          );
          expect(run.status).toBe(200);
          expect(run.body.data.status).toBe('RUNNING');
        }
      }
    });
  },
);
