import {
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import notificationsPlugin from '@backstage/plugin-notifications-backend';
import { Knex } from 'knex';
import request from 'supertest';
import { Server } from 'node:http';
import {
  act,
  claim,
  complete,
  createRunner,
  createStack,
  expectStatus,
  trigger,
} from '../__testUtils__/pipelineFixtures';
import { eventually } from '../__testUtils__/gitTriggerFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { InfraDeliveryTestClient } from '../__testUtils__/testBackend';
import { infraDeliveryPlugin } from '../plugin';
import { approvalNotificationScope } from '@infra-delivery/plugin-infra-delivery-common';
import { readNotificationSettings } from './notificationSettings';

jest.setTimeout(120_000);

const databases = createTestDatabases();

const OWNER = 'user:default/owner';
const ALICE = 'user:default/alice';
const BOB = 'user:default/bob';

/** A plan changing `count` buckets in place. */
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
        actions: ['update'],
        before: { bucket: `bucket-${i}`, versioning: true },
        after: { bucket: `bucket-${i}`, versioning: false },
        after_sensitive: {},
      },
    })),
  };
}

const user = (name: string): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'User',
  metadata: { name, namespace: 'default' },
  spec: {},
});
const group = (name: string, members: string[]): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Group',
  metadata: { name, namespace: 'default' },
  spec: { type: 'team', children: [] },
  relations: members.map(targetRef => ({ type: 'hasMember', targetRef })),
});

describe.each(databases.eachSupportedId())(
  'notifications through the real notifications backend on %s',
  databaseId => {
    let server: Server;
    let api: InfraDeliveryTestClient;
    let infraDeliveryKnex: Knex;
    /** The catalog as the notifications backend reads it; tests add the stacks. */
    const entities: Entity[] = [
      user('owner'),
      user('alice'),
      user('bob'),
      group('payments', [ALICE]),
      group('web', [BOB]),
    ];

    beforeAll(async () => {
      infraDeliveryKnex = await databases.init(databaseId);
      const notificationsKnex = await databases.init(databaseId);
      const catalog = catalogServiceMock.mock({
        getEntitiesByRefs: async ({ entityRefs }) => ({
          items: entityRefs.map(ref =>
            entities.find(entity => stringifyEntityRef(entity) === ref),
          ),
        }),
        getEntities: async () => ({ items: [] }),
      });
      ({ server } = await startTestBackend({
        features: [
          infraDeliveryPlugin,
          notificationsPlugin,
          catalog.factory,
          // Each plugin its own database, as in a real deployment.
          createServiceFactory({
            service: coreServices.database,
            deps: { plugin: coreServices.pluginMetadata },
            factory: ({ plugin }) =>
              mockServices.database({
                knex:
                  plugin.getId() === 'infra-delivery'
                    ? infraDeliveryKnex
                    : notificationsKnex,
              }),
          }),
          mockServices.rootConfig.factory({
            data: {
              app: { baseUrl: 'http://portal.test' },
              infraDelivery: {
                roleMappings: [{ entityRef: OWNER, role: 'OWNER' }],
                defaultRole: 'VIEWER',
              },
            },
          }),
        ],
      }));
      api = new InfraDeliveryTestClient(server);
    });

    /** The user's notifications, newest first, as the bell reads them. */
    async function notificationsOf(userRef: string) {
      const response = await request(server)
        .get('/api/notifications/notifications')
        .set('authorization', mockCredentials.user.header(userRef));
      expectStatus(response, 200);
      return response.body.notifications as {
        payload: {
          title: string;
          description?: string;
          link?: string;
          topic?: string;
          scope?: string;
          severity?: string;
        };
      }[];
    }

    /**
     * The runner's next step, claimed and reported: under an id of the runner's own, since the
     * tests' runners share the portal organization.
     */
    async function reportNextStep(
      runner: { key: string; serviceAccountId: string },
      result: Record<string, unknown>,
    ) {
      return complete(
        api,
        runner.key,
        await claim(api, runner.key, runner.serviceAccountId),
        result,
      );
    }

    /** The user's notifications of a run's approval: the one a later one replaces. */
    async function approvalNotificationsOf(userRef: string, runId: string) {
      return (await notificationsOf(userRef))
        .map(n => n.payload)
        .filter(payload => payload.scope === approvalNotificationScope(runId));
    }

    /** A stack of the portal organization, in the catalog owned by the payments team. */
    async function ownedStack() {
      const owner = { token: api.backstageUserToken(OWNER) };
      const stack = await createStack(api, owner, { name: 'Payments network' });
      entities.push({
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Resource',
        metadata: { name: `stack-${stack.id}`, namespace: 'default' },
        spec: { type: 'iac-stack', owner: 'group:default/payments' },
        relations: [{ type: 'ownedBy', targetRef: 'group:default/payments' }],
      });
      const runner = await createRunner(api, owner);
      return { owner, stack, runner };
    }

    it('tells the stack’s owners that a plan waits for them, then that the run failed', async () => {
      const { owner, stack, runner } = await ownedStack();
      const run = await trigger(api, owner, stack.changePipelineId);
      await reportNextStep(runner, {
        status: 'SUCCEEDED',
        planJson: planJson(2),
      });

      const link = `/catalog/default/resource/stack-${stack.id}/infra-runs/${run.id}`;
      // Sent in the background, after the runner's report was answered.
      await eventually(async () =>
        expect(await notificationsOf(ALICE)).toEqual([
          expect.objectContaining({
            payload: expect.objectContaining({
              title: 'Payments network: a plan waits for your approval',
              link,
              severity: 'high',
              topic: 'Infrastructure: approvals',
            }),
          }),
        ]),
      );
      // Bob's team does not own the stack.
      await expect(notificationsOf(BOB)).resolves.toEqual([]);

      // Rejected, the plan no longer waits: the same notification says so, and no "run
      // failed" comes of what a person chose.
      await act(api, owner, run.id, 'reject', 'Overlaps the VPN range');
      const alice = await eventually(async () => {
        const titled = await notificationsOf(ALICE);
        expect(titled.map(n => n.payload.title)).toEqual([
          'Payments network: the plan was rejected',
        ]);
        return titled;
      });
      expect(alice[0].payload).toMatchObject({
        link,
        topic: 'Infrastructure: approvals',
        severity: 'normal',
        description: expect.stringMatching(
          /^The approval was rejected: Overlaps the VPN range \(.+\)\. Nothing was applied\.$/,
        ),
      });
      // The person who rejected it (here also its starter) keeps the one they had.
      expect(await approvalNotificationsOf(OWNER, run.id)).toEqual([
        expect.objectContaining({
          title: 'Payments network: a plan waits for your approval',
        }),
      ]);
    });

    it('tells the stack’s owners that the plan they were asked about was approved, and by whom', async () => {
      const { owner, stack, runner } = await ownedStack();
      const run = await trigger(api, owner, stack.changePipelineId);
      await reportNextStep(runner, {
        status: 'SUCCEEDED',
        planJson: planJson(1),
      });
      const ofThisRun = (ref: string) => approvalNotificationsOf(ref, run.id);
      await eventually(async () =>
        expect((await ofThisRun(ALICE)).map(p => p.title)).toEqual([
          'Payments network: a plan waits for your approval',
        ]),
      );

      await act(api, owner, run.id, 'approve');
      // The apply, so that the next test's runner claims its own steps.
      await reportNextStep(runner, {
        status: 'SUCCEEDED',
        planJson: planJson(1),
      });

      // In place of "waits for your approval", which stood unread after the decision.
      await eventually(async () =>
        expect(await ofThisRun(ALICE)).toEqual([
          expect.objectContaining({
            title: 'Payments network: the plan was approved',
            description: expect.stringMatching(
              /^A run was approved by .+; the run goes on\.$/,
            ),
            severity: 'low',
          }),
        ]),
      );
      await expect(ofThisRun(OWNER)).resolves.toEqual([
        expect.objectContaining({
          title: 'Payments network: a plan waits for your approval',
        }),
      ]);
    });

    it('says that a plan waiting for approval destroys the stack', async () => {
      const { owner, stack, runner } = await ownedStack();
      const run = await trigger(api, owner, stack.destroyPipelineId);
      await reportNextStep(runner, {
        status: 'SUCCEEDED',
        planJson: planJson(2),
      });
      await eventually(async () =>
        expect(await approvalNotificationsOf(ALICE, run.id)).toEqual([
          expect.objectContaining({
            // It read "A run planned changes to Payments network".
            title:
              'Payments network: a plan to destroy it waits for your approval',
            description:
              'A destroy run plans to destroy every resource of Payments network; approve or reject it.',
          }),
        ]),
      );
      await act(api, owner, run.id, 'reject');
    });

    it('tells the person who started a run that it failed, while the catalog has no entity for its stack yet', async () => {
      const owner = { token: api.backstageUserToken(OWNER) };
      const stack = await createStack(api, owner, { name: 'Brand new' });
      const runner = await createRunner(api, owner);
      const before = (await notificationsOf(OWNER)).length;
      const run = await trigger(api, owner, stack.changePipelineId);
      await reportNextStep(runner, {
        status: 'FAILED',
        error: {
          code: 'InfraDelivery:StepExecution:FAILED',
          message: 'terraform plan exited with 1: No configuration files',
        },
      });

      const mine = await eventually(async () => {
        const received = await notificationsOf(OWNER);
        expect(received).toHaveLength(before + 1);
        return received;
      });
      expect(mine[0].payload).toMatchObject({
        title: 'Brand new: a run failed',
        link: `/catalog/default/resource/stack-${stack.id}/infra-runs/${run.id}`,
        topic: 'Infrastructure: failed runs',
      });
      // Nobody else: the stack has no owners in the catalog yet.
      expect(
        (await notificationsOf(ALICE)).map(n => n.payload.title),
      ).not.toContain('Brand new: a run failed');
    });

    it('tells them drift was found, once per stack however often a check finds it', async () => {
      const { owner, stack, runner } = await ownedStack();
      const applied = await trigger(api, owner, stack.changePipelineId);
      await reportNextStep(runner, {
        status: 'SUCCEEDED',
        planJson: planJson(3),
      });
      await act(api, owner, applied.id, 'approve');
      await reportNextStep(runner, {
        status: 'SUCCEEDED',
        planJson: planJson(3),
      });

      for (const drifted of [2, 1]) {
        const check = await api.post(
          `/stacks/${stack.id}/drift-checks`,
          { data: {} },
          owner.token,
        );
        expectStatus(check, 201);
        await reportNextStep(runner, {
          status: 'SUCCEEDED',
          planJson: planJson(drifted),
        });
      }

      // Both checks' notifications sent (the outbox empty): the second updated the first.
      await eventually(async () =>
        expect(await infraDeliveryKnex('notification_outbox')).toEqual([]),
      );
      await eventually(async () => {
        const drift = (await notificationsOf(ALICE)).filter(
          n => n.payload.topic === 'Infrastructure: drift',
        );
        expect(drift).toEqual([
          expect.objectContaining({
            payload: expect.objectContaining({
              title: 'Payments network drifted from its code',
              scope: `infra-delivery:stack:${stack.id}:drift`,
            }),
          }),
        ]);
      });
    });
  },
);

describe('readNotificationSettings', () => {
  it('sends every kind unless configured off, one by one or all at once', () => {
    expect(readNotificationSettings(undefined).kinds).toEqual({
      approvalWaiting: true,
      runFailed: true,
      deploymentFailed: true,
      driftFound: true,
    });
    expect(
      readNotificationSettings(
        new ConfigReader({ notifications: { driftFound: false } }),
      ).kinds,
    ).toMatchObject({ driftFound: false, runFailed: true });
    expect(
      Object.values(
        readNotificationSettings(
          new ConfigReader({ notifications: { enabled: false } }),
        ).kinds,
      ),
    ).toEqual([false, false, false, false]);
  });
});
