import { AddressInfo } from 'node:net';
import request from 'supertest';
import {
  BASE,
  createTestDatabases,
  InfraDeliveryTestClient,
  startInfraDeliveryBackend,
  TEST_PASSWORD,
  uniqueEmail,
} from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/**
 * The three unauthenticated ways in are limited per client address: sign-ups, token requests
 * and API keys that fail verification. The counters live in the cache, not the database, so
 * one database is enough.
 */
describe('rate limits per client address', () => {
  let api: InfraDeliveryTestClient;

  beforeAll(async () => {
    api = await startInfraDeliveryBackend(await databases.init('SQLITE_3'), {
      config: {
        infraDelivery: {
          rateLimits: {
            signup: { limit: 3, windowSeconds: 600 },
            tokenPerAddress: { limit: 6, windowSeconds: 600 },
            tokenPerEmail: { limit: 100, windowSeconds: 600 },
            apiKeyFailuresPerAddress: { limit: 4, windowSeconds: 600 },
          },
        },
      },
    });
  });

  function expectRateLimited(response: {
    status: number;
    body: any;
    headers: Record<string, string>;
  }) {
    expect(response.status).toBe(429);
    expect(response.body).toEqual({
      code: 'InfraDelivery:Request:RATE_LIMITED',
      message: expect.any(String),
      metadata: { retryAfterSeconds: expect.any(Number) },
      requestId: expect.any(String),
    });
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
  }

  it('refuses the fourth sign-up from one address within the window', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (
          await api.post('/auth/signup', {
            data: { email: uniqueEmail('limited'), password: TEST_PASSWORD },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([201, 201, 201]);
    const fourth = await api.post('/auth/signup', {
      data: { email: uniqueEmail('limited'), password: TEST_PASSWORD },
    });
    expectRateLimited(fourth);
  });

  it('refuses token requests from one address once its attempts are used, whatever the email', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await api.post('/auth/token', {
            data: { email: uniqueEmail('nobody'), password: 'wrong password!' },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    expectRateLimited(
      await api.post('/auth/token', {
        data: { email: uniqueEmail('nobody'), password: TEST_PASSWORD },
      }),
    );
  });

  it('counts only failed API-key verifications, then refuses failing keys and never a valid one', async () => {
    // A backend of its own: the token endpoint of the one above is used up.
    const owner = await startInfraDeliveryBackend(
      await databases.init('SQLITE_3'),
      {
        config: {
          infraDelivery: {
            rateLimits: {
              signup: { limit: 100 },
              tokenPerAddress: { limit: 100 },
              apiKeyFailuresPerAddress: { limit: 4, windowSeconds: 600 },
            },
          },
        },
      },
    );
    const organization = await owner.signup();
    const created = await owner.post(
      '/api-keys',
      { data: { name: 'ci' } },
      organization.token,
    );
    expect(created.status).toBe(201);
    const key: string = created.body.data.key;

    // Successful uses do not count.
    for (let i = 0; i < 10; i++) {
      expect((await owner.get('/projects', key)).status).toBe(200);
    }
    const mistyped = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const revokedKey = await owner.post(
      '/api-keys',
      { data: { name: 'old' } },
      organization.token,
    );
    expect(
      (await owner.delete(`/api-keys/${revokedKey.body.data.id}`, key)).status,
    ).toBe(204);
    const failures = [
      await owner.get('/projects', mistyped),
      await owner.get('/projects', revokedKey.body.data.key),
      await owner.get('/projects', mistyped),
      await owner.get('/projects', revokedKey.body.data.key),
    ];
    expect(failures.map(r => r.status)).toEqual([401, 401, 401, 401]);

    expectRateLimited(await owner.get('/projects', mistyped));
    // A valid key from the same address (a runner behind the same ingress) still works: a
    // stranger's failures must not lock it out. A key carries 190 random bits, so telling a
    // hit from a miss helps no guesser.
    expect((await owner.get('/projects', key)).status).toBe(200);
    expectRateLimited(await owner.get('/projects', mistyped));
    // Access tokens are not API keys and stay usable.
    expect((await owner.get('/projects', organization.token)).status).toBe(200);
  });
});

describe('wrong passwords', () => {
  it('slow down the address that sends them, growing, and never lock out the owner elsewhere', async () => {
    const api = await startInfraDeliveryBackend(
      await databases.init('SQLITE_3'),
      {
        config: {
          infraDelivery: { rateLimits: { tokenPerEmail: { limit: 3 } } },
        },
      },
    );
    const owner = await api.signup();
    // Two client addresses on one machine: IPv4 and IPv6 loopback.
    const { port } = api.server.address() as AddressInfo;
    const tokenFrom = (host: string, password: string) =>
      request(`http://${host}:${port}`)
        .post(`${BASE}/auth/token`)
        .send({ data: { email: owner.email, password } });
    const guesser = '127.0.0.1';
    const ownersLaptop = '[::1]';

    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await tokenFrom(guesser, 'wrong password!')).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(
      Number(
        (await tokenFrom(guesser, 'wrong password!')).headers['retry-after'],
      ),
    ).toBe(1);

    // The owner, at their own address, signs in at once.
    expect((await tokenFrom(ownersLaptop, TEST_PASSWORD)).status).toBe(200);

    // The guesser's next failure, after waiting, doubles the wait.
    await new Promise(resolve => setTimeout(resolve, 1_100));
    expect((await tokenFrom(guesser, 'wrong password!')).status).toBe(401);
    expect(
      Number(
        (await tokenFrom(guesser, 'wrong password!')).headers['retry-after'],
      ),
    ).toBe(2);
  });
});
