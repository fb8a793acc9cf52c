import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { FakeGithub } from '../__testUtils__/fakeGithub';
import {
  eventually,
  followedRepository,
  FollowedRepository,
  followingStack,
  gitSha,
  processedDelivery,
  pullRequestPayload,
  runsOfStack,
  sendDelivery,
} from '../__testUtils__/gitTriggerFixtures';
import {
  act,
  claim,
  complete,
  createRunner,
  expectStatus,
  getRun,
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
const BASIC_PLAN = JSON.parse(
  readFileSync(
    join(
      __dirname,
      '../iac/__fixtures__/tf-plans/terraform-json__basic.plan.json',
    ),
    'utf8',
  ),
);
const PORTAL_URL = 'https://portal.example.test/infra-delivery';

describe.each(databases.eachSupportedId())(
  'GitHub webhooks: pull requests and installations on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    let github: FakeGithub;

    beforeAll(async () => {
      github = await FakeGithub.start();
      api = await startInfraDeliveryBackend(await databases.init(databaseId), {
        config: {
          ...github.config(),
          infraDelivery: { portalUrl: PORTAL_URL },
        },
      });
    });

    afterAll(async () => {
      await github.close();
    });

    afterEach(() => {
      github.writeOutage = undefined;
    });

    /** A fresh organization following a fresh repository whose pull request #7 touches the stack. */
    async function world(rules: Parameters<typeof followingStack>[3] = {}) {
      const owner = await api.signup();
      const repository = followedRepository(github, `pr-${databaseId}`);
      github.addRepository({
        owner: repository.owner,
        name: repository.name,
        id: repository.id,
        branches: { main: gitSha(`${repository.name}-main`) },
        commits: { [gitSha(`${repository.name}-head1`)]: {} },
        commitDetails: {
          [gitSha(`${repository.name}-head1`)]: {
            message: 'Widen the subnet',
            author: 'bob',
          },
        },
        pullRequestFiles: {
          7: ['infra/network/subnets.tf', 'README.md'],
          8: ['docs/index.md'],
        },
      });
      const { stack } = await followingStack(api, owner, repository, rules);
      return { owner, repository, stack };
    }

    async function pullRequest(
      repository: FollowedRepository,
      options: Parameters<typeof pullRequestPayload>[1],
      owner: TestOrganization,
    ) {
      const sent = github.delivery(
        'pull_request',
        pullRequestPayload(repository, options),
        { deliveryId: randomUUID() },
      );
      expectStatus(await sendDelivery(api, sent, github.webhookPath), 202);
      return processedDelivery(api, owner, sent.headers['x-github-delivery']);
    }

    it('plans the head commit of an opened pull request and reports it as a check run: queued, in progress, success with the counts', async () => {
      const { owner, repository, stack } = await world();
      const runner = await createRunner(api, owner);
      // A change run holds the stack, so the plan has to wait.
      const holder = await trigger(api, owner, stack.changePipelineId);
      const head = gitSha(`${repository.name}-head1`);

      const delivery = await pullRequest(
        repository,
        {
          action: 'opened',
          number: 7,
          headSha: head,
          updatedAt: '2026-11-27T10:00:00Z',
        },
        owner,
      );
      expect(delivery).toMatchObject({
        event: 'pull_request',
        action: 'opened',
        outcome: 'STARTED_RUNS',
      });
      const plan = await getRun(api, owner, delivery.startedRunIds[0]);
      expect(plan).toMatchObject({
        kind: 'PULL_REQUEST_PLAN',
        triggerSource: 'PULL_REQUEST',
        status: 'QUEUED',
        description: 'Plan of pull request #7: Widen the subnet',
        triggerMetadata: {
          trigger_given_id: 'receiveGithubWebhook',
          webhook_event: 'pull_request.opened',
        },
        gitSource: {
          branch: 'feature/subnet',
          commit: { sha: head, message: 'Widen the subnet', author: 'bob' },
          pullRequest: {
            number: 7,
            url: `${repository.repoUrl}/pull/7`,
            title: 'Widen the subnet',
            baseBranch: 'main',
          },
        },
      });
      const steps = await api.get(
        `/pipeline-runs/${plan.id}/step-executions`,
        owner.token,
      );
      expect(
        steps.body.data.map((s: { type: string; name: string }) => [
          s.type,
          s.name,
        ]),
      ).toEqual([['iac.plan', 'Plan (pull request #7)']]);

      const check = await eventually(() => {
        const [found] = github.checkRunsOf(head);
        expect(found?.current.status).toBe('queued');
        return found;
      });
      expect(check.repository).toBe(repository.fullName);
      expect(check.current).toMatchObject({
        name: `Infrastructure plan: ${stack.name}`,
        external_id: plan.id,
        details_url: `${PORTAL_URL}/runs/${plan.id}`,
      });

      await act(api, owner, holder.id, 'cancel');
      await eventually(() => expect(check.current.status).toBe('in_progress'));

      const claimed = await claim(api, runner.key);
      expect(claimed.pipelineRun.id).toBe(plan.id);
      expect(claimed.pipelineRun.gitSource?.commit.sha).toBe(head);
      await complete(api, runner.key, claimed, {
        status: 'SUCCEEDED',
        planJson: BASIC_PLAN,
      });
      expect((await getRun(api, owner, plan.id)).status).toBe('SUCCEEDED');
      await eventually(() =>
        expect(check.current).toMatchObject({
          status: 'completed',
          conclusion: 'success',
          output: { title: 'Plan: 7 to add, 0 to change, 0 to destroy.' },
        }),
      );
      expect(check.updates.map(u => u.status)).toEqual([
        'queued',
        'in_progress',
        'completed',
      ]);
      expect(check.current.output.summary).toContain(
        `${PORTAL_URL}/runs/${plan.id}`,
      );

      // One comment, edited in place as the plan moved on. Its last edit is sent after the
      // check run's, so it may still be on its way.
      const comments = github.issueComments.filter(
        c => c.repository === repository.fullName,
      );
      expect(comments).toHaveLength(1);
      expect(comments[0].issueNumber).toBe(7);
      await eventually(() => expect(comments[0].bodies.length).toBe(3));
      expect(comments[0].bodies[2]).toContain(
        'Plan: 7 to add, 0 to change, 0 to destroy.',
      );
      // The plan applies nothing: the stack holds no resources.
      const state = await api.get(`/stacks/${stack.id}`, owner.token);
      expect(state.body.data.latestRunId).toBe(plan.id);
    });

    it('reports a failed plan as a failing check run', async () => {
      const { owner, repository } = await world({ pullRequestComments: false });
      const runner = await createRunner(api, owner);
      const head = gitSha(`${repository.name}-broken`);
      await pullRequest(
        repository,
        {
          action: 'opened',
          number: 7,
          headSha: head,
          updatedAt: '2026-11-27T10:00:00Z',
        },
        owner,
      );
      const claimed = await claim(api, runner.key);
      await complete(api, runner.key, claimed, {
        status: 'FAILED',
        error: {
          code: 'InfraDelivery:Plan:FAILED',
          message: 'Error: Invalid reference',
        },
      });
      await eventually(() =>
        expect(github.checkRunsOf(head)[0]?.current).toMatchObject({
          status: 'completed',
          conclusion: 'failure',
          output: {
            title: 'Plan failed',
            summary: expect.stringContaining('Invalid reference'),
          },
        }),
      );
      expect(
        github.issueComments.filter(c => c.repository === repository.fullName),
      ).toEqual([]);
    });

    it('hands the runner the head commit to check out, with a token for that repository alone that reads contents only; a run without gitSource carries none', async () => {
      const { owner, repository, stack } = await world();
      const runner = await createRunner(api, owner);
      const head = gitSha(`${repository.name}-head1`);
      await pullRequest(
        repository,
        {
          action: 'opened',
          number: 7,
          headSha: head,
          updatedAt: '2026-11-27T10:00:00Z',
        },
        owner,
      );
      const claimed = await claim(api, runner.key);
      expect(claimed.checkout).toEqual({
        repoUrl: `${repository.repoUrl}.git`,
        sha: head,
        token: expect.stringMatching(/^ghs_/),
        tokenExpiresAt: expect.any(String),
      });
      expect(
        new Date(claimed.checkout!.tokenExpiresAt!).getTime(),
      ).toBeGreaterThan(Date.now());
      const grant = github.issuedTokens.find(
        issued => issued.token === claimed.checkout!.token,
      );
      expect(grant).toEqual({
        token: claimed.checkout!.token,
        installationId: repository.installationId,
        repositories: [repository.name],
        permissions: { contents: 'read' },
      });
      // The token reads the repository and cannot write to it (no check runs, no comments).
      const asRunner = (path: string, init: RequestInit = {}) =>
        fetch(`${github.apiBaseUrl}/repos/${repository.fullName}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${claimed.checkout!.token}` },
        });
      expect((await asRunner('')).status).toBe(200);
      expect(
        (await asRunner('/check-runs', { method: 'POST', body: '{}' })).status,
      ).toBe(403);
      await complete(api, runner.key, claimed, {
        status: 'SUCCEEDED',
        planJson: BASIC_PLAN,
      });

      await trigger(api, owner, stack.changePipelineId);
      const manual = await claim(api, runner.key);
      expect(manual.pipelineRun.gitSource).toBeUndefined();
      expect(manual.checkout).toBeUndefined();
    });

    it('fails the plan with CHECKOUT_UNAVAILABLE, handing nothing to the runner, when GitHub gives no token for the commit', async () => {
      const { owner, repository } = await world({ pullRequestComments: false });
      const runner = await createRunner(api, owner);
      const head = gitSha(`${repository.name}-suspended`);
      const delivery = await pullRequest(
        repository,
        {
          action: 'opened',
          number: 7,
          headSha: head,
          updatedAt: '2026-11-27T10:00:00Z',
        },
        owner,
      );
      github.suspend(repository.installationId);

      const claimed = await api.post(
        '/runner/claims',
        { data: { runnerId: 'runner-1' } },
        runner.key,
      );
      expect(claimed.status).toBe(204);
      const run = await getRun(api, owner, delivery.startedRunIds[0]);
      expect(run.status).toBe('FAILED');
      expect(run.error).toEqual({
        code: 'InfraDelivery:Runner:CHECKOUT_UNAVAILABLE',
        message: expect.stringMatching(
          new RegExp(
            `^${repository.fullName}@${head.slice(
              0,
              7,
            )} cannot be checked out: GitHub App installation ${
              repository.installationId
            } .* is suspended\\. Nothing was planned`,
          ),
        ),
        metadata: {
          repository: repository.fullName,
          sha: head,
          cause: 'InfraDelivery:ForgeInstallation:SUSPENDED',
        },
      });
      const steps = await api.get(
        `/pipeline-runs/${run.id}/step-executions`,
        owner.token,
      );
      const logs = await api.get(
        `/pipeline-step-executions/${steps.body.data[0].id}/logs`,
        owner.token,
      );
      expect(logs.body.data.map((line: { text: string }) => line.text)).toEqual(
        [run.error!.message],
      );
      // The token was never handed out, and the runner is not left holding the step.
      const runners = await api.get('/runners', owner.token);
      expect(runners.body.data[0].currentStepExecutionId).toBeUndefined();

      // Once the App reaches the repository again, a retry hands out the commit.
      github.install(repository.installationId, [repository.fullName]);
      await act(api, owner, run.id, 'retry');
      const retried = await claim(api, runner.key);
      expect(retried.pipelineRun.id).toBe(run.id);
      expect(retried.checkout).toMatchObject({
        sha: head,
        token: expect.stringMatching(/^ghs_/),
      });
    });

    it('keeps the run going when GitHub does not take the check run, and reports on the next change', async () => {
      const { owner, repository, stack } = await world();
      const holder = await trigger(api, owner, stack.changePipelineId);
      github.writeOutage = 502;
      const head = gitSha(`${repository.name}-outage`);
      const delivery = await pullRequest(
        repository,
        {
          action: 'opened',
          number: 7,
          headSha: head,
          updatedAt: '2026-11-27T10:00:00Z',
        },
        owner,
      );
      await eventually(() =>
        expect(
          github.requestsTo(
            new RegExp(`/repos/acme/${repository.name}/check-runs$`),
          ).length,
        ).toBeGreaterThan(0),
      );
      expect(github.checkRunsOf(head)).toEqual([]);
      github.writeOutage = undefined;
      await act(api, owner, holder.id, 'cancel');
      expect((await getRun(api, owner, delivery.startedRunIds[0])).status).toBe(
        'RUNNING',
      );
      await eventually(() =>
        expect(github.checkRunsOf(head)[0]?.current.status).toBe('in_progress'),
      );
    });

    it('supersedes the queued plan of an older head, ignores a late delivery of it, and cancels queued plans on close', async () => {
      const { owner, repository, stack } = await world();
      await trigger(api, owner, stack.changePipelineId);
      const [first, second] = ['h1', 'h2'].map(l =>
        gitSha(`${repository.name}-${l}`),
      );
      const opened = await pullRequest(
        repository,
        {
          action: 'opened',
          number: 7,
          headSha: first,
          updatedAt: '2026-11-27T10:00:00Z',
        },
        owner,
      );
      const synchronized = await pullRequest(
        repository,
        {
          action: 'synchronize',
          number: 7,
          headSha: second,
          updatedAt: '2026-11-27T10:05:00Z',
        },
        owner,
      );
      expect(synchronized.cancelledRunIds).toEqual(opened.startedRunIds);
      expect(synchronized.startedRunIds).toHaveLength(1);

      // A redelivery of the first, late: nothing for a stale head.
      const late = await pullRequest(
        repository,
        {
          action: 'synchronize',
          number: 7,
          headSha: first,
          updatedAt: '2026-11-27T10:00:00Z',
        },
        owner,
      );
      expect(late).toMatchObject({
        outcome: 'IGNORED',
        reason: expect.stringContaining('older than what was seen'),
      });

      const closed = await pullRequest(
        repository,
        {
          action: 'closed',
          number: 7,
          headSha: second,
          updatedAt: '2026-11-27T10:10:00Z',
        },
        owner,
      );
      expect(closed).toMatchObject({
        outcome: 'CANCELLED_RUNS',
        cancelledRunIds: synchronized.startedRunIds,
      });
      const cancelled = await getRun(api, owner, synchronized.startedRunIds[0]);
      expect(cancelled).toMatchObject({
        status: 'CANCELLED',
        error: { message: 'Pull request #7 was closed' },
      });
      await eventually(() =>
        expect(github.checkRunsOf(second)[0]?.current).toMatchObject({
          status: 'completed',
          conclusion: 'cancelled',
        }),
      );
      // A synchronize that GitHub sent before the close, arriving after it, plans nothing.
      const afterClose = await pullRequest(
        repository,
        {
          action: 'synchronize',
          number: 7,
          headSha: gitSha('x'),
          updatedAt: '2026-11-27T10:08:00Z',
        },
        owner,
      );
      expect(afterClose.outcome).toBe('IGNORED');
    });

    it('plans nothing for a pull request that touches nothing the stack follows, or into another branch', async () => {
      const { owner, repository, stack } = await world();
      const untouched = await pullRequest(
        repository,
        {
          action: 'opened',
          number: 8,
          headSha: gitSha('docs'),
          updatedAt: '2026-11-27T10:00:00Z',
        },
        owner,
      );
      expect(untouched).toMatchObject({
        outcome: 'IGNORED',
        reason: expect.stringContaining('#8 changes nothing the stack follows'),
      });
      const otherBase = await pullRequest(
        repository,
        {
          action: 'opened',
          number: 7,
          headSha: gitSha('other'),
          updatedAt: '2026-11-27T10:00:00Z',
          baseRef: 'release',
        },
        owner,
      );
      expect(otherBase).toMatchObject({
        outcome: 'IGNORED',
        reason: 'No stack plans pull requests into release',
      });
      expect(await runsOfStack(api, owner, stack.id)).toEqual([]);
    });

    it('plans nothing from a fork: its code would run where the stack’s credentials are', async () => {
      const { owner, repository, stack } = await world();
      const fromFork = await pullRequest(
        repository,
        {
          action: 'opened',
          number: 9,
          headSha: gitSha('fork'),
          updatedAt: '2026-11-27T10:00:00Z',
          headRepository: 'mallory/network-infra',
        },
        owner,
      );
      expect(fromFork).toMatchObject({
        outcome: 'IGNORED',
        reason: expect.stringContaining(
          '#9 comes from mallory/network-infra, a fork',
        ),
      });
      expect(await runsOfStack(api, owner, stack.id)).toEqual([]);
      expect(github.checkRunsOf(gitSha('fork'))).toEqual([]);
    });

    it('keeps code sources’ access current from installation events', async () => {
      const { owner, repository, stack } = await world();
      const installation = {
        installation: {
          id: Number(repository.installationId),
          account: { login: 'acme' },
        },
        sender: { login: 'admin' },
      };
      const send = async (action: string) => {
        const sent = github.delivery('installation', {
          action,
          ...installation,
        });
        expectStatus(await sendDelivery(api, sent, github.webhookPath), 202);
        return processedDelivery(api, owner, sent.headers['x-github-delivery']);
      };
      github.suspend(repository.installationId);
      expect(await send('suspend')).toMatchObject({
        event: 'installation',
        action: 'suspend',
        outcome: 'UPDATED_CODE_SOURCES',
        reason: expect.stringContaining(`${repository.fullName} lost access`),
      });
      const lost = await api.get(
        `/code-sources/${stack.codeSourceId}`,
        owner.token,
      );
      expect(lost.body.data.accessLost).toBe(true);

      github.install(repository.installationId, [repository.fullName]);
      expect((await send('unsuspend')).reason).toContain(
        `${repository.fullName} reachable`,
      );
      const back = await api.get(
        `/code-sources/${stack.codeSourceId}`,
        owner.token,
      );
      expect(back.body.data.accessLost).toBe(false);

      expect((await send('deleted')).outcome).toBe('UPDATED_CODE_SOURCES');
      expect(
        (await api.get(`/code-sources/${stack.codeSourceId}`, owner.token)).body
          .data.accessLost,
      ).toBe(true);
    });

    describe('GET /webhook-deliveries', () => {
      it('pages through the organization’s deliveries only, newest first', async () => {
        const { owner, repository } = await world();
        const other = await api.signup();
        const ids: string[] = [];
        for (const n of [1, 2, 3]) {
          const delivery = await pullRequest(
            repository,
            {
              action: 'labeled',
              number: n,
              headSha: gitSha(`l${n}`),
              updatedAt: '2026-11-27T10:00:00Z',
            },
            owner,
          );
          ids.push(delivery.deliveryId);
        }
        const walked = await api.walk('/webhook-deliveries', owner.token, 1);
        expect(walked.map(d => d.deliveryId)).toEqual([...ids].reverse());
        expect(walked[0]).toMatchObject({
          outcome: 'IGNORED',
          reason: 'pull_request.labeled starts nothing',
        });
        const page = await api.get('/webhook-deliveries?limit=2', owner.token);
        expect(page.body.meta).toMatchObject({ limit: 2, totalCount: 3 });
        expect(page.body.meta.nextCursor).toEqual(expect.any(String));

        const outsider = await api.get('/webhook-deliveries', other.token);
        expect(outsider.body).toMatchObject({
          data: [],
          meta: { totalCount: 0 },
        });
        expect((await api.get('/webhook-deliveries')).status).toBe(401);
        const tampered = await api.get(
          `/webhook-deliveries?cursor=${page.body.meta.nextCursor}x`,
          owner.token,
        );
        expect(tampered.status).toBe(400);
      });
    });

    describe('stack trigger rules', () => {
      it('are validated: a code source is needed, of the same organization, and filters are relative globs', async () => {
        const { owner, repository, stack } = await world();
        const other = await api.signup();
        const viewer = await api.member(owner, 'VIEWER');
        const noSource = await api.post(
          '/stacks',
          {
            data: {
              projectId: stack.projectId,
              environmentId: stack.environmentId,
              name: 'No source',
              gitTrigger: {
                branch: 'main',
                pushRuns: true,
                pullRequestPlans: false,
                pullRequestComments: false,
              },
            },
          },
          owner.token,
        );
        expect(noSource.status).toBe(422);
        expect(noSource.body.code).toBe('InfraDelivery:Stack:NO_CODE_SOURCE');

        for (const pathFilters of [['/etc/passwd'], ['../outside/**'], ['']]) {
          const bad = await api.patch(
            `/stacks/${stack.id}`,
            { data: { gitTrigger: { ...stack.gitTrigger, pathFilters } } },
            owner.token,
          );
          expect(bad.status).toBe(400);
          expect(bad.body.code).toBe('InfraDelivery:Request:VALIDATION_FAILED');
        }
        const elsewhere = followedRepository(github, 'elsewhere');
        const foreign = await followingStack(api, other, elsewhere);
        const foreignSource = await api.patch(
          `/stacks/${stack.id}`,
          { data: { codeSourceId: foreign.codeSourceId } },
          owner.token,
        );
        expect(foreignSource.status).toBe(404);
        expect(
          (
            await api.patch(
              `/stacks/${foreign.stack.id}`,
              { data: { gitTrigger: null } },
              owner.token,
            )
          ).status,
        ).toBe(404);
        const denied = await api.patch(
          `/stacks/${stack.id}`,
          { data: { gitTrigger: null } },
          viewer.token,
        );
        expect(denied.status).toBe(403);

        const changed = await api.patch(
          `/stacks/${stack.id}`,
          {
            data: {
              gitTrigger: {
                ...stack.gitTrigger,
                branch: 'trunk',
                pathFilters: ['infra/**'],
              },
            },
          },
          owner.token,
        );
        expect(changed.status).toBe(200);
        expect(changed.body.data.gitTrigger).toEqual({
          branch: 'trunk',
          pathFilters: ['infra/**'],
          pushRuns: true,
          pullRequestPlans: true,
          pullRequestComments: true,
        });
        const off = await api.patch(
          `/stacks/${stack.id}`,
          { data: { gitTrigger: null } },
          owner.token,
        );
        expect(off.body.data.gitTrigger).toBeUndefined();
        expect(repository.fullName).toContain('acme/');
      });
    });
  },
);
