import { followLocalDeployments } from '../__testUtils__/localDeployments';
import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import request from 'supertest';
import {
  createEnvironment,
  createPipeline,
  expectStatus,
} from '../__testUtils__/pipelineFixtures';
import {
  BASE,
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();
const STAGE_MILLIS = 3_600_000;
const CONCURRENT = 10;

let counter = 0;
function next(): number {
  counter += 1;
  return counter;
}

describe.each(databases.eachSupportedId())(
  'Idempotency-Key on %s',
  databaseId => {
    let knex: Knex;
    let api: InfraDeliveryTestClient;
    let owner: TestOrganization;

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
      owner = await api.signup();
    });

    function post(path: string, body: unknown, token: string, key?: string) {
      const req = request(api.server)
        .post(`${BASE}${path}`)
        .set('authorization', `Bearer ${token}`);
      if (key !== undefined) {
        req.set('idempotency-key', key);
      }
      return body === undefined ? req : req.send(body as object);
    }

    /** Sends the same request `CONCURRENT` times at once. */
    function burst(path: string, body: unknown, token: string, key: string) {
      return Promise.all(
        Array.from({ length: CONCURRENT }, () => post(path, body, token, key)),
      );
    }

    /** Every answer is the one first answer: same status, same body. */
    function expectOneAnswer(responses: request.Response[], status: number) {
      const first = responses[0];
      expect(first.status).toBe(status);
      for (const response of responses) {
        expect({ status: response.status, body: response.body }).toEqual({
          status: first.status,
          body: first.body,
        });
      }
      expect(
        responses.filter(r => r.header['idempotent-replayed'] === undefined),
      ).toHaveLength(1);
    }

    async function tick(hoursLater: number) {
      await followLocalDeployments(knex, STAGE_MILLIS, hoursLater);
    }

    async function deploymentWorld() {
      const account = await api.post(
        '/cloud-accounts',
        {
          // An AWS account is registered once in an organization: each world has its own.
          data: {
            givenId: `aws-${next()}`,
            name: 'AWS',
            cloudId: String(123_456_789_012 + next()),
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
      const { environmentId } = await createEnvironment(api, owner);
      const service = `web-${next()}`;
      const body = (image: string) => ({
        data: {
          cloudAccountId: account.body.data.id,
          region: 'eu-west-1',
          environmentId,
          clusterRef: 'main',
          serviceRef: service,
          taskDefinition: {
            family: service,
            containerDefinitions: [{ name: 'app', image, essential: true }],
          },
        },
      });
      const count = async () =>
        Number(
          (
            await knex('deployments')
              .where({ service_name: service })
              .count({ n: '*' })
          )[0].n,
        );
      return { body, count };
    }

    it('triggers one run for ten concurrent identical requests and gives all the same answer', async () => {
      const pipeline = await createPipeline(api, owner);
      const responses = await burst(
        `/pipelines/${pipeline.id}/runs`,
        { data: { description: 'once' } },
        owner.token,
        `trigger-${next()}`,
      );
      expectOneAnswer(responses, 201);
      const runs = await knex('pipeline_runs').where({
        pipeline_id: pipeline.id,
      });
      expect(runs.map(r => r.id)).toEqual([responses[0].body.data.id]);
    });

    it('triggers again for a request without a key or with a new key', async () => {
      const pipeline = await createPipeline(api, owner);
      const path = `/pipelines/${pipeline.id}/runs`;
      const key = `trigger-${next()}`;
      const first = await post(path, { data: {} }, owner.token, key);
      const replay = await post(path, { data: {} }, owner.token, key);
      const other = await post(path, { data: {} }, owner.token, `${key}-b`);
      const unkeyed = await post(path, { data: {} }, owner.token);
      expect(replay.body.data.id).toBe(first.body.data.id);
      expect(replay.header['idempotent-replayed']).toBe('true');
      expect(
        new Set([first, other, unkeyed].map(r => r.body.data.id)).size,
      ).toBe(3);
    });

    it('refuses the same key with a different body with a 422 ErrorBody and writes nothing', async () => {
      const pipeline = await createPipeline(api, owner);
      const path = `/pipelines/${pipeline.id}/runs`;
      const key = `trigger-${next()}`;
      expectStatus(
        await post(path, { data: { description: 'a' } }, owner.token, key),
        201,
      );
      const refused = await post(
        path,
        { data: { description: 'b' } },
        owner.token,
        key,
      );
      expect(refused.status).toBe(422);
      expect(errorBodySchema.parse(refused.body).code).toBe(
        'InfraDelivery:IdempotencyKey:REUSED_WITH_DIFFERENT_REQUEST',
      );
      const other = await createPipeline(api, owner);
      const elsewhere = await post(
        `/pipelines/${other.id}/runs`,
        { data: { description: 'a' } },
        owner.token,
        key,
      );
      expect(elsewhere.status).toBe(422);
      expect(
        await knex('pipeline_runs').whereIn('pipeline_id', [
          pipeline.id,
          other.id,
        ]),
      ).toHaveLength(1);
    });

    it('refuses a malformed key with a 400 ErrorBody before doing anything', async () => {
      const pipeline = await createPipeline(api, owner);
      const response = await post(
        `/pipelines/${pipeline.id}/runs`,
        { data: {} },
        owner.token,
        'x'.repeat(256),
      );
      expect(response.status).toBe(400);
      expect(errorBodySchema.parse(response.body).code).toBe(
        'InfraDelivery:IdempotencyKey:INVALID',
      );
      expect(
        await knex('pipeline_runs').where({ pipeline_id: pipeline.id }),
      ).toHaveLength(0);
    });

    it('creates one deployment for ten concurrent identical requests', async () => {
      const world = await deploymentWorld();
      const responses = await burst(
        '/deployments',
        world.body('registry.example.com/web:1'),
        owner.token,
        `deploy-${next()}`,
      );
      expectOneAnswer(responses, 201);
      expect(await world.count()).toBe(1);
    });

    it('rolls back once for ten concurrent identical requests', async () => {
      const world = await deploymentWorld();
      const first = await post(
        '/deployments',
        world.body('registry.example.com/web:1'),
        owner.token,
      );
      expectStatus(first, 201);
      await tick(10);
      expectStatus(
        await post(
          '/deployments',
          world.body('registry.example.com/web:2'),
          owner.token,
        ),
        201,
      );
      await tick(20);
      const responses = await burst(
        `/deployments/${first.body.data.id}/rollback`,
        undefined,
        owner.token,
        `rollback-${next()}`,
      );
      expectOneAnswer(responses, 201);
      expect(responses[0].body.data.rollbackToDeploymentId).toBe(
        first.body.data.id,
      );
      expect(await world.count()).toBe(3);
    });

    it('creates one API key for ten concurrent identical requests and never replays it to another caller', async () => {
      const name = `ci key ${next()}`;
      const key = `api-key-${next()}`;
      const responses = await burst(
        '/api-keys',
        { data: { name } },
        owner.token,
        key,
      );
      expectOneAnswer(responses, 201);
      expect(responses[0].body.data.key).toMatch(/^idk_/);
      expect(await knex('api_keys').where({ name })).toHaveLength(1);

      const admin = await api.member(owner, 'ADMIN');
      const theirs = await post(
        '/api-keys',
        { data: { name } },
        admin.token,
        key,
      );
      expect(theirs.status).toBe(201);
      expect(theirs.header['idempotent-replayed']).toBeUndefined();
      expect(theirs.body.data.id).not.toBe(responses[0].body.data.id);
      expect(JSON.stringify(theirs.body)).not.toContain(
        responses[0].body.data.key,
      );
      expect(await knex('api_keys').where({ name })).toHaveLength(2);
    });

    it('releases the key of a refused request, so a corrected retry with it works', async () => {
      const key = `api-key-${next()}`;
      const body = {
        data: {
          name: `sa key ${next()}`,
          ownerType: 'SERVICE_ACCOUNT',
          ownerId: '01890000-0000-7000-8000-000000000000',
        },
      };
      const missing = await post('/api-keys', body, owner.token, key);
      expect(missing.status).toBe(404);
      expect(errorBodySchema.parse(missing.body).code).toMatch(/NOT_FOUND$/);
      const again = await post('/api-keys', body, owner.token, key);
      expect(again.status).toBe(404);
      expect(again.header['idempotent-replayed']).toBeUndefined();
      const corrected = await post(
        '/api-keys',
        { data: { name: body.data.name } },
        owner.token,
        key,
      );
      expect(corrected.status).toBe(201);
      expect(corrected.header['idempotent-replayed']).toBeUndefined();
      expect(
        await knex('api_keys').where({ name: body.data.name }),
      ).toHaveLength(1);
    });
  },
);
