import { mockServices } from '@backstage/backend-test-utils';
import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import { markDatabaseErrors } from '../database/databaseErrors';
import { answerError } from '../http/errorHandler';
import {
  claim,
  createRunner,
  createStack,
  expectStatus,
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

/**
 * A NUL character (U+0000), which SQLite stores and PostgreSQL refuses in any text (SQLSTATE
 * 22021). Before, on PostgreSQL: a path id or an id filter with `%00` was a 500 logged with its
 * stack, and a runner's batch of log lines with one NUL (a command's binary output) was a 500
 * that the runner sent again and again, so every later line of the step was lost.
 */
describe.each(databases.eachSupportedId())(
  'NUL characters on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    let owner: TestOrganization;
    let runnerKey: string;

    beforeAll(async () => {
      const knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex);
      owner = await api.signup();
      runnerKey = (await createRunner(api, owner)).key;
    });

    const answer = (response: request.Response): [number, string] => [
      response.status,
      errorBodySchema.parse(response.body).code,
    ];

    it("keeps a runner's log lines that hold one, and the lines after them", async () => {
      const stack = await createStack(api, owner);
      await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runnerKey);
      const logsPath = `/runner/step-executions/${claimed.stepExecution.id}/logs`;
      expectStatus(
        await api.post(
          logsPath,
          {
            data: {
              leaseToken: claimed.leaseToken,
              lines: [
                { text: 'PK\u0003\u0004\u0000\u0000binary' },
                { text: 'next' },
              ],
            },
          },
          runnerKey,
        ),
        204,
      );
      expectStatus(
        await api.post(
          logsPath,
          {
            data: {
              leaseToken: claimed.leaseToken,
              lines: [{ text: 'later' }],
            },
          },
          runnerKey,
        ),
        204,
      );
      const logs = await api.get(
        `/pipeline-step-executions/${claimed.stepExecution.id}/logs`,
        owner.token,
      );
      expectStatus(logs, 200);
      expect(logs.body.data.map((line: { text: string }) => line.text)).toEqual(
        ['PK\u0003\u0004\uFFFD\uFFFDbinary', 'next', 'later'],
      );
    });

    it('answers a path id or a query value holding one with a 400', async () => {
      for (const path of [
        '/pipeline-runs/a%00b',
        '/projects/%00',
        '/stacks/x%00',
      ]) {
        expect(answer(await api.get(path, owner.token))).toEqual([
          400,
          'InfraDelivery:Request:MALFORMED_PATH',
        ]);
      }
      for (const query of [
        'pipelineId=%00',
        'id=a%00b',
        'status=QUEUED&status=%00',
      ]) {
        const response = await api.get(`/pipeline-runs?${query}`, owner.token);
        expect(answer(response)).toEqual([
          400,
          'InfraDelivery:Request:VALIDATION_FAILED',
        ]);
        expect(JSON.stringify(response.body)).toContain('NUL');
      }
    });

    if (databaseId === 'POSTGRES_15') {
      it("answers PostgreSQL's refusal of one in any other text with a 400, not a 500", async () => {
        const knex = await databases.init(databaseId);
        markDatabaseErrors(knex);
        const refused = await knex
          .raw('select ?::text as t', ['a\u0000b'])
          .catch(error => error);
        const logger = mockServices.logger.mock();
        const { status, body } = answerError(refused, 'request-1', logger);
        expect([status, body.code]).toEqual([
          400,
          'InfraDelivery:Request:UNSUPPORTED_CHARACTER',
        ]);
        expect(logger.error).not.toHaveBeenCalled();
      });
    }
  },
);
