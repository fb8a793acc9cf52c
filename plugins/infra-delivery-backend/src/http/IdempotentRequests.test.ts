import { randomBytes } from 'node:crypto';
import { mockServices } from '@backstage/backend-test-utils';
import { Knex } from 'knex';
import { createTestDatabases } from '../__testUtils__/testDatabases';
import { SecretCipher } from '../auth/SecretCipher';
import { IdempotencyScope } from '../database/IdempotencyKeyStore';
import { applyDatabaseMigrations } from '../database/migrations';
import { createStores, Stores } from '../database/stores';
import { InfraDeliveryError } from '../errors';
import {
  DEFAULT_IDEMPOTENCY_TIMINGS,
  idempotencyKeyOf,
  IdempotentRequests,
  requestHashOf,
} from './IdempotentRequests';

jest.setTimeout(60_000);

const databases = createTestDatabases();

describe('requestHashOf', () => {
  it('hashes equal requests alike whatever the order of their keys', () => {
    expect(
      requestHashOf({ params: { id: 'a' }, query: {}, body: { x: 1, y: [2] } }),
    ).toBe(
      requestHashOf({ body: { y: [2], x: 1 }, query: {}, params: { id: 'a' } }),
    );
  });

  it('tells different bodies, params and queries apart', () => {
    const base = { params: { id: 'a' }, query: {}, body: { x: 1 } };
    const hash = requestHashOf(base);
    expect(requestHashOf({ ...base, body: { x: 2 } })).not.toBe(hash);
    expect(requestHashOf({ ...base, params: { id: 'b' } })).not.toBe(hash);
    expect(requestHashOf({ ...base, query: { q: '1' } })).not.toBe(hash);
    expect(requestHashOf({ ...base, body: [{ x: 1 }] })).not.toBe(hash);
  });
});

describe('idempotencyKeyOf', () => {
  it('accepts visible ASCII up to 255 characters and refuses the rest with a 400', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
    expect(idempotencyKeyOf('a'.repeat(255))).toBe('a'.repeat(255));
    for (const bad of ['', 'a'.repeat(256), 'with space', 'ü']) {
      expect(() => idempotencyKeyOf(bad)).toThrow(
        expect.objectContaining({
          status: 400,
          code: 'InfraDelivery:IdempotencyKey:INVALID',
        }),
      );
    }
  });
});

describe.each(databases.eachSupportedId())(
  'IdempotentRequests on %s',
  databaseId => {
    let knex: Knex;
    let stores: Stores;
    let cipher: SecretCipher;
    let organizationId: string;
    let keyCounter = 0;

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      await applyDatabaseMigrations(
        mockServices.database({ knex, migrations: { skip: false } }),
        knex,
      );
      stores = createStores(knex);
      cipher = new SecretCipher(randomBytes(32));
      organizationId = (await stores.organizations.create({ name: 'Org' })).id;
    });

    /** Requests that wait 100 ms for an answer and take over keys after `abandonedAfterMs`. */
    function quickRequests(abandonedAfterMs: number) {
      return new IdempotentRequests(stores.idempotencyKeys, cipher, {
        retentionMs: 60_000,
        waitMs: 100,
        pollMs: 10,
        abandonedAfterMs,
      });
    }

    function scope(): IdempotencyScope {
      keyCounter += 1;
      return {
        organizationId,
        callerId: 'member-1',
        operationId: 'createThing',
        key: `key-${keyCounter}`,
      };
    }

    it('keeps the answer sealed at rest', async () => {
      const requests = new IdempotentRequests(stores.idempotencyKeys, cipher);
      const s = scope();
      const secret = 'idk_secret_value_that_must_not_be_readable';
      await requests.answer(s, 'h', async () => ({
        status: 201,
        body: { data: { key: secret } },
      }));
      const rows = await knex('idempotency_keys').where({
        idempotency_key: s.key,
      });
      expect(rows).toHaveLength(1);
      expect(rows[0].state).toBe('COMPLETED');
      expect(JSON.stringify(rows[0])).not.toContain(secret);
      const replay = await requests.answer(s, 'h', async () => {
        throw new Error('must not run again');
      });
      expect(replay).toEqual({
        status: 201,
        body: { data: { key: secret } },
        replayed: true,
      });
    });

    it('runs the work again once the answer expired, and cleans expired keys', async () => {
      const requests = new IdempotentRequests(stores.idempotencyKeys, cipher, {
        ...DEFAULT_IDEMPOTENCY_TIMINGS,
        retentionMs: 1,
      });
      const s = scope();
      let runs = 0;
      const work = async () => {
        runs += 1;
        return { status: 201, body: { runs } };
      };
      await requests.answer(s, 'h', work);
      await new Promise(resolve => setTimeout(resolve, 5));
      const second = await requests.answer(s, 'h', work);
      expect(second).toEqual({
        status: 201,
        body: { runs: 2 },
        replayed: false,
      });

      const lasting = new IdempotentRequests(stores.idempotencyKeys, cipher);
      const kept = scope();
      await lasting.answer(kept, 'h', work);
      await new Promise(resolve => setTimeout(resolve, 5));
      expect(await lasting.deleteExpired()).toBeGreaterThanOrEqual(1);
      expect(await stores.idempotencyKeys.find(s)).toBeUndefined();
      expect(await stores.idempotencyKeys.find(kept)).toMatchObject({
        state: 'COMPLETED',
      });
    });

    it('answers 409 IN_PROGRESS when the first request does not finish in time, and releases a failed key', async () => {
      const requests = quickRequests(60_000);
      const s = scope();
      let finish: (value: { status: number; body: unknown }) => void = () => {};
      const first = requests.answer(
        s,
        'h',
        () =>
          new Promise(resolve => {
            finish = resolve;
          }),
      );
      await new Promise(resolve => setTimeout(resolve, 20));
      await expect(
        requests.answer(s, 'h', async () => ({ status: 201, body: {} })),
      ).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:IdempotencyKey:IN_PROGRESS',
        // Says that an outage may have cut the first off, and when the key is free again.
        description: expect.stringMatching(
          /cut it off.*From 1 minute after it was sent.*never twice/,
        ),
      });
      finish({ status: 201, body: { first: true } });
      await expect(first).resolves.toMatchObject({ body: { first: true } });

      const failing = scope();
      await expect(
        requests.answer(failing, 'h', async () => {
          throw new InfraDeliveryError({
            status: 404,
            entity: 'Thing',
            reason: 'NOT_FOUND',
            message: 'no',
          });
        }),
      ).rejects.toMatchObject({ status: 404 });
      expect(await stores.idempotencyKeys.find(failing)).toBeUndefined();
    });

    it('takes over a key whose first request was abandoned mid-work', async () => {
      const s = scope();
      const now = new Date();
      await stores.idempotencyKeys.claim(
        s,
        'h',
        new Date(now.getTime() - 10 * 60_000),
        new Date(now.getTime() + 60_000),
      );
      const requests = new IdempotentRequests(stores.idempotencyKeys, cipher);
      await expect(
        requests.answer(s, 'h', async () => ({ status: 201, body: { n: 1 } })),
      ).resolves.toEqual({ status: 201, body: { n: 1 }, replayed: false });
    });

    it('never carries out twice a request whose work committed before its answer was lost', async () => {
      const requests = quickRequests(50);
      const s = scope();
      let carriedOut = 0;
      // The work commits, then the database goes away before its answer is recorded.
      await expect(
        requests.answer(s, 'h', async () => {
          await stores.transaction(async tx => {
            carriedOut += 1;
            await tx.organizations.create({ name: 'Made once' });
          });
          throw new Error('Connection terminated unexpectedly');
        }),
      ).rejects.toThrow('Connection terminated');
      await new Promise(resolve => setTimeout(resolve, 60));
      await expect(
        requests.answer(s, 'h', async () => {
          carriedOut += 1;
          return { status: 201, body: {} };
        }),
      ).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:IdempotencyKey:ANSWER_LOST',
      });
      expect(carriedOut).toBe(1);

      // A work whose transaction rolled back made nothing: its key is free at once.
      const rolledBack = scope();
      await expect(
        requests.answer(rolledBack, 'h', async () => {
          await stores.transaction(async tx => {
            await tx.organizations.create({ name: 'Rolled back' });
            throw new Error('rolled back');
          });
          return { status: 201, body: {} };
        }),
      ).rejects.toThrow('rolled back');
      await expect(
        requests.answer(rolledBack, 'h', async () => ({
          status: 201,
          body: { again: true },
        })),
      ).resolves.toEqual({
        status: 201,
        body: { again: true },
        replayed: false,
      });
    });

    it('scopes keys by organization, caller and operation', async () => {
      const requests = new IdempotentRequests(stores.idempotencyKeys, cipher);
      const s = scope();
      let runs = 0;
      const work = async () => {
        runs += 1;
        return { status: 201, body: { runs } };
      };
      await requests.answer(s, 'h', work);
      await requests.answer({ ...s, callerId: 'member-2' }, 'h', work);
      await requests.answer({ ...s, operationId: 'createOther' }, 'h', work);
      expect(runs).toBe(3);
      await expect(
        requests.answer(s, 'other-hash', work),
      ).rejects.toMatchObject({
        status: 422,
        code: 'InfraDelivery:IdempotencyKey:REUSED_WITH_DIFFERENT_REQUEST',
      });
    });
  },
);
