import {
  errorBodySchema,
  pipelineRunSchema,
  webhookDeliverySchema,
} from '@infra-delivery/plugin-infra-delivery-common';
import { randomUUID } from 'node:crypto';
import { FakeGithub } from '../__testUtils__/fakeGithub';
import {
  followedRepository,
  FollowedRepository,
  followingStack,
  gitSha,
  processedDelivery,
  pushPayload,
  runsOfStack,
  sendDelivery,
} from '../__testUtils__/gitTriggerFixtures';
import { expectStatus } from '../__testUtils__/pipelineFixtures';
import { webhookSignature } from '../gitTriggers/webhookSignature';
import {
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TestOrganization,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();
const ZERO = '0'.repeat(40);

describe.each(databases.eachSupportedId())(
  'GitHub webhooks: pushes on %s',
  databaseId => {
    let api: InfraDeliveryTestClient;
    let github: FakeGithub;
    let owner: TestOrganization;

    beforeAll(async () => {
      github = await FakeGithub.start();
      api = await startInfraDeliveryBackend(await databases.init(databaseId), {
        config: github.config(),
      });
      owner = await api.signup();
    });

    afterAll(async () => {
      await github.close();
    });

    async function push(
      repository: FollowedRepository,
      options: Parameters<typeof pushPayload>[1],
      deliveryId = randomUUID(),
    ) {
      const response = await sendDelivery(
        api,
        github.delivery('push', pushPayload(repository, options), {
          deliveryId,
        }),
        github.webhookPath,
      );
      return { response, deliveryId };
    }

    describe('signatures', () => {
      it('refuses a wrong signature with a 401 ErrorBody and records and starts nothing', async () => {
        const repository = followedRepository(github, `sig-${databaseId}`);
        const { stack } = await followingStack(api, owner, repository);
        const before = await api.get('/webhook-deliveries', owner.token);
        const payload = pushPayload(repository, {
          before: ZERO,
          after: gitSha('forged'),
          files: ['infra/network/main.tf'],
        });
        for (const signature of [
          `sha256=${'0'.repeat(64)}`,
          'sha1=deadbeef',
          'not a signature',
        ]) {
          const response = await sendDelivery(
            api,
            github.delivery('push', payload, { signature }),
            github.webhookPath,
          );
          expect(response.status).toBe(401);
          expect(errorBodySchema.parse(response.body).code).toBe(
            'InfraDelivery:Webhook:UNAUTHORIZED',
          );
        }
        // The right signature of another body is as wrong as any.
        const other = github.delivery('push', { ...payload, after: ZERO });
        const swapped = await sendDelivery(
          api,
          {
            body: JSON.stringify(payload),
            headers: other.headers,
          },
          github.webhookPath,
        );
        expect(swapped.status).toBe(401);

        const after = await api.get('/webhook-deliveries', owner.token);
        expect(after.body.meta.totalCount).toBe(before.body.meta.totalCount);
        expect(await runsOfStack(api, owner, stack.id)).toEqual([]);
      });

      it('refuses a delivery without a signature with a 401', async () => {
        const response = await sendDelivery(
          api,
          github.delivery(
            'ping',
            { zen: 'Design for failure.' },
            { signature: null },
          ),
          github.webhookPath,
        );
        expect(response.status).toBe(401);
        expect(errorBodySchema.parse(response.body).message).toContain(
          'X-Hub-Signature-256',
        );
      });

      it('answers 404 for an App that is not configured', async () => {
        const response = await sendDelivery(
          api,
          github.delivery('ping', {}),
          `/webhooks/github/ghe.example.test/999`,
        );
        expect(response.status).toBe(404);
        expect(errorBodySchema.parse(response.body).code).toBe(
          'InfraDelivery:WebhookEndpoint:NOT_FOUND',
        );
      });

      it("takes a form-encoded delivery (the App's other content type) as the JSON one", async () => {
        const repository = followedRepository(github, `form-${databaseId}`);
        const { stack } = await followingStack(api, owner, repository);
        const deliveryId = randomUUID();
        const response = await sendDelivery(
          api,
          github.delivery(
            'push',
            pushPayload(repository, {
              before: gitSha(`${repository.name}-main`),
              after: gitSha(`${repository.name}-form`),
              files: ['infra/network/main.tf'],
            }),
            { deliveryId, formEncoded: true },
          ),
          github.webhookPath,
        );
        expect(response.status).toBe(202);
        const delivery = await processedDelivery(api, owner, deliveryId);
        expect(delivery.outcome).toBe('STARTED_RUNS');
        expect(await runsOfStack(api, owner, stack.id)).toHaveLength(1);
      });

      it('refuses a signed body that is not JSON with a 400', async () => {
        const delivery = github.delivery('push', {});
        const body = 'not json';
        const signed = github.delivery(
          'push',
          {},
          {
            signature: webhookSignature(github.webhookSecret, body),
          },
        );
        const response = await sendDelivery(
          api,
          { body, headers: { ...delivery.headers, ...signed.headers } },
          github.webhookPath,
        );
        expect(response.status).toBe(400);
        expect(errorBodySchema.safeParse(response.body).success).toBe(true);
      });
    });

    describe('push', () => {
      it('starts the change pipeline with the commit for a push that touches the path', async () => {
        const repository = followedRepository(github, `push-${databaseId}`);
        const { stack, codeSourceId } = await followingStack(
          api,
          owner,
          repository,
        );
        const after = gitSha(`${repository.name}-fix`);
        const { response, deliveryId } = await push(repository, {
          before: gitSha(`${repository.name}-main`),
          after,
          files: ['infra/network/subnets.tf'],
          message: 'Fix the subnet\n\nThe mask was wrong.',
          author: 'alice',
        });
        expect(response.status).toBe(202);
        expect(response.body).toEqual({
          data: { deliveryId, duplicate: false },
        });

        const delivery = await processedDelivery(api, owner, deliveryId);
        expect(webhookDeliverySchema.parse(delivery)).toMatchObject({
          deliveryId,
          event: 'push',
          forgeHost: 'ghe.example.test',
          appId: String(github.appId),
          installationId: repository.installationId,
          repository: repository.fullName,
          outcome: 'STARTED_RUNS',
          cancelledRunIds: [],
        });
        expect(delivery.startedRunIds).toHaveLength(1);

        const run = pipelineRunSchema.parse(
          (
            await api.get(
              `/pipeline-runs/${delivery.startedRunIds[0]}`,
              owner.token,
            )
          ).body.data,
        );
        expect(run).toMatchObject({
          pipelineId: stack.changePipelineId,
          attachedEntityId: stack.id,
          kind: 'STANDARD',
          triggerSource: 'GIT_PUSH',
          description: 'Push to main: Fix the subnet',
          triggerMetadata: {
            trigger_given_id: 'receiveGithubWebhook',
            webhook_event: 'push',
          },
          gitSource: {
            codeSourceId,
            repository: repository.fullName,
            repoUrl: repository.repoUrl,
            branch: 'main',
            commit: {
              sha: after,
              message: 'Fix the subnet\n\nThe mask was wrong.',
              author: 'alice',
              url: `${repository.repoUrl}/commit/${after}`,
            },
            webhookDeliveryId: deliveryId,
          },
        });
        expect(run.gitSource?.pullRequest).toBeUndefined();
        const steps = await api.get(
          `/pipeline-runs/${run.id}/step-executions`,
          owner.token,
        );
        expect(steps.body.data.map((s: { type: string }) => s.type)).toEqual([
          'iac.plan',
          'approval',
          'iac.apply',
        ]);
      });

      it('starts nothing twice for a redelivery', async () => {
        const repository = followedRepository(
          github,
          `redeliver-${databaseId}`,
        );
        const { stack } = await followingStack(api, owner, repository);
        const options = {
          before: gitSha(`${repository.name}-main`),
          after: gitSha(`${repository.name}-once`),
          files: ['infra/network/main.tf'],
        };
        const first = await push(repository, options);
        await processedDelivery(api, owner, first.deliveryId);
        const again = await push(repository, options, first.deliveryId);
        expect(again.response.status).toBe(202);
        expect(again.response.body.data).toEqual({
          deliveryId: first.deliveryId,
          duplicate: true,
        });
        expect(await runsOfStack(api, owner, stack.id)).toHaveLength(1);
        const listed = await api.walk('/webhook-deliveries', owner.token, 100);
        expect(
          listed.filter(d => d.deliveryId === first.deliveryId),
        ).toHaveLength(1);
      });

      it('ignores a push that touches nothing the stack follows, and pushes to other branches', async () => {
        const repository = followedRepository(
          github,
          `untouched-${databaseId}`,
        );
        const { stack } = await followingStack(api, owner, repository);
        const elsewhere = await push(repository, {
          before: gitSha(`${repository.name}-main`),
          after: gitSha(`${repository.name}-docs`),
          files: ['docs/README.md', 'infra/network-other/main.tf'],
        });
        expect(
          await processedDelivery(api, owner, elsewhere.deliveryId),
        ).toMatchObject({
          outcome: 'IGNORED',
          reason: expect.stringContaining('changes nothing the stack follows'),
          startedRunIds: [],
        });
        const otherBranch = await push(repository, {
          before: ZERO,
          after: gitSha(`${repository.name}-feature`),
          files: ['infra/network/main.tf'],
          branch: 'feature/x',
        });
        expect(
          await processedDelivery(api, owner, otherBranch.deliveryId),
        ).toMatchObject({
          outcome: 'IGNORED',
          reason: 'No stack starts runs on pushes to feature/x',
        });
        expect(await runsOfStack(api, owner, stack.id)).toEqual([]);
      });

      it('follows path filters instead of the path when the trigger has them', async () => {
        const repository = followedRepository(github, `filters-${databaseId}`);
        const { stack } = await followingStack(api, owner, repository, {
          pathFilters: ['modules/**/*.tf', 'terraform.lock.hcl'],
        });
        const underPath = await push(repository, {
          before: gitSha(`${repository.name}-main`),
          after: gitSha(`${repository.name}-a`),
          files: ['infra/network/main.tf'],
          timestamp: '2026-11-27T10:00:00Z',
        });
        expect(
          (await processedDelivery(api, owner, underPath.deliveryId)).outcome,
        ).toBe('IGNORED');
        const matching = await push(repository, {
          before: gitSha(`${repository.name}-a`),
          after: gitSha(`${repository.name}-b`),
          files: ['modules/vpc/nested/outputs.tf'],
          timestamp: '2026-11-27T10:01:00Z',
        });
        expect(
          (await processedDelivery(api, owner, matching.deliveryId)).outcome,
        ).toBe('STARTED_RUNS');
        expect(await runsOfStack(api, owner, stack.id)).toHaveLength(1);
      });

      it('ignores an older push that arrives after a newer one', async () => {
        const repository = followedRepository(github, `order-${databaseId}`);
        const { stack } = await followingStack(api, owner, repository);
        const main = gitSha(`${repository.name}-main`);
        const first = gitSha(`${repository.name}-first`);
        const second = gitSha(`${repository.name}-second`);
        const newer = await push(repository, {
          before: first,
          after: second,
          files: ['infra/network/b.tf'],
          timestamp: '2026-11-27T10:05:00Z',
        });
        await processedDelivery(api, owner, newer.deliveryId);
        const late = await push(repository, {
          before: main,
          after: first,
          files: ['infra/network/a.tf'],
          timestamp: '2026-11-27T10:00:00Z',
        });
        expect(
          await processedDelivery(api, owner, late.deliveryId),
        ).toMatchObject({
          outcome: 'IGNORED',
          reason: expect.stringContaining('is older than'),
        });
        const runs = await runsOfStack(api, owner, stack.id);
        expect(runs.map(r => r.gitSource?.commit.sha)).toEqual([second]);
      });

      it('cancels a queued push run that a newer push supersedes', async () => {
        const repository = followedRepository(
          github,
          `supersede-${databaseId}`,
        );
        const { stack } = await followingStack(api, owner, repository);
        const shas = ['one', 'two', 'three'].map(label =>
          gitSha(`${repository.name}-${label}`),
        );
        let before = gitSha(`${repository.name}-main`);
        const deliveries = [];
        for (const after of shas) {
          const sent = await push(repository, {
            before,
            after,
            files: ['infra/network/main.tf'],
          });
          deliveries.push(await processedDelivery(api, owner, sent.deliveryId));
          before = after;
        }
        // The first holds the stack (it plans, then waits for approval); the second waits and
        // is superseded by the third.
        expect(deliveries[2].cancelledRunIds).toEqual(
          deliveries[1].startedRunIds,
        );
        const runs = await runsOfStack(api, owner, stack.id);
        const byCommit = new Map(runs.map(r => [r.gitSource!.commit.sha, r]));
        expect(byCommit.get(shas[0])!.status).toBe('RUNNING');
        expect(byCommit.get(shas[1])).toMatchObject({
          status: 'CANCELLED',
          error: {
            code: 'InfraDelivery:PipelineRun:SUPERSEDED',
            message: expect.stringContaining(shas[2].slice(0, 7)),
          },
        });
        expect(byCommit.get(shas[2])!.status).toBe('QUEUED');
      });

      it('starts nothing for a deleted branch', async () => {
        const repository = followedRepository(github, `deleted-${databaseId}`);
        const { stack } = await followingStack(api, owner, repository);
        const payload = {
          ...pushPayload(repository, {
            before: gitSha(`${repository.name}-main`),
            after: ZERO,
            files: [],
          }),
          deleted: true,
          commits: [],
          head_commit: null,
        };
        const sent = github.delivery('push', payload);
        expectStatus(await sendDelivery(api, sent, github.webhookPath), 202);
        expect(
          await processedDelivery(
            api,
            owner,
            sent.headers['x-github-delivery'],
          ),
        ).toMatchObject({
          outcome: 'IGNORED',
          reason: expect.stringContaining('deleted'),
        });
        expect(await runsOfStack(api, owner, stack.id)).toEqual([]);
      });
    });
  },
);
