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

    /**
     * Requests that wait 100 ms for an answer and hold a key's lease for `leaseMs`, renewed
     * every `leaseRenewalMs` (by default never within a test).
     */
    function quickRequests(leaseMs: number, leaseRenewalMs = 3_600_000) {
      return new IdempotentRequests(stores.idempotencyKeys, cipher, {
        retentionMs: 60_000,
        waitMs: 100,
        pollMs: 10,
        leaseMs,
        leaseRenewalMs,
        abandonedAfterMs: 5 * 60_000,
      });
    }

    /** A key whose first request was cut off: claimed, its lease lapsed, its answer never recorded. */
    async function cutOffKey(
      s: IdempotencyScope,
      options: { applied: boolean },
    ) {
      const now = Date.now();
      const id = await stores.idempotencyKeys.claim(
        s,
        'h',
        new Date(now - 15_000),
        new Date(now + 60_000),
        new Date(now - 5_000),
      );
      if (options.applied) {
        await knex('idempotency_keys')
          .where({ id })
          .update({ applied_at: new Date(now - 14_000).toISOString() });
      }
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
      let workStarted: () => void = () => {};
      // The first request's work begins once its key is claimed: the retry comes after.
      const claimed = new Promise<void>(resolve => {
        workStarted = resolve;
      });
      const first = requests.answer(
        s,
        'h',
        () =>
          new Promise(resolve => {
            finish = resolve;
            workStarted();
          }),
      );
      await claimed;
      await expect(
        requests.answer(s, 'h', async () => ({ status: 201, body: {} })),
      ).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:IdempotencyKey:IN_PROGRESS',
        description: expect.stringMatching(
          /still under way.*never carried out twice/,
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

    it('answers a retry at once once the lease of a cut-off first request lapsed', async () => {
      // Default timings: before leases, such a retry waited 30 s and heard IN_PROGRESS for
      // the first 5 minutes, since nothing told a lost request from a slow one.
      const requests = new IdempotentRequests(stores.idempotencyKeys, cipher);

      const unapplied = scope();
      await cutOffKey(unapplied, { applied: false });
      let started = Date.now();
      await expect(
        requests.answer(unapplied, 'h', async () => ({
          status: 201,
          body: { n: 1 },
        })),
      ).resolves.toEqual({ status: 201, body: { n: 1 }, replayed: false });
      expect(Date.now() - started).toBeLessThan(5_000);

      const applied = scope();
      await cutOffKey(applied, { applied: true });
      started = Date.now();
      let carriedOut = 0;
      await expect(
        requests.answer(applied, 'h', async () => {
          carriedOut += 1;
          return { status: 201, body: {} };
        }),
      ).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:IdempotencyKey:ANSWER_LOST',
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(carriedOut).toBe(0);
      // The same key with another request is still a misuse of the key.
      await expect(
        requests.answer(applied, 'other', async () => ({
          status: 201,
          body: {},
        })),
      ).rejects.toMatchObject({ status: 422 });
    });

    it('keeps the key for a slow first request that renews its lease', async () => {
      const requests = new IdempotentRequests(stores.idempotencyKeys, cipher, {
        retentionMs: 60_000,
        waitMs: 5_000,
        pollMs: 10,
        leaseMs: 500,
        leaseRenewalMs: 50,
        abandonedAfterMs: 5 * 60_000,
      });
      const s = scope();
      let carriedOut = 0;
      let workStarted: () => void = () => {};
      // The first request's work begins once its key is claimed: the retry comes after (a
      // fixed 20 ms was not always enough on a loaded CI machine).
      const claimed = new Promise<void>(resolve => {
        workStarted = resolve;
      });
      const work = async () => {
        carriedOut += 1;
        workStarted();
        await new Promise(resolve => setTimeout(resolve, 1_500));
        return { status: 201, body: { n: carriedOut } };
      };
      const first = requests.answer(s, 'h', work);
      await claimed;
      const retry = await requests.answer(s, 'h', work);
      expect(retry).toEqual({ status: 201, body: { n: 1 }, replayed: true });
      await expect(first).resolves.toMatchObject({ replayed: false });
      expect(carriedOut).toBe(1);
    });

    it('does the work of a stalled first request once: the retry that took its key over', async () => {
      // A lease of 50 ms that is never renewed: the first request stalls past it.
      const requests = quickRequests(50);
      const s = scope();
      let resume: () => void = () => {};
      const stalled = new Promise<void>(resolve => {
        resume = resolve;
      });
      const names: string[] = [];
      const workNamed = (name: string, before?: Promise<void>) => async () => {
        await before;
        await stores.transaction(async tx => {
          names.push(name);
          await tx.organizations.create({ name });
        });
        return { status: 201, body: { name } };
      };
      const first = requests.answer(s, 'h', workNamed('first', stalled));
      await new Promise(resolve => setTimeout(resolve, 80));
      await expect(
        requests.answer(s, 'h', workNamed('retry')),
      ).resolves.toEqual({
        status: 201,
        body: { name: 'retry' },
        replayed: false,
      });
      resume();
      await expect(first).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:IdempotencyKey:TAKEN_OVER',
      });
      // The first request's transaction refused to run: only the retry's work is there.
      expect(names).toEqual(['retry']);
      expect(await knex('organizations').where({ name: 'first' })).toHaveLength(
        0,
      );
      // And the key now replays the retry's answer.
      await expect(
        requests.answer(s, 'h', workNamed('again')),
      ).resolves.toEqual({
        status: 201,
        body: { name: 'retry' },
        replayed: true,
      });
    });

    it('leaves alone what the work left running in the background once its answer is recorded', async () => {
      const requests = new IdempotentRequests(stores.idempotencyKeys, cipher);
      let background: Promise<unknown> = Promise.resolve();
      await requests.answer(scope(), 'h', async () => {
        // A rollout followed after the answer, in the request's async context.
        background = new Promise(resolve => setTimeout(resolve, 30)).then(() =>
          stores.transaction(tx => tx.organizations.create({ name: 'Later' })),
        );
        return { status: 201, body: {} };
      });
      await expect(background).resolves.toMatchObject({ name: 'Later' });
    });

    it('takes over a key written before leases once it is 5 minutes old', async () => {
      const s = scope();
      const now = Date.now();
      const id = await stores.idempotencyKeys.claim(
        s,
        'h',
        new Date(now - 10 * 60_000),
        new Date(now + 60_000),
        new Date(now + 60_000),
      );
      await knex('idempotency_keys')
        .where({ id })
        .update({ lease_expires_at: null });
      const requests = new IdempotentRequests(stores.idempotencyKeys, cipher);
      await expect(
        requests.answer(s, 'h', async () => ({ status: 201, body: { n: 1 } })),
      ).resolves.toEqual({ status: 201, body: { n: 1 }, replayed: false });

      // A younger one may still be worked on by an instance that predates leases.
      const young = scope();
      const youngId = await stores.idempotencyKeys.claim(
        young,
        'h',
        new Date(now - 60_000),
        new Date(now + 60_000),
        new Date(now + 60_000),
      );
      await knex('idempotency_keys')
        .where({ id: youngId })
        .update({ lease_expires_at: null });
      await expect(
        quickRequests(50).answer(young, 'h', async () => ({
          status: 201,
          body: {},
        })),
      ).rejects.toMatchObject({
        code: 'InfraDelivery:IdempotencyKey:IN_PROGRESS',
      });
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
