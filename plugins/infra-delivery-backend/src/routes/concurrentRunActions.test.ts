import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import request from 'supertest';
import {
  claim,
  createRunner,
  createStack,
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

jest.setTimeout(120_000);

const databases = createTestDatabases();

/** How many times each race is run: each round is one chance for the two actions to interleave. */
const ROUNDS = 8;

/** A plan of `terraform show -json` creating `count` objects. */
function planJson(count: number) {
  return {
    format_version: '1.2',
    terraform_version: '1.9.0',
    resource_changes: Array.from({ length: count }, (_, i) => ({
      address: `aws_s3_object.object[${i}]`,
      mode: 'managed',
      type: 'aws_s3_object',
      name: 'object',
      index: i,
      provider_name: 'registry.terraform.io/hashicorp/aws',
      change: {
        actions: ['create'],
        before: null,
        after: { key: `object-${i}` },
        after_sensitive: {},
      },
    })),
  };
}

function codeOf(response: request.Response): string {
  return errorBodySchema.parse(response.body).code;
}

/** An answer as a test compares it: its status, and its error code when it is an error. */
function answerOf(response: request.Response): string {
  return response.status < 400
    ? String(response.status)
    : `${response.status} ${codeOf(response)}`;
}

describe.each(databases.eachSupportedId())(
  'concurrent actions on one run, on %s',
  databaseId => {
    let knex: Knex;
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      api = await startInfraDeliveryBackend(knex);
    });

    /** Ends a run whatever state a race left it in, so that its steps are claimed no more. */
    async function endRun(owner: TestOrganization, runId: string) {
      const response = await api.post(
        `/pipeline-runs/${runId}/cancel`,
        { data: {} },
        owner.token,
      );
      expect([200, 409]).toContain(response.status);
    }

    function reportTwice(runnerKey: string, stepId: string, body: object) {
      return Promise.all(
        [0, 1].map(() =>
          api.post(
            `/runner/step-executions/${stepId}/complete`,
            { data: body },
            runnerKey,
          ),
        ),
      );
    }

    it('records a plan reported twice at once by one lease once, and refuses the second report', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (let round = 0; round < ROUNDS; round++) {
        const stack = await createStack(api, owner);
        const run = await trigger(api, owner, stack.changePipelineId);
        const claimed = await claim(api, runner.key);
        const answers = await reportTwice(
          runner.key,
          claimed.stepExecution.id,
          {
            leaseToken: claimed.leaseToken,
            status: 'SUCCEEDED',
            planJson: planJson(3),
          },
        );

        expect(answers.map(answer => answer.status).sort()).toEqual([200, 409]);
        expect(codeOf(answers.find(answer => answer.status === 409)!)).toBe(
          'InfraDelivery:Runner:LEASE_LOST',
        );
        const summaries = await api.get(
          `/iac-execution-summaries?pipelineRunId=${run.id}`,
          owner.token,
        );
        expect(summaries.body.meta.totalCount).toBe(1);
        const resources = await api.get(
          `/iac-resources?pipelineRunId=${run.id}`,
          owner.token,
        );
        expect(resources.body.meta.totalCount).toBe(3);
        expect((await getRun(api, owner, run.id)).status).toBe(
          'WAITING_FOR_APPROVAL',
        );
        await endRun(owner, run.id);
      }
    });

    it('lets a runner’s failure report and a cancel of its run race: whichever comes first ends the run', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (let round = 0; round < ROUNDS; round++) {
        const stack = await createStack(api, owner);
        const run = await trigger(api, owner, stack.changePipelineId);
        const claimed = await claim(api, runner.key);
        const [report, cancel] = await Promise.all([
          api.post(
            `/runner/step-executions/${claimed.stepExecution.id}/complete`,
            {
              data: {
                leaseToken: claimed.leaseToken,
                status: 'FAILED',
              },
            },
            runner.key,
          ),
          api.post(
            `/pipeline-runs/${run.id}/cancel`,
            { data: {} },
            owner.token,
          ),
        ]);

        const ended = await getRun(api, owner, run.id);
        const [step] = await getSteps(api, owner, run.id);
        expect([
          {
            report: '200',
            reported: 'FAILED',
            cancel: '409 InfraDelivery:PipelineRun:NOT_CANCELLABLE',
            run: 'FAILED',
            step: 'FAILED',
          },
          // The cancel first: the runner's report comes within the cancelled step's grace
          // and is taken as the runner having stopped it; nothing of its result counts.
          {
            report: '200',
            reported: 'CANCELLED',
            cancel: '200',
            run: 'CANCELLED',
            step: 'CANCELLED',
          },
        ]).toContainEqual({
          report: answerOf(report),
          reported: report.body.data?.status,
          cancel: answerOf(cancel),
          run: ended.status,
          step: step.status,
        });
      }
    });

    it('keeps the success a runner was told of when a cancel races its report', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (let round = 0; round < ROUNDS; round++) {
        const stack = await createStack(api, owner);
        const run = await trigger(api, owner, stack.changePipelineId);
        const claimed = await claim(api, runner.key);
        const [report, cancel] = await Promise.all([
          api.post(
            `/runner/step-executions/${claimed.stepExecution.id}/complete`,
            {
              data: {
                leaseToken: claimed.leaseToken,
                status: 'SUCCEEDED',
                planJson: planJson(1),
              },
            },
            runner.key,
          ),
          api.post(
            `/pipeline-runs/${run.id}/cancel`,
            { data: {} },
            owner.token,
          ),
        ]);

        // The cancel comes first or second; either way it ends the run.
        expect(cancel.status).toBe(200);
        expect((await getRun(api, owner, run.id)).status).toBe('CANCELLED');
        const [step] = await getSteps(api, owner, run.id);
        expect([
          { report: '200', reported: 'SUCCEEDED', step: 'SUCCEEDED' },
          // The cancel first: the report comes within the cancelled step's grace and is taken
          // as the runner having stopped it; the success does not count.
          { report: '200', reported: 'CANCELLED', step: 'CANCELLED' },
        ]).toContainEqual({
          report: answerOf(report),
          reported: report.body.data?.status,
          step: step.status,
        });
      }
    });

    /** A run of a new stack waiting for the approval of its plan. */
    async function waitingForApproval(
      owner: TestOrganization,
      runnerKey: string,
    ) {
      const stack = await createStack(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runnerKey);
      const report = await api.post(
        `/runner/step-executions/${claimed.stepExecution.id}/complete`,
        {
          data: {
            leaseToken: claimed.leaseToken,
            status: 'SUCCEEDED',
            planJson: planJson(1),
          },
        },
        runnerKey,
      );
      expect(report.status).toBe(200);
      expect((await getRun(api, owner, run.id)).status).toBe(
        'WAITING_FOR_APPROVAL',
      );
      return run;
    }

    function decide(
      owner: TestOrganization,
      runId: string,
      action: 'approve' | 'reject' | 'cancel',
    ) {
      return api.post(
        `/pipeline-runs/${runId}/${action}`,
        { data: {} },
        owner.token,
      );
    }

    it('takes one of an approval and a rejection sent at once, and refuses the other', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (let round = 0; round < ROUNDS; round++) {
        const run = await waitingForApproval(owner, runner.key);
        const [approve, reject] = await Promise.all([
          decide(owner, run.id, 'approve'),
          decide(owner, run.id, 'reject'),
        ]);

        const [, approval] = await getSteps(api, owner, run.id);
        const decided = await getRun(api, owner, run.id);
        const refused =
          '409 InfraDelivery:PipelineRun:NOT_WAITING_FOR_APPROVAL';
        expect([
          {
            approve: '200',
            reject: refused,
            approval: 'SUCCEEDED',
            run: 'RUNNING',
          },
          {
            approve: refused,
            reject: '200',
            approval: 'FAILED',
            run: 'FAILED',
          },
        ]).toContainEqual({
          approve: answerOf(approve),
          reject: answerOf(reject),
          approval: approval.status,
          run: decided.status,
        });
        await endRun(owner, run.id);
      }
    });

    it('lets an approval and a cancel race without an error: the run ends cancelled', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (let round = 0; round < ROUNDS; round++) {
        const run = await waitingForApproval(owner, runner.key);
        const [approve, cancel] = await Promise.all([
          decide(owner, run.id, 'approve'),
          decide(owner, run.id, 'cancel'),
        ]);

        expect(cancel.status).toBe(200);
        const [, approval, apply] = await getSteps(api, owner, run.id);
        expect([
          { approve: '200', approval: 'SUCCEEDED' },
          {
            approve: '409 InfraDelivery:PipelineRun:NOT_WAITING_FOR_APPROVAL',
            approval: 'CANCELLED',
          },
        ]).toContainEqual({
          approve: answerOf(approve),
          approval: approval.status,
        });
        expect(['SKIPPED', 'CANCELLED']).toContain(apply.status);
        expect((await getRun(api, owner, run.id)).status).toBe('CANCELLED');
      }
    });

    it('gives a step that its runner’s report ended no lease again when a heartbeat races the report', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (let round = 0; round < ROUNDS; round++) {
        const stack = await createStack(api, owner);
        const run = await trigger(api, owner, stack.changePipelineId);
        const claimed = await claim(api, runner.key);
        const stepPath = `/runner/step-executions/${claimed.stepExecution.id}`;
        const [heartbeat, report] = await Promise.all([
          api.post(
            `${stepPath}/heartbeat`,
            { data: { leaseToken: claimed.leaseToken } },
            runner.key,
          ),
          api.post(
            `${stepPath}/complete`,
            {
              data: {
                leaseToken: claimed.leaseToken,
                status: 'SUCCEEDED',
                planJson: planJson(1),
              },
            },
            runner.key,
          ),
        ]);

        // The lease as the database keeps it: the API shows none on a step that ended.
        const step = await knex('step_executions')
          .where({ id: claimed.stepExecution.id })
          .first('status', 'lease_expires_at');
        expect([
          { heartbeat: '200', report: '200', step: 'SUCCEEDED', lease: null },
          {
            heartbeat: '409 InfraDelivery:Runner:LEASE_LOST',
            report: '200',
            step: 'SUCCEEDED',
            lease: null,
          },
        ]).toContainEqual({
          heartbeat: answerOf(heartbeat),
          report: answerOf(report),
          step: step.status,
          lease: step.lease_expires_at,
        });
        await endRun(owner, run.id);
      }
    });
  },
);
