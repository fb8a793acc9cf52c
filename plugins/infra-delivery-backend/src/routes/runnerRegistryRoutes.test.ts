import {
  errorBodySchema,
  listResponseSchema,
  PipelineRun,
  Runner,
  RunnerClaim,
  runnerSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  claim,
  complete,
  createRunner,
  createStack,
  expectStatus,
  getRun,
  signOff,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';
import { useSettableDate } from '../__testUtils__/settableDate';
import { NO_RUNNER_REASON } from '../runners/runnerWait';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/**
 * Seen within 2 s is ONLINE; forgotten after 4 s — of a clock that moves only when a test moves
 * it: on the wall clock a loaded machine let more than two seconds pass between a claim and the
 * list that read the runner, OFFLINE, in CI.
 */
const ONLINE_SECONDS = 2;
const RETENTION_SECONDS = 4;

describe.each(databases.eachSupportedId())(
  'the runner registry on %s',
  databaseId => {
    const clock = useSettableDate();
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId), {
        config: {
          infraDelivery: {
            runners: {
              onlineSeconds: ONLINE_SECONDS,
              retentionDays: RETENTION_SECONDS / 86_400,
            },
          },
        },
      });
    });

    async function listRunners(
      caller: { token: string },
      query = '',
    ): Promise<{ data: Runner[]; meta: { nextCursor?: string } }> {
      const response = await api.get(`/runners${query}`, caller.token);
      expectStatus(response, 200);
      return listResponseSchema(runnerSchema).parse(response.body);
    }

    async function claimNothing(
      key: string,
      runner: Record<string, unknown>,
    ): Promise<void> {
      const response = await api.post('/runner/claims', { data: runner }, key);
      expectStatus(response, 204);
    }

    it('records a runner that polls and finds no work, with what it says of itself', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      expect((await listRunners(owner)).data).toEqual([]);

      await claimNothing(runner.key, {
        runnerId: 'build-host-1',
        labels: ['linux', 'aws'],
        version: '1.4.0',
        hostname: 'build-host-1.example.com',
        pollIntervalMs: 2_000,
      });

      const { data } = await listRunners(owner);
      expect(data).toEqual([
        {
          runnerId: 'build-host-1',
          serviceAccountId: runner.serviceAccountId,
          serviceAccountName: runner.serviceAccountName,
          labels: ['linux', 'aws'],
          version: '1.4.0',
          hostname: 'build-host-1.example.com',
          pollIntervalMs: 2_000,
          firstSeenAt: expect.any(String),
          lastSeenAt: expect.any(String),
          status: 'ONLINE',
        },
      ]);
      expect(Date.now() - Date.parse(data[0].lastSeenAt)).toBeLessThan(5_000);
    });

    it('refuses control characters in what a runner says of itself (400), and lists no such runner', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (const [field, value] of [
        ['runnerId', '\u0000'],
        ['runnerId', 'host\u202e1'],
        ['runnerId', '\ud800'],
        ['hostname', 'build\nhost'],
        ['version', '1.0\u0007'],
        ['labels', ['linux', 'a\u0000b']],
      ] as const) {
        const response = await api.post(
          '/runner/claims',
          { data: { runnerId: 'build-host-1', [field]: value } },
          runner.key,
        );
        expectStatus(response, 400);
        const body = errorBodySchema.parse(response.body);
        expect(body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        expect(body.details?.[0].items).toEqual([
          expect.stringMatching(
            new RegExp(
              `^body\\.data\\.${field}(\\.1)?: must not contain control characters`,
            ),
          ),
        ]);
      }
      expect((await listRunners(owner)).data).toEqual([]);

      // Letters of any script and emoji are a runner's name as much as ASCII is.
      await claimNothing(runner.key, {
        runnerId: 'hôte-構築-🚀',
        hostname: 'hôte.example.com',
        labels: ['linux', 'région-ouest'],
      });
      expect((await listRunners(owner)).data.map(r => r.runnerId)).toEqual([
        'hôte-構築-🚀',
      ]);
    });

    it('names a runner by its service account, and still lists it once that account is deleted', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      await claimNothing(runner.key, { runnerId: 'named-1' });
      expect((await listRunners(owner)).data[0].serviceAccountName).toBe(
        runner.serviceAccountName,
      );

      expectStatus(
        await api.delete(
          `/service-accounts/${runner.serviceAccountId}`,
          owner.token,
        ),
        204,
      );

      const [gone] = (await listRunners(owner)).data;
      expect(gone.runnerId).toBe('named-1');
      expect(gone).not.toHaveProperty('serviceAccountName');
    });

    it('says when a working runner was last heard from, its log appends counted, beside its heartbeats', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      const run = await trigger(api, owner, stack.changePipelineId);
      const claimed = await claim(api, runner.key, 'busy-worker');

      // Busy streaming logs, past the registry's write interval, with no heartbeat since its claim.
      clock.advance(700);
      expectStatus(
        await api.post(
          `/runner/step-executions/${claimed.stepExecution.id}/logs`,
          {
            data: {
              leaseToken: claimed.leaseToken,
              lines: [
                { text: 'aws_vpc.main: Still creating... [10s elapsed]' },
              ],
            },
          },
          runner.key,
        ),
        204,
      );

      const [busy] = (await listRunners(owner)).data;
      const lease = busy.currentStepLease!;
      expect(Date.parse(busy.lastSeenAt)).toBeGreaterThan(
        Date.parse(lease.renewedAt) + 500,
      );
      expect(lease.lastHeardAt).toBe(busy.lastSeenAt);
      // The step and the run, as their pages read them, say the same.
      const steps = await api.get(
        `/pipeline-runs/${run.id}/step-executions`,
        owner.token,
      );
      expect(steps.body.data[0].lease).toEqual(lease);
      const read = await api.get(`/pipeline-runs/${run.id}`, owner.token);
      expect(read.body.data.leasedStep.lease).toEqual(lease);
    });

    it('shows the step a runner works on from its claim to its completion', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const runner = await createRunner(api, owner);
      await trigger(api, owner, stack.changePipelineId);

      const claimed = await claim(api, runner.key, 'worker');
      const [working] = (await listRunners(owner)).data;
      expect(working).toMatchObject({
        runnerId: 'worker',
        status: 'ONLINE',
        currentStepExecutionId: claimed.stepExecution.id,
        currentPipelineRunId: claimed.stepExecution.pipelineRunId,
        currentStepName: 'Plan',
        // Its lease on the step, as the step's own read shows it.
        currentStepLease: {
          runnerId: 'worker',
          renewedAt: expect.any(String),
          expiresAt: claimed.leaseExpiresAt,
          lastHeardAt: expect.any(String),
        },
      });

      // A heartbeat after the online window keeps the runner ONLINE.
      clock.advance(ONLINE_SECONDS * 1000 + 200);
      expect((await listRunners(owner)).data[0].status).toBe('OFFLINE');
      expectStatus(
        await api.post(
          `/runner/step-executions/${claimed.stepExecution.id}/heartbeat`,
          { data: { leaseToken: claimed.leaseToken } },
          runner.key,
        ),
        200,
      );
      const beating = (await listRunners(owner)).data[0];
      expect(beating.status).toBe('ONLINE');
      expect(beating.currentStepExecutionId).toBe(claimed.stepExecution.id);
      // The heartbeat renewed the lease the list shows.
      expect(Date.parse(beating.currentStepLease!.renewedAt)).toBeGreaterThan(
        Date.parse(working.currentStepLease!.renewedAt),
      );

      await complete(api, runner.key, claimed);
      const idle = (await listRunners(owner)).data[0];
      expect(idle.status).toBe('ONLINE');
      expect(idle.currentStepExecutionId).toBeUndefined();
      expect(idle.currentPipelineRunId).toBeUndefined();
      expect(idle.currentStepName).toBeUndefined();
      expect(idle).not.toHaveProperty('currentStepLease');
    });

    it('turns a silent runner OFFLINE, filters by status, and forgets it after the retention', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      await claimNothing(runner.key, { runnerId: 'silent' });
      clock.advance(ONLINE_SECONDS * 1000 + 200);
      await claimNothing(runner.key, { runnerId: 'chatty' });

      const byId = (runners: Runner[]) =>
        Object.fromEntries(runners.map(r => [r.runnerId, r.status]));
      expect(byId((await listRunners(owner)).data)).toEqual({
        silent: 'OFFLINE',
        chatty: 'ONLINE',
      });
      expect(
        (await listRunners(owner, '?status=ONLINE')).data.map(r => r.runnerId),
      ).toEqual(['chatty']);
      expect(
        (await listRunners(owner, '?status=OFFLINE')).data.map(r => r.runnerId),
      ).toEqual(['silent']);

      clock.advance((RETENTION_SECONDS - ONLINE_SECONDS) * 1000 + 200);
      await claimNothing(runner.key, { runnerId: 'chatty' });
      expect((await listRunners(owner)).data.map(r => r.runnerId)).toEqual([
        'chatty',
      ]);
    });

    it('turns a runner that signs off OFFLINE at once, until it claims again', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      await claimNothing(runner.key, { runnerId: 'leaving' });
      await claimNothing(runner.key, { runnerId: 'staying' });
      // Another organization's runner of the same name is not the one that signs off.
      const stranger = await api.signup();
      const strangers = await createRunner(api, stranger);
      await claimNothing(strangers.key, { runnerId: 'leaving' });

      await signOff(api, runner.key, 'leaving');

      const runners = (await listRunners(owner)).data;
      expect(runners.find(r => r.runnerId === 'leaving')).toMatchObject({
        status: 'OFFLINE',
        signedOffAt: expect.any(String),
      });
      expect(runners.find(r => r.runnerId === 'staying')).toMatchObject({
        status: 'ONLINE',
      });
      expect(
        (await listRunners(owner, '?status=ONLINE')).data.map(r => r.runnerId),
      ).toEqual(['staying']);
      expect(
        (await listRunners(owner, '?status=OFFLINE')).data.map(r => r.runnerId),
      ).toEqual(['leaving']);
      expect((await listRunners(stranger)).data[0].status).toBe('ONLINE');

      // Restarted, its first claim makes it ONLINE again, even one this instance would skip.
      await claimNothing(runner.key, { runnerId: 'leaving' });
      const back = (await listRunners(owner)).data.find(
        r => r.runnerId === 'leaving',
      );
      expect(back?.status).toBe('ONLINE');
      expect(back).not.toHaveProperty('signedOffAt');

      // Only a runner's own key signs off, with a runner id.
      const person = await api.post(
        '/runner/sign-offs',
        { data: { runnerId: 'staying' } },
        owner.token,
      );
      expect(person.status).toBe(403);
      const nameless = await api.post(
        '/runner/sign-offs',
        { data: {} },
        runner.key,
      );
      expect(nameless.status).toBe(400);
      expect(errorBodySchema.parse(nameless.body).code).toBe(
        'InfraDelivery:Request:VALIDATION_FAILED',
      );
      expect(
        (await api.post('/runner/sign-offs', { data: { runnerId: 'x' } }))
          .status,
      ).toBe(401);
    });

    it('lists two processes of one runner id as two runners, each with its own step, and signs off one alone', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      const first = await trigger(
        api,
        owner,
        (
          await createStack(api, owner)
        ).changePipelineId,
      );
      const second = await trigger(
        api,
        owner,
        (
          await createStack(api, owner)
        ).changePipelineId,
      );
      const claimAs = async (instanceId: string, hostname: string) => {
        const response = await api.post(
          '/runner/claims',
          { data: { runnerId: 'twin', instanceId, hostname } },
          runner.key,
        );
        expectStatus(response, 200);
        return response.body.data as RunnerClaim;
      };
      const a = await claimAs('process-a', 'host-a');
      const b = await claimAs('process-b', 'host-b');
      expect(
        [a, b].map(claimed => claimed.stepExecution.pipelineRunId).sort(),
      ).toEqual([first.id, second.id].sort());

      // Busy streaming logs past the write interval: process a's row moves, not b's.
      clock.advance(700);
      expectStatus(
        await api.post(
          `/runner/step-executions/${a.stepExecution.id}/logs`,
          {
            data: {
              leaseToken: a.leaseToken,
              lines: [{ text: 'Still creating...' }],
            },
          },
          runner.key,
        ),
        204,
      );
      const byInstance = async () =>
        Object.fromEntries(
          (await listRunners(owner)).data.map(r => [r.instanceId, r]),
        );
      let listed = await byInstance();
      expect(Object.keys(listed).sort()).toEqual(['process-a', 'process-b']);
      expect(listed['process-a']).toMatchObject({
        runnerId: 'twin',
        hostname: 'host-a',
        status: 'ONLINE',
        currentStepExecutionId: a.stepExecution.id,
        currentStepLease: { runnerId: 'twin' },
      });
      expect(listed['process-b']).toMatchObject({
        runnerId: 'twin',
        hostname: 'host-b',
        status: 'ONLINE',
        currentStepExecutionId: b.stepExecution.id,
        currentStepLease: { runnerId: 'twin' },
      });
      expect(
        Date.parse(listed['process-a'].lastSeenAt) -
          Date.parse(listed['process-b'].lastSeenAt),
      ).toBeGreaterThanOrEqual(500);
      // Each step reads once, with its own process's lease.
      const steps = await api.get(
        `/pipeline-runs/${first.id}/step-executions`,
        owner.token,
      );
      expect(steps.body.data).toHaveLength(3);

      // Process a stops: b runs on.
      expectStatus(
        await api.post(
          '/runner/sign-offs',
          { data: { runnerId: 'twin', instanceId: 'process-a' } },
          runner.key,
        ),
        204,
      );
      listed = await byInstance();
      expect(listed['process-a'].status).toBe('OFFLINE');
      expect(listed['process-b'].status).toBe('ONLINE');

      // Restarted as a new process, it takes the stopped one's entry: restarts pile up none.
      await claimNothing(runner.key, { runnerId: 'twin', instanceId: 'c' });
      listed = await byInstance();
      expect(Object.keys(listed).sort()).toEqual(['c', 'process-b']);
      expect(listed.c.status).toBe('ONLINE');
    });

    it('keeps one entry for a runner that names no process, as before', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      await claimNothing(runner.key, { runnerId: 'older', hostname: 'h1' });
      await claimNothing(runner.key, { runnerId: 'older', hostname: 'h2' });
      const { data } = await listRunners(owner);
      expect(data).toHaveLength(1);
      expect(data[0]).toMatchObject({ runnerId: 'older', hostname: 'h2' });
      expect(data[0]).not.toHaveProperty('instanceId');
      await signOff(api, runner.key, 'older');
      expect((await listRunners(owner)).data[0].status).toBe('OFFLINE');
    });

    it('keeps a runner id to the service account whose runner holds it while it is online', async () => {
      const owner = await api.signup();
      const holder = await createRunner(api, owner);
      const other = await createRunner(api, owner, 'ADMIN');
      await claimNothing(holder.key, { runnerId: 'build-1' });

      // Its sightings overwrote the holder's account, and its sign-off marked the holder
      // OFFLINE while it worked.
      const taken = await api.post(
        '/runner/claims',
        { data: { runnerId: 'build-1' } },
        other.key,
      );
      expect(taken.status).toBe(409);
      expect(errorBodySchema.parse(taken.body)).toMatchObject({
        code: 'InfraDelivery:Runner:ID_IN_USE',
        message: expect.stringMatching(
          /^Runner id "build-1" is in use by a runner of another service account, seen at .+: give this runner an id of its own \(--runner-id\), or stop the other one$/,
        ),
      });
      await signOff(api, other.key, 'build-1');
      expect((await listRunners(owner)).data).toEqual([
        expect.objectContaining({
          runnerId: 'build-1',
          status: 'ONLINE',
          serviceAccountId: holder.serviceAccountId,
        }),
      ]);

      // Stopped, its id is free for another account's runner (a key moved to a new account).
      await signOff(api, holder.key, 'build-1');
      await claimNothing(other.key, { runnerId: 'build-1' });
      expect((await listRunners(owner)).data).toEqual([
        expect.objectContaining({
          runnerId: 'build-1',
          status: 'ONLINE',
          serviceAccountId: other.serviceAccountId,
        }),
      ]);
    });

    it('pages with a cursor, newest runner first, and refuses a foreign cursor', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      for (const runnerId of ['r1', 'r2', 'r3']) {
        await claimNothing(runner.key, { runnerId });
      }
      const first = await listRunners(owner, '?limit=2');
      expect(first.data.map(r => r.runnerId)).toEqual(['r3', 'r2']);
      expect(first.meta.nextCursor).toEqual(expect.any(String));
      const second = await listRunners(
        owner,
        `?limit=2&cursor=${encodeURIComponent(first.meta.nextCursor!)}`,
      );
      expect(second.data.map(r => r.runnerId)).toEqual(['r1']);

      // Another organization's cursor, and a cursor of the unfiltered list for the ONLINE
      // list, are refused.
      const stranger = await api.signup();
      const elsewhere = await api.get(
        `/runners?limit=2&cursor=${encodeURIComponent(first.meta.nextCursor!)}`,
        stranger.token,
      );
      expect(elsewhere.status).toBe(400);
      const foreign = await api.get(
        `/runners?status=ONLINE&cursor=${encodeURIComponent(
          first.meta.nextCursor!,
        )}`,
        owner.token,
      );
      expect(foreign.status).toBe(400);
      expect(errorBodySchema.parse(foreign.body).code).toBe(
        'InfraDelivery:Request:INVALID_CURSOR',
      );
    });

    it('answers bad queries with the ErrorBody, and keeps each organization to its own runners', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      await claimNothing(runner.key, { runnerId: 'mine' });

      const badStatus = await api.get('/runners?status=BUSY', owner.token);
      expect(badStatus.status).toBe(400);
      expect(errorBodySchema.parse(badStatus.body).code).toBe(
        'InfraDelivery:Request:VALIDATION_FAILED',
      );
      const badClaim = await api.post(
        '/runner/claims',
        { data: { runnerId: 'x', version: 'v'.repeat(65) } },
        runner.key,
      );
      expect(badClaim.status).toBe(400);

      const viewer = await api.member(owner, 'VIEWER');
      expect((await listRunners(viewer)).data.map(r => r.runnerId)).toEqual([
        'mine',
      ]);
      const other = await api.signup();
      expect((await listRunners(other)).data).toEqual([]);
      expect((await api.get('/runners')).status).toBe(401);
    });

    describe('a run waiting for a runner', () => {
      let owner: TestOrganization;
      let pipelineId: string;

      beforeEach(async () => {
        owner = await api.signup();
        pipelineId = (await createStack(api, owner)).changePipelineId;
      });

      async function listedRun(runId: string): Promise<PipelineRun> {
        const response = await api.get(
          `/pipeline-runs?id=${runId}`,
          owner.token,
        );
        expectStatus(response, 200);
        return response.body.data[0];
      }

      it('says so while no runner of the organization is online, and not once one claims', async () => {
        // A runner of another organization changes nothing.
        const elsewhere = await api.signup();
        await claimNothing((await createRunner(api, elsewhere)).key, {
          runnerId: 'elsewhere',
        });

        const run = await trigger(api, owner, pipelineId);
        expect(run.status).toBe('RUNNING');
        for (const seen of [
          run,
          await getRun(api, owner, run.id),
          await listedRun(run.id),
        ]) {
          expect(seen.queueState).toMatchObject({
            waitingForRunner: true,
            reason: NO_RUNNER_REASON,
          });
        }

        const runner = await createRunner(api, owner);
        await claim(api, runner.key, 'arrives');
        const claimed = await getRun(api, owner, run.id);
        expect(claimed.status).toBe('RUNNING');
        expect(claimed.queueState?.waitingForRunner).toBeUndefined();
        expect(claimed.queueState?.reason).toBeUndefined();
      });

      it('says that the runners are busy while they are, and that none is connected once they are gone', async () => {
        const runner = await createRunner(api, owner);
        const busyStack = await createStack(api, owner);
        await trigger(api, owner, busyStack.changePipelineId);
        const busyWith = await claim(api, runner.key, 'busy');

        const run = await trigger(api, owner, pipelineId);
        // The trigger's answer (the run as its start wrote it) and a read of it say the same.
        for (const seen of [run, await getRun(api, owner, run.id)]) {
          expect(seen.queueState).toMatchObject({
            waitingForRunner: false,
            reason:
              'Queued for a runner: the one connected runner is busy with another step',
          });
        }

        // Its step done, the runner is free to take the run's step at its next poll.
        await complete(api, runner.key, busyWith);
        expect((await getRun(api, owner, run.id)).queueState?.reason).toBe(
          'Queued for a runner: the one connected runner is free and takes it next',
        );

        clock.advance(ONLINE_SECONDS * 1000 + 200);
        expect((await listedRun(run.id)).queueState).toMatchObject({
          waitingForRunner: true,
          reason: NO_RUNNER_REASON,
        });
      });

      it('counts a runner that signed off out of the connected ones at once', async () => {
        const runner = await createRunner(api, owner);
        await claimNothing(runner.key, { runnerId: 'stopping' });
        const run = await trigger(api, owner, pipelineId);
        expect(run.queueState?.reason).toBe(
          'Queued for a runner: the one connected runner is free and takes it next',
        );

        await api.post(
          '/runner/sign-offs',
          { data: { runnerId: 'stopping' } },
          runner.key,
        );

        expect((await getRun(api, owner, run.id)).queueState).toMatchObject({
          waitingForRunner: true,
          reason: NO_RUNNER_REASON,
        });
      });

      async function stepLog(stepId: string): Promise<string[]> {
        const response = await api.get(
          `/pipeline-step-executions/${stepId}/logs`,
          owner.token,
        );
        expectStatus(response, 200);
        return response.body.data.map((line: { text: string }) => line.text);
      }

      it.each([
        [
          'its API key is revoked',
          (runner: { apiKeyId: string }) => `/api-keys/${runner.apiKeyId}`,
          'KEY_REVOKED',
          /^walk-runner's API key was revoked by (.+); the step is queued again as attempt 2$/,
          "walk-runner's API key was revoked by {by} during this step, so it can no longer report",
        ],
        [
          'its service account is deleted',
          (runner: { serviceAccountId: string }) =>
            `/service-accounts/${runner.serviceAccountId}`,
          'ACCOUNT_DELETED',
          /^walk-runner's service account runner .+ was deleted by (.+); the step is queued again as attempt 2$/,
          "walk-runner's service account was deleted by {by} during this step, so it can no longer report",
        ],
      ] as const)(
        'queues the step of a runner at once when %s, and says so',
        async (_, path, cause, logLine, clause) => {
          const runner = await createRunner(api, owner);
          const run = await trigger(api, owner, pipelineId);
          const held = await claim(api, runner.key, 'walk-runner');

          expectStatus(await api.delete(path(runner), owner.token), 204);

          const log = await stepLog(held.stepExecution.id);
          const line = log.find(text => logLine.test(text));
          expect(line).toBeDefined();
          const by = logLine.exec(line!)![1];
          expect((await getRun(api, owner, run.id)).queueState).toMatchObject({
            waitingForRunner: true,
            reason: `${clause.replace(
              '{by}',
              by,
            )}; the step is queued again and no runner is connected to this organization: start a runner`,
          });
          expect((await listRunners(owner)).data).toEqual([
            expect.objectContaining({
              runnerId: 'walk-runner',
              status: 'OFFLINE',
              offlineCause: cause,
              offlineBy: by,
              currentStepExecutionId: held.stepExecution.id,
            }),
          ]);

          // Another runner takes it at once, as its next attempt.
          const next = await createRunner(api, owner);
          const retried = await claim(api, next.key, 'spare');
          expect(retried.stepExecution.id).toBe(held.stepExecution.id);
          expect(retried.stepExecution.attemptEpoch).toBe(2);
        },
      );

      it('does not say so for runs that wait for a person or are done', async () => {
        const run = await trigger(api, owner, pipelineId);
        const runner = await createRunner(api, owner);
        await complete(api, runner.key, await claim(api, runner.key));
        clock.advance(ONLINE_SECONDS * 1000 + 200);
        const waiting = await getRun(api, owner, run.id);
        expect(waiting.status).toBe('WAITING_FOR_APPROVAL');
        expect(waiting.queueState?.waitingForRunner).toBeUndefined();
      });
    });
  },
);
