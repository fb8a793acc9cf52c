import http from 'node:http';
import { AddressInfo } from 'node:net';

/** The lock as Terraform's http backend sends it with LOCK (and reads it back from a 423). */
export interface HttpLockInfo {
  ID: string;
  Operation?: string;
  Who?: string;
  Version?: string;
  Created?: string;
  Path?: string;
  Info?: string;
}

export interface HttpStateServer {
  /** The state's address, for the backend's `address`, `lock_address` and `unlock_address`. */
  address: string;
  /** Each request's method, as it came (GET, POST, LOCK, UNLOCK). */
  requests: string[];
  /** The lock held now. */
  lock?: HttpLockInfo;
  close(): Promise<void>;
}

/**
 * A state server for Terraform's `http` backend, as small as the protocol: GET answers the state
 * (404 before the first), POST stores it, LOCK takes the lock (200) or answers 423 with the
 * holder's Lock Info, UNLOCK releases it. Every request must carry `username`/`password` (401
 * otherwise). `unavailable` makes it answer 503 to everything, or to LOCK only.
 */
export async function startHttpStateServer(options: {
  username: string;
  password: string;
  lockedBy?: HttpLockInfo;
  unavailable?: 'everything' | 'lock';
}): Promise<HttpStateServer> {
  let state: string | undefined;
  const expected = `Basic ${Buffer.from(
    `${options.username}:${options.password}`,
  ).toString('base64')}`;
  const server: Partial<HttpStateServer> & { requests: string[] } = {
    requests: [],
    lock: options.lockedBy,
  };
  const httpServer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', chunk => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? '';
      const body = Buffer.concat(chunks).toString('utf8');
      server.requests.push(method);
      const answer = (status: number, text = '') => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(text);
      };
      if (
        options.unavailable === 'everything' ||
        (options.unavailable === 'lock' && method === 'LOCK')
      ) {
        answer(503, 'down for maintenance');
      } else if (request.headers.authorization !== expected) {
        answer(401);
      } else if (method === 'GET') {
        answer(state ? 200 : 404, state);
      } else if (method === 'POST') {
        state = body;
        answer(200);
      } else if (method === 'LOCK' && server.lock) {
        answer(423, JSON.stringify(server.lock));
      } else if (method === 'LOCK') {
        server.lock = JSON.parse(body) as HttpLockInfo;
        answer(200);
      } else if (method === 'UNLOCK') {
        server.lock = undefined;
        answer(200);
      } else {
        answer(405);
      }
    });
  });
  await new Promise<void>(resolve =>
    httpServer.listen(0, '127.0.0.1', resolve),
  );
  const { port } = httpServer.address() as AddressInfo;
  return Object.assign(server, {
    address: `http://127.0.0.1:${port}/state/network`,
    close: () =>
      new Promise<void>(resolve => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  }) as HttpStateServer;
}
