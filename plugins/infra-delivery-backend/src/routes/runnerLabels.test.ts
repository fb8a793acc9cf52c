import {
  errorBodySchema,
  RunnerClaim,
  stackSchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import request from 'supertest';
import {
  createRunner,
  createStack,
  getRun,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe.each(databases.eachSupportedId())(
  'runner labels route work on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId));
    });

    type Owner = Awaited<ReturnType<InfraDeliveryTestClient['signup']>>;

    async function stackRequiring(owner: Owner, runnerLabels: string[]) {
      const stack = await createStack(api, owner);
      const response = await api.patch(
        `/stacks/${stack.id}`,
        { data: { runnerLabels } },
        owner.token,
      );
      expect(response.status).toBe(200);
      return stackSchema.parse(response.body.data);
    }

    /** A claim answered at once: the step handed over, or undefined (204). */
    async function claimAs(
      key: string,
      runnerId: string,
      labels?: string[],
    ): Promise<RunnerClaim | undefined> {
      const response = await api.post(
        '/runner/claims',
        { data: { runnerId, ...(labels ? { labels } : {}) } },
        key,
      );
      expect([200, 204]).toContain(response.status);
      return response.status === 200 ? response.body.data : undefined;
    }

    it('hands a step only to a runner carrying every label its stack requires', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      const prod = await stackRequiring(owner, ['env=prod']);
      const prodEu = await stackRequiring(owner, ['region=eu', 'env=prod']);
      const any = await createStack(api, owner);
      expect(prodEu.runnerLabels).toEqual(['env=prod', 'region=eu']);
      expect(any.runnerLabels).toEqual([]);

      const prodRun = await trigger(api, owner, prod.changePipelineId);
      const prodEuRun = await trigger(api, owner, prodEu.changePipelineId);
      const anyRun = await trigger(api, owner, any.changePipelineId);

      // Not matching: a dev runner and a runner without labels skip the older prod steps and
      // take the one any runner may.
      const dev = await claimAs(runner.key, 'dev', ['env=dev']);
      expect(dev?.pipelineRun.id).toBe(anyRun.id);
      expect(await claimAs(runner.key, 'bare')).toBeUndefined();
      expect(await claimAs(runner.key, 'dev-2', ['env=dev'])).toBeUndefined();
      // Matching one label of two is not enough.
      const prodOnly = await claimAs(runner.key, 'prod', ['env=prod']);
      expect(prodOnly?.pipelineRun.id).toBe(prodRun.id);
      expect(await claimAs(runner.key, 'prod-2', ['env=prod'])).toBeUndefined();
      // A runner whose labels include the required ones (and more) takes it.
      const superset = await claimAs(runner.key, 'prod-eu', [
        'linux',
        'region=eu',
        'env=prod',
      ]);
      expect(superset?.pipelineRun.id).toBe(prodEuRun.id);
    });

    it('says when runners are online but none carries the labels, and routes again once the stack changes', async () => {
      const owner = await api.signup();
      const runner = await createRunner(api, owner);
      const stack = await stackRequiring(owner, ['env=prod']);

      const alone = await trigger(api, owner, stack.changePipelineId);
      expect(alone.queueState).toMatchObject({
        waitingForRunner: true,
        requiredRunnerLabels: ['env=prod'],
        reason: expect.stringContaining('--labels env=prod'),
      });

      // Two runners online, neither with the label.
      expect(await claimAs(runner.key, 'dev', ['env=dev'])).toBeUndefined();
      expect(await claimAs(runner.key, 'bare')).toBeUndefined();
      const waiting = await getRun(api, owner, alone.id);
      expect(waiting.queueState).toMatchObject({
        waitingForRunner: true,
        requiredRunnerLabels: ['env=prod'],
      });
      expect(waiting.queueState?.reason).toBe(
        "No connected runner has the labels env=prod this stack requires; 2 runners are online (labels: none | env=dev). Start a runner with --labels env=prod, or change the stack's required runner labels",
      );

      // A runner with the label is online: it is free and takes the step next.
      await api.post(
        '/runner/claims',
        { data: { runnerId: 'prod-seen', labels: ['env=prod'] } },
        runner.key,
      );
      // (that claim took it; a second run shows the wait while a carrier is free)
      const second = await trigger(api, owner, stack.changePipelineId);
      expect(second.queueState?.waitingForRunner).not.toBe(true);

      // Cleared, any runner takes the waiting step.
      const other = await stackRequiring(owner, ['env=staging']);
      const otherRun = await trigger(api, owner, other.changePipelineId);
      expect(await claimAs(runner.key, 'dev', ['env=dev'])).toBeUndefined();
      const cleared = await api.patch(
        `/stacks/${other.id}`,
        { data: { runnerLabels: [] } },
        owner.token,
      );
      expect(cleared.body.data.runnerLabels).toEqual([]);
      expect(
        (await getRun(api, owner, otherRun.id)).queueState,
      ).not.toHaveProperty('requiredRunnerLabels');
      const taken = await claimAs(runner.key, 'dev', ['env=dev']);
      expect(taken?.pipelineRun.id).toBe(otherRun.id);
    });

    it('refuses labels a runner could not carry (400) and keeps them on create', async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      for (const runnerLabels of [
        ['env prod'],
        ['a,b'],
        [''],
        ['env=prod', 'env=prod'],
        Array.from({ length: 33 }, (_, i) => `l${i}`),
        'env=prod',
      ]) {
        const response: request.Response = await api.patch(
          `/stacks/${stack.id}`,
          { data: { runnerLabels } },
          owner.token,
        );
        expect(response.status).toBe(400);
        expect(errorBodySchema.parse(response.body).code).toBe(
          'InfraDelivery:Request:VALIDATION_FAILED',
        );
      }
      const created = await api.post(
        '/stacks',
        {
          data: {
            projectId: stack.projectId,
            environmentId: stack.environmentId,
            name: 'Prod network',
            runnerLabels: ['env=prod', 'aws-account=123456789012'],
          },
        },
        owner.token,
      );
      expect(created.status).toBe(201);
      expect(created.body.data.runnerLabels).toEqual([
        'aws-account=123456789012',
        'env=prod',
      ]);
    });

    it("refuses VIEWERs (403) and answers 404 for another organization's stack", async () => {
      const owner = await api.signup();
      const stack = await createStack(api, owner);
      const viewer = await api.member(owner, 'VIEWER');
      const denied = await api.patch(
        `/stacks/${stack.id}`,
        { data: { runnerLabels: ['env=prod'] } },
        viewer.token,
      );
      expect(denied.status).toBe(403);
      const stranger = await api.signup();
      const hidden = await api.patch(
        `/stacks/${stack.id}`,
        { data: { runnerLabels: ['env=prod'] } },
        stranger.token,
      );
      expect(hidden.status).toBe(404);
      const unchanged = await api.get(`/stacks/${stack.id}`, owner.token);
      expect(unchanged.body.data.runnerLabels).toEqual([]);
    });
  },
);
