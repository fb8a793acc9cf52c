import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BackendProcess,
  dropProcessDatabase,
  sqliteProcessDatabase,
} from '../__testUtils__/backendProcess';
import { FakeGitHubEnterprise } from '../__testUtils__/fakeGitHubEnterprise';
import { reportFigures } from '../__testUtils__/figures';
import { ProcessApi, seedOrganization } from '../__testUtils__/processApi';

jest.setTimeout(240_000);

const STREAMS = 1000;
const AT_ONCE = 100;
/** Descriptors the process may legitimately hold on to (pooled connections, log files). */
const TOLERANCE = 8;

/**
 * The repository stream of a self-hosted GitHub Enterprise server, opened and dropped by the
 * client a thousand times while the upstream server holds every answer: the backend must close
 * its side of each stream and abort each upstream request, so that its open descriptors and
 * sockets come back to where they were.
 */
describe('1,000 event streams opened and dropped', () => {
  const database = sqliteProcessDatabase();
  const logFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'infra-delivery-streams-')),
    'backend.log',
  );
  const fake = new FakeGitHubEnterprise();
  let backend: BackendProcess;

  beforeAll(async () => {
    await fake.start();
    backend = await BackendProcess.start({ database, logFile });
  });

  afterAll(async () => {
    await backend?.kill9();
    await fake.stop();
    await dropProcessDatabase(database);
  });

  async function upstreamRequestsReach(count: number, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (fake.graphQlRequests.length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `${fake.graphQlRequests.length} upstream requests after ${timeoutMs} ms, expected ${count}`,
        );
      }
      await new Promise(resolve => setTimeout(resolve, 10));
    }
  }

  /** The counts once both are at most `limit` (closed sockets leave within seconds). */
  async function countsOnceBelow(
    limit: { fds: number; sockets: number },
    timeoutMs = 30_000,
  ) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = {
        fds: backend.openFileDescriptors(),
        sockets: backend.openSockets(),
      };
      if (
        (now.fds <= limit.fds && now.sockets <= limit.sockets) ||
        Date.now() > deadline
      ) {
        return now;
      }
      await new Promise(resolve => setTimeout(resolve, 250));
    }
  }

  it('returns the open descriptors and sockets to the baseline and aborts every upstream request', async () => {
    const api = new ProcessApi(() => backend.baseUrl);
    const org = await seedOrganization(api, { stacks: 0 });
    const server = (
      await api.expect(201, 'POST', '/gitforge/self-hosted', {
        token: org.token,
        body: {
          data: {
            name: 'GitHub Enterprise',
            baseUrl: `${fake.baseUrl}/`,
            clientId: fake.clientId,
            clientSecret: fake.clientSecret,
          },
        },
      })
    ).data;
    const login = await fetch(
      `${backend.baseUrl}/gitforge/self-hosted/${server.id}/login`,
      {
        headers: { authorization: `Bearer ${org.token}` },
        redirect: 'manual',
      },
    );
    expect(login.status).toBe(302);
    const state = new URL(login.headers.get('location')!).searchParams.get(
      'state',
    )!;
    const { code } = fake.issueCode();
    await api.expect(
      200,
      'GET',
      `/gitforge/self-hosted/oauth/callback?${new URLSearchParams({
        code,
        state,
      })}`,
      { token: org.token },
    );
    fake.addRepositories('acme', 45);
    fake.graphQlBehaviour = () => ({ kind: 'hold' });
    const streamUrl = `${
      backend.baseUrl
    }/gitforge/self-hosted/namespaces/acme/repositories/stream?${new URLSearchParams(
      { serverId: server.id, namespaceType: 'ORGANIZATION' },
    )}`;

    async function openStream(): Promise<AbortController> {
      const abort = new AbortController();
      const response = await fetch(streamUrl, {
        headers: {
          authorization: `Bearer ${org.token}`,
          accept: 'text/event-stream',
        },
        signal: abort.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(
        'text/event-stream',
      );
      return abort;
    }

    // A few streams first, so that whatever is created once (pools, caches) exists already.
    for (const abort of await Promise.all([openStream(), openStream()])) {
      abort.abort();
    }
    await new Promise(resolve => setTimeout(resolve, 5000));
    const baseline = {
      fds: backend.openFileDescriptors(),
      sockets: backend.openSockets(),
    };

    let peak = baseline;
    const started = Date.now();
    for (let opened = 0; opened < STREAMS; opened += AT_ONCE) {
      const upstreamBefore = fake.graphQlRequests.length;
      const streams = await Promise.all(
        Array.from({ length: AT_ONCE }, () => openStream()),
      );
      // Dropped only once each stream holds its upstream request: a client gone sooner is
      // never sent upstream, and a slow machine would otherwise open fewer than it counts.
      await upstreamRequestsReach(upstreamBefore + AT_ONCE);
      peak = {
        fds: Math.max(peak.fds, backend.openFileDescriptors()),
        sockets: Math.max(peak.sockets, backend.openSockets()),
      };
      for (const abort of streams) {
        abort.abort();
      }
    }
    const dropped = Date.now();
    const after = await countsOnceBelow({
      fds: baseline.fds + TOLERANCE,
      sockets: baseline.sockets + TOLERANCE,
    });
    reportFigures('event-streams', {
      streams: STREAMS,
      atOnce: AT_ONCE,
      openAndDropMs: dropped - started,
      backToBaselineMs: Date.now() - dropped,
      baseline,
      peak,
      after,
    });

    // The streams were really open at once (each holds its client and upstream sockets).
    expect(peak.sockets).toBeGreaterThan(baseline.sockets + AT_ONCE);
    expect(after.fds).toBeLessThanOrEqual(baseline.fds + TOLERANCE);
    expect(after.sockets).toBeLessThanOrEqual(baseline.sockets + TOLERANCE);
    const upstream = fake.graphQlRequests.slice(-STREAMS);
    expect(upstream).toHaveLength(STREAMS);
    expect(upstream.filter(r => !r.aborted)).toEqual([]);

    // The credentials of the flow, the OAuth ones included, never reached the log.
    const logs = backend.logs();
    for (const secret of [
      org.password,
      org.token,
      org.runnerKey,
      fake.clientSecret,
      ...fake.graphQlRequests
        .map(r => r.authorization?.replace(/^bearer /i, ''))
        .filter((t): t is string => Boolean(t)),
      code,
    ]) {
      expect(logs.includes(secret)).toBe(false);
    }
  });
});
