import { mockServices } from '@backstage/backend-test-utils';
import { NotificationSendOptions } from '@backstage/plugin-notifications-node';
import { migratedStores } from '../__testUtils__/engineFixtures';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { Stores } from '../database/stores';
import { NotificationOutbox, RETRY_DELAYS_MS } from './NotificationOutbox';
import { NotificationKind } from './notificationSettings';

jest.setTimeout(60_000);

const databases = createTestDatabases();

const payload = (scope: string): NotificationSendOptions['payload'] => ({
  title: 'Network: a plan waits for your approval',
  link: '/catalog/default/resource/stack-net/infra-runs/run-1',
  severity: 'high',
  topic: 'Infrastructure: approvals',
  scope,
});

/** Has `outbox` send a notification of `scope` to the owners of the stack `net`. */
const enqueue = (
  outbox: NotificationOutbox,
  kind: NotificationKind,
  scope: string,
) => outbox.enqueue(kind, ['resource:default/stack-net'], payload(scope));

/** A notifications backend that refuses the first `refusals` sends, as one starting up does. */
function notificationsBackend(refusals = 0) {
  let refused = 0;
  const send = jest.fn(async (_options: NotificationSendOptions) => {
    if (refused < refusals) {
      refused += 1;
      throw new Error(
        'Failed to send notifications: Request failed with status 503',
      );
    }
  });
  return { send };
}

describe.each(databases.eachSupportedId())('NotificationOutbox on %s', id => {
  let stores: Stores;
  let clock: Date;
  const logger = mockServices.logger.mock();
  /** The catalog: the entities showing `prod/web`, once it answers. */
  let catalogAnswers = true;
  const lookUpRecipients = jest.fn(
    async ({ ecsService }: { ecsService: string }) => {
      if (!catalogAnswers) {
        throw new Error('Request failed with 503 Service Unavailable');
      }
      return ecsService === 'prod/web'
        ? {
            entityRefs: ['component:default/checkout'],
            link: '/catalog/default/component/checkout/infra-deployments',
          }
        : { entityRefs: [] };
    },
  );

  beforeEach(async () => {
    stores = await migratedStores(await databases.init(id));
    clock = new Date('2026-11-29T10:00:00.000Z');
    catalogAnswers = true;
    jest.clearAllMocks();
  });

  const outboxWith = (notifications: ReturnType<typeof notificationsBackend>) =>
    new NotificationOutbox({
      stores,
      notifications,
      lookUpRecipients,
      logger,
      now: () => clock,
    });

  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  it('sends what it was given in the background, and keeps nothing once it is sent', async () => {
    const backend = notificationsBackend();
    const outbox = outboxWith(backend);

    await enqueue(outbox, 'approvalWaiting', 'run-1');
    await outbox.idle();

    expect(backend.send).toHaveBeenCalledWith({
      recipients: { type: 'entity', entityRef: ['resource:default/stack-net'] },
      payload: payload('run-1'),
    });
    later(24 * 60 * 60_000);
    await expect(outbox.sendDue()).resolves.toBe(0);
    expect(backend.send).toHaveBeenCalledTimes(1);
  });

  it('keeps a notification the backend refused, and sends it once it is due again', async () => {
    const backend = notificationsBackend(1);
    const outbox = outboxWith(backend);

    await enqueue(outbox, 'runFailed', 'run-1');
    await outbox.idle();
    expect(logger.warn).toHaveBeenCalledWith(
      'Could not send the Infrastructure: approvals notification run-1 (attempt 1); trying again in 10s: Failed to send notifications: Request failed with status 503',
    );

    later(RETRY_DELAYS_MS[0] - 1);
    await expect(outbox.sendDue()).resolves.toBe(0);
    later(1);
    await expect(outbox.sendDue()).resolves.toBe(1);
    expect(backend.send).toHaveBeenCalledTimes(2);
    expect(backend.send.mock.calls[1][0].payload).toEqual(payload('run-1'));
  });

  it('tries again later what the backend did not answer, and sends on meanwhile', async () => {
    const hangs = {
      send: jest.fn(
        (_options: NotificationSendOptions) => new Promise<void>(() => {}),
      ),
    };
    const outbox = new NotificationOutbox({
      stores,
      notifications: hangs,
      lookUpRecipients,
      logger,
      now: () => clock,
      sendTimeoutMs: 50,
    });
    await enqueue(outbox, 'runFailed', 'run-1');
    await outbox.idle();
    expect(logger.warn).toHaveBeenCalledWith(
      'Could not send the Infrastructure: approvals notification run-1 (attempt 1); trying again in 10s: The notifications backend did not answer within 0.05s',
    );

    // The hung send holds nothing: the next notification, and the retry, go out.
    const answers = notificationsBackend();
    hangs.send.mockImplementation(answers.send);
    await enqueue(outbox, 'runFailed', 'run-2');
    await outbox.idle();
    later(RETRY_DELAYS_MS[0]);
    await expect(outbox.sendDue()).resolves.toBe(1);
    expect(answers.send.mock.calls.map(([sent]) => sent.payload.scope)).toEqual(
      ['run-2', 'run-1'],
    );
  });

  it('gives up after its last retry, and says so', async () => {
    const backend = notificationsBackend(Infinity);
    const outbox = outboxWith(backend);

    await enqueue(outbox, 'runFailed', 'run-1');
    await outbox.idle();
    for (const delay of RETRY_DELAYS_MS) {
      later(delay);
      await expect(outbox.sendDue()).resolves.toBe(0);
    }

    const attempts = RETRY_DELAYS_MS.length + 1;
    expect(backend.send).toHaveBeenCalledTimes(attempts);
    expect(logger.error).toHaveBeenCalledWith(
      `Gave up on the Infrastructure: approvals notification run-1 after ${attempts} attempts: Failed to send notifications: Request failed with status 503`,
    );
    later(24 * 60 * 60_000);
    await outbox.sendDue();
    expect(backend.send).toHaveBeenCalledTimes(attempts);
  });

  it('sends each notification once however many instances send at the same time', async () => {
    const backend = notificationsBackend();
    const scopes = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const scope of scopes) {
      await stores.notificationOutbox.add({
        kind: 'runFailed',
        recipients: ['resource:default/stack-net'],
        payload: payload(scope),
        at: clock,
      });
    }

    const sent = await Promise.all([
      outboxWith(backend).sendDue(),
      outboxWith(backend).sendDue(),
      outboxWith(backend).sendDue(),
    ]);

    expect(sent.reduce((sum, each) => sum + each, 0)).toBe(scopes.length);
    expect(
      backend.send.mock.calls.map(([options]) => options.payload.scope).sort(),
    ).toEqual(scopes);
  });

  it('sends a notification that a stopped instance had taken, once its claim has run out', async () => {
    await stores.notificationOutbox.add({
      kind: 'runFailed',
      recipients: ['resource:default/stack-net'],
      payload: payload('run-1'),
      at: clock,
    });
    // Taken by an instance that stopped before sending.
    const claimed = await stores.notificationOutbox.claimDue(
      clock,
      new Date(clock.getTime() + 2 * 60_000),
      20,
    );
    expect(claimed).toHaveLength(1);
    const backend = notificationsBackend();
    const outbox = outboxWith(backend);

    await expect(outbox.sendDue()).resolves.toBe(0);
    later(2 * 60_000);
    await expect(outbox.sendDue()).resolves.toBe(1);
    expect(backend.send).toHaveBeenCalledTimes(1);
  });

  it('looks up more recipients when it sends, and waits for a catalog that does not answer yet', async () => {
    const backend = notificationsBackend();
    const outbox = outboxWith(backend);
    catalogAnswers = false;

    await outbox.enqueue(
      'deploymentFailed',
      ['resource:default/stack-net'],
      { ...payload('deployment-1'), link: '/run-page' },
      { recipientLookup: { ecsService: 'prod/web' } },
    );
    await outbox.idle();
    expect(backend.send).not.toHaveBeenCalled();

    catalogAnswers = true;
    later(RETRY_DELAYS_MS[0]);
    await expect(outbox.sendDue()).resolves.toBe(1);
    expect(backend.send).toHaveBeenCalledWith({
      recipients: {
        type: 'entity',
        entityRef: ['component:default/checkout', 'resource:default/stack-net'],
      },
      payload: {
        ...payload('deployment-1'),
        link: '/catalog/default/component/checkout/infra-deployments',
      },
    });
  });

  it('drops a notification whose lookup found nobody, without sending it', async () => {
    const backend = notificationsBackend();
    const outbox = outboxWith(backend);

    await outbox.enqueue('deploymentFailed', [], payload('deployment-2'), {
      recipientLookup: { ecsService: 'prod/unknown' },
    });
    await outbox.idle();

    expect(lookUpRecipients).toHaveBeenCalledTimes(1);
    expect(backend.send).not.toHaveBeenCalled();
    later(24 * 60 * 60_000);
    await outbox.sendDue();
    expect(lookUpRecipients).toHaveBeenCalledTimes(1);
  });

  it('drops what a portal without the notifications backend cannot take, and says so once', async () => {
    const send = jest.fn(async (_options: NotificationSendOptions) => {
      throw new Error(
        'Failed to send notifications: Error: Request failed with status 404',
      );
    });
    const outbox = outboxWith({ send });

    await enqueue(outbox, 'runFailed', 'run-1');
    await enqueue(outbox, 'runFailed', 'run-2');
    await outbox.idle();
    later(24 * 60 * 60_000);
    await outbox.sendDue();

    expect(send).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining(
        'Infrastructure notifications are not sent: the notifications backend answered 404',
      ),
    );
  });
});
