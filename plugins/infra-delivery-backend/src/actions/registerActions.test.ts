import { actionsRegistryServiceFactory } from '@backstage/backend-defaults/alpha';
import { mockCredentials } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import request from 'supertest';
import {
  claim,
  complete,
  createRunner,
  createStack,
  expectStatus,
  getRun,
  trigger,
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

const OWNER = 'user:default/owner';
const MEMBER = 'user:default/member';
const VIEWER = 'user:default/viewer';

const CONFIG = {
  backend: { actions: { pluginSources: ['infra-delivery'] } },
  infraDelivery: {
    rateLimits: {
      signup: { limit: 100000 },
      tokenPerAddress: { limit: 100000 },
    },
    roleMappings: [
      { entityRef: OWNER, role: 'OWNER' },
      { entityRef: MEMBER, role: 'MEMBER' },
    ],
    defaultRole: 'VIEWER',
  },
};

const HOUR = 3600_000;

/** A plan creating `count` resources, as `terraform show -json` prints it. */
function planJson(count: number) {
  return {
    format_version: '1.2',
    terraform_version: '1.9.0',
    resource_changes: Array.from({ length: count }, (_, i) => ({
      address: `aws_s3_bucket.bucket[${i}]`,
      mode: 'managed',
      type: 'aws_s3_bucket',
      name: 'bucket',
      index: i,
      provider_name: 'registry.terraform.io/hashicorp/aws',
      change: {
        actions: ['create'],
        before: null,
        after: { bucket: `bucket-${i}` },
        after_sensitive: {},
      },
    })),
  };
}

function metricInput(cloudAccountId: string) {
  const hourStart = Math.floor(Date.now() / HOUR) * HOUR;
  return {
    cloudAccountId,
    region: 'eu-west-1',
    namespace: 'AWS/ECS',
    metricName: 'CPUUtilization',
    statistic: 'Average',
    period: 3600,
    startTime: new Date(hourStart - 48 * HOUR).toISOString(),
    endTime: new Date(hourStart - 42 * HOUR).toISOString(),
    dimensions: { ClusterName: 'prod', ServiceName: 'web' },
  };
}

async function connectedAccount(
  api: InfraDeliveryTestClient,
  owner: { token: string },
  cloudId: string,
) {
  const created = await api.post(
    '/cloud-accounts',
    { data: { name: 'Account', givenId: `account-${cloudId}`, cloudId } },
    owner.token,
  );
  expectStatus(created, 201);
  expectStatus(
    await api.post(
      `/cloud-accounts/${created.body.data.id}/connect-local`,
      {},
      owner.token,
    ),
    200,
  );
  return created.body.data as { id: string };
}

describe.each(databases.eachSupportedId())(
  'actions registry tools on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    /** The portal organization's owner, acting through the REST API. */
    let portalOwner: { token: string };
    let outsiderOrg: TestOrganization;

    function invoke(
      user: string | { header: string },
      name: string,
      input: object,
    ) {
      return request(api.server)
        .post(
          `${BASE}/.backstage/actions/v1/actions/infra-delivery:${name}/invoke`,
        )
        .set(
          'authorization',
          typeof user === 'string'
            ? mockCredentials.user.header(user)
            : user.header,
        )
        .send(input);
    }

    async function output(user: string, name: string, input: object) {
      const response = await invoke(user, name, input);
      expectStatus(response, 200);
      return response.body.output;
    }

    beforeAll(async () => {
      api = await startInfraDeliveryBackend(await databases.init(databaseId), {
        config: CONFIG,
        extraFeatures: [actionsRegistryServiceFactory],
      });
      portalOwner = { token: api.backstageUserToken(OWNER) };
      outsiderOrg = await api.signup();
    });

    it('lists the tools with their attributes, read-only or destructive', async () => {
      const response = await request(api.server)
        .get(`${BASE}/.backstage/actions/v1/actions`)
        .set('authorization', `Bearer ${mockCredentials.user.token(VIEWER)}`);
      expect(response.status).toBe(200);
      const attributes = Object.fromEntries(
        response.body.actions.map((a: any) => [a.id, a.attributes]),
      );
      const readOnly = { readOnly: true, destructive: false, idempotent: true };
      const destructive = {
        readOnly: false,
        destructive: true,
        idempotent: false,
      };
      expect(attributes).toEqual({
        'infra-delivery:list-stacks': readOnly,
        'infra-delivery:list-runs': readOnly,
        'infra-delivery:get-run': readOnly,
        'infra-delivery:get-metric': readOnly,
        'infra-delivery:trigger-plan': destructive,
        'infra-delivery:approve-run': destructive,
        'infra-delivery:list-deployments': readOnly,
        'infra-delivery:rollback-deployment': destructive,
        'infra-delivery:get-stack-drift': readOnly,
      });
      const getRunTool = response.body.actions.find(
        (a: any) => a.id === 'infra-delivery:get-run',
      );
      expect(getRunTool.schema.input.required).toEqual(['runId']);
      expect(getRunTool.examples).toHaveLength(1);
    });

    it('refuses calls without valid credentials', async () => {
      const anonymous = await invoke(
        { header: mockCredentials.none.header() },
        'list-stacks',
        {},
      );
      expect(anonymous.status).toBe(403);
      const invalid = await invoke(
        { header: mockCredentials.user.invalidHeader() },
        'list-stacks',
        {},
      );
      expect(invalid.status).toBe(401);
    });

    it('lets another plugin read with the service role, but not trigger', async () => {
      const service = { header: mockCredentials.service.header() };
      const stacks = await invoke(service, 'list-stacks', {});
      expect(stacks.status).toBe(200);
      const triggered = await invoke(service, 'trigger-plan', {
        stackId: 'anything',
      });
      expect(triggered.status).toBe(403);
    });

    describe('in the portal organization', () => {
      let stack: { id: string; changePipelineId: string };
      let runner: { key: string };
      let account: { id: string };

      beforeAll(async () => {
        stack = await createStack(api, portalOwner, { name: 'Portal stack' });
        runner = await createRunner(api, portalOwner);
        account = await connectedAccount(api, portalOwner, '111111111111');
      });

      it('lets a VIEWER read stacks, runs, a run with its plan, and metrics', async () => {
        // A planned run waiting for approval, and a second one queued behind it.
        const first = await trigger(api, portalOwner, stack.changePipelineId);
        const second = await trigger(api, portalOwner, stack.changePipelineId);
        const plan = await claim(api, runner.key);
        expect(plan.stepExecution.pipelineRunId).toBe(first.id);
        await complete(api, runner.key, plan, {
          status: 'SUCCEEDED',
          planJson: planJson(2),
        });

        const stacks = await output(VIEWER, 'list-stacks', { limit: 100 });
        expect(stacks.stacks).toContainEqual(
          expect.objectContaining({
            id: stack.id,
            name: 'Portal stack',
            changePipelineId: stack.changePipelineId,
          }),
        );

        const runs = await output(VIEWER, 'list-runs', { stackId: stack.id });
        expect(runs.runs.map((r: any) => [r.id, r.status])).toEqual([
          [second.id, 'QUEUED'],
          [first.id, 'WAITING_FOR_APPROVAL'],
        ]);
        const waiting = await output(VIEWER, 'list-runs', {
          stackId: stack.id,
          status: ['WAITING_FOR_APPROVAL'],
        });
        expect(waiting.runs.map((r: any) => r.id)).toEqual([first.id]);

        const firstRun = await output(VIEWER, 'get-run', { runId: first.id });
        expect(firstRun.run).toMatchObject({
          id: first.id,
          status: 'WAITING_FOR_APPROVAL',
          stackId: stack.id,
        });
        expect(firstRun.steps.map((s: any) => [s.type, s.status])).toEqual([
          ['iac.plan', 'SUCCEEDED'],
          ['approval', 'WAITING_FOR_APPROVAL'],
          ['iac.apply', 'PENDING'],
        ]);
        expect(firstRun.plans).toEqual([
          expect.objectContaining({
            runType: 'PLAN',
            add: 2,
            change: 0,
            destroy: 0,
          }),
        ]);

        const secondRun = await output(VIEWER, 'get-run', {
          runId: second.id,
        });
        expect(secondRun.run.status).toBe('QUEUED');
        expect(secondRun.run.queueReason).toEqual(expect.any(String));
        expect(secondRun.plans).toEqual([]);

        const metric = await output(
          VIEWER,
          'get-metric',
          metricInput(account.id),
        );
        expect(metric.unit).toBe('Percent');
        expect(metric.datapoints).toHaveLength(7);
      });

      it('does not let a VIEWER trigger a plan or approve a run', async () => {
        const run = await trigger(api, portalOwner, stack.changePipelineId);
        const triggered = await invoke(VIEWER, 'trigger-plan', {
          stackId: stack.id,
        });
        expect(triggered.status).toBe(403);
        expect(triggered.body.error.message).toContain('MEMBER');
        const approved = await invoke(VIEWER, 'approve-run', {
          runId: run.id,
        });
        expect(approved.status).toBe(403);
      });

      it('lets a MEMBER trigger a plan and approve it', async () => {
        const own = await createStack(api, portalOwner);
        const triggered = await output(MEMBER, 'trigger-plan', {
          stackId: own.id,
          description: 'From an agent',
        });
        expect(triggered.run).toMatchObject({
          pipelineId: own.changePipelineId,
          stackId: own.id,
          description: 'From an agent',
        });
        const runId = triggered.run.id;

        // The runner plans; the run waits for the member's approval.
        let plan = await claim(api, runner.key);
        while (plan.stepExecution.pipelineRunId !== runId) {
          await complete(api, runner.key, plan, { status: 'FAILED' });
          plan = await claim(api, runner.key);
        }
        await complete(api, runner.key, plan, {
          status: 'SUCCEEDED',
          planJson: planJson(1),
        });
        expect((await getRun(api, portalOwner, runId)).status).toBe(
          'WAITING_FOR_APPROVAL',
        );

        const approved = await output(MEMBER, 'approve-run', {
          runId,
          comment: 'Looks right',
        });
        expect(approved.run.id).toBe(runId);
        expect(approved.run.status).toBe('RUNNING');
        // The apply waits for the runner that just planned, and the tool says so.
        expect(approved.run).toMatchObject({
          waitingForRunner: false,
          queueReason:
            'Queued for a runner: the one connected runner is free and takes it next',
        });
        const steps = (await output(MEMBER, 'get-run', { runId })).steps;
        expect(steps.map((s: any) => s.status)).toEqual([
          'SUCCEEDED',
          'SUCCEEDED',
          'QUEUED',
        ]);

        // Claimed, the apply names its runner and until when it must report.
        const apply = await claim(api, runner.key, 'build-host-1');
        const running = await output(MEMBER, 'get-run', { runId });
        const applying = running.steps[2];
        expect(running.run).toMatchObject({
          runningStep: applying.name,
          runnerId: 'build-host-1',
          queuedAgainUnlessReportedBy: apply.leaseExpiresAt,
        });
        expect(running.run).not.toHaveProperty('waitingForRunner');
        expect(applying).toMatchObject({
          status: 'RUNNING',
          runnerId: 'build-host-1',
          runnerLastReportedAt: expect.any(String),
          queuedAgainUnlessReportedBy: apply.leaseExpiresAt,
        });
        // The ended plan still names the runner that planned, without a lease.
        expect(steps[0]).toMatchObject({ runnerId: 'runner-1' });
        expect(steps[0]).not.toHaveProperty('queuedAgainUnlessReportedBy');
      });

      it('lets a MEMBER read with every read-only tool', async () => {
        const run = await trigger(api, portalOwner, stack.changePipelineId);

        const stacks = await output(MEMBER, 'list-stacks', { limit: 100 });
        expect(stacks.stacks.map((s: any) => s.id)).toContain(stack.id);
        const runs = await output(MEMBER, 'list-runs', { stackId: stack.id });
        expect(runs.runs.map((r: any) => r.id)).toContain(run.id);
        const fetched = await output(MEMBER, 'get-run', { runId: run.id });
        expect(fetched.run.id).toBe(run.id);
        expect(fetched.steps).toHaveLength(3);
        const metric = await output(
          MEMBER,
          'get-metric',
          metricInput(account.id),
        );
        expect(metric.datapoints).toHaveLength(7);
        const deployments = await output(MEMBER, 'list-deployments', {
          clusterRef: 'no-such-cluster',
        });
        expect(deployments.deployments).toEqual([]);
      });

      it('answers bad input with 400', async () => {
        expect(
          (await invoke(VIEWER, 'list-stacks', { limit: 1000 })).status,
        ).toBe(400);
        expect((await invoke(VIEWER, 'get-run', {})).status).toBe(400);
        const metric = await invoke(VIEWER, 'get-metric', {
          ...metricInput(account.id),
          region: 'nowhere',
        });
        expect(metric.status).toBe(400);
        expect(metric.body.error.message).toContain('region');
      });
    });

    describe('for an outsider', () => {
      let stack: { id: string; changePipelineId: string };
      let runId: string;
      let account: { id: string };

      beforeAll(async () => {
        // Another organization, reached through its own API; portal users are outsiders to it.
        stack = await createStack(api, outsiderOrg, { name: 'Foreign stack' });
        runId = (await trigger(api, outsiderOrg, stack.changePipelineId)).id;
        account = await connectedAccount(api, outsiderOrg, '222222222222');
      });

      it.each([VIEWER, MEMBER, OWNER])(
        'shows %s nothing of another organization',
        async user => {
          const stacks = await output(user, 'list-stacks', { limit: 100 });
          expect(stacks.stacks.map((s: any) => s.id)).not.toContain(stack.id);
          expect(stacks.stacks.map((s: any) => s.name)).not.toContain(
            'Foreign stack',
          );
          const runs = await output(user, 'list-runs', { stackId: stack.id });
          expect(runs).toEqual({ runs: [], totalCount: 0 });
          const byPipeline = await output(user, 'list-runs', {
            pipelineId: stack.changePipelineId,
          });
          expect(byPipeline.runs).toEqual([]);

          for (const [name, input] of [
            ['get-run', { runId }],
            ['trigger-plan', { stackId: stack.id }],
            ['approve-run', { runId }],
            ['get-metric', metricInput(account.id)],
          ] as const) {
            const response = await invoke(user, name, input);
            // Writes check the role before anything is looked up, as the REST API does.
            const expected =
              user === VIEWER &&
              (name === 'trigger-plan' || name === 'approve-run')
                ? 403
                : 404;
            expect([name, response.status]).toEqual([name, expected]);
          }
          expect((await getRun(api, outsiderOrg, runId)).status).toBe(
            'RUNNING',
          );
        },
      );
    });
  },
);

describe('actions registry tools when the permission framework denies', () => {
  it('refuses a MEMBER’s plan when the permission framework denies it', async () => {
    const [databaseId] = databases.eachSupportedId();
    const api = await startInfraDeliveryBackend(
      await databases.init(databaseId[0]),
      {
        config: CONFIG,
        extraFeatures: [actionsRegistryServiceFactory],
        permissionResult: AuthorizeResult.DENY,
      },
    );
    const response = await request(api.server)
      .post(
        `${BASE}/.backstage/actions/v1/actions/infra-delivery:trigger-plan/invoke`,
      )
      .set('authorization', `Bearer ${mockCredentials.user.token(MEMBER)}`)
      .send({ stackId: 'anything' });
    expect(response.status).toBe(403);
    expect(response.body.error.message).toContain('PERMISSION');
  });
});
