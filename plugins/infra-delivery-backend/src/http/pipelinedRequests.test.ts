import http from 'node:http';
import net from 'node:net';
import { AddressInfo } from 'node:net';
import {
  createTestDatabases,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';
import { MAX_UNANSWERED_REQUESTS_PER_CONNECTION } from './pipelinedRequests';

jest.setTimeout(60_000);

const databases = createTestDatabases();

/**
 * Sends `count` requests for the OpenAPI document (286 KB, public) in one write, reading
 * nothing for `holdMs`; then reads until the server closes or goes quiet. The number of
 * answers that arrived.
 */
async function pipelined(
  port: number,
  count: number,
  holdMs: number,
): Promise<number> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.pause();
  await new Promise(resolve => socket.once('connect', resolve));
  socket.write(
    'GET /api/infra-delivery/openapi.json HTTP/1.1\r\nHost: test\r\n\r\n'.repeat(
      count,
    ),
  );
  await new Promise(resolve => setTimeout(resolve, holdMs));
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', chunk => {
    text += chunk;
  });
  socket.resume();
  await new Promise<void>(resolve => {
    let quiet: NodeJS.Timeout = setTimeout(resolve, 3_000);
    socket.on('data', () => {
      clearTimeout(quiet);
      quiet = setTimeout(resolve, 1_000);
    });
    socket.once('close', () => {
      clearTimeout(quiet);
      resolve();
    });
  });
  socket.destroy();
  return text.split('HTTP/1.1 200 OK').length - 1;
}

/** One GET of the OpenAPI document through `agent`, read to its end. */
function readAnswer(
  port: number,
  agent: http.Agent,
): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        `http://127.0.0.1:${port}/api/infra-delivery/openapi.json`,
        { agent },
        res => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, socket: res.socket }),
          );
        },
      )
      .on('error', reject);
  });
}

describe('requests a connection sends without reading the answers', () => {
  let port: number;

  beforeAll(async () => {
    const api = await startInfraDeliveryBackend(
      await databases.init('SQLITE_3'),
    );
    port = (api.server.address() as AddressInfo).port;
  });

  it('closes a connection that pipelines more than the limit without reading, before building the rest', async () => {
    // Before: all 200 answers arrived, each built and buffered while the client read nothing.
    const answers = await pipelined(port, 200, 1_000);
    expect(answers).toBeLessThanOrEqual(MAX_UNANSWERED_REQUESTS_PER_CONNECTION);
  });

  it('answers a client that pipelines a few requests', async () => {
    expect(await pipelined(port, 5, 200)).toBe(5);
  });

  it('keeps serving a connection that reads each answer, however many it sends', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answers: Array<{ status: number; socket: net.Socket }> = [];
    for (let i = 0; i < 3 * MAX_UNANSWERED_REQUESTS_PER_CONNECTION; i++) {
      answers.push(await readAnswer(port, agent));
    }
    agent.destroy();
    expect(answers.every(answer => answer.status === 200)).toBe(true);
    expect(new Set(answers.map(answer => answer.socket)).size).toBe(1);
  });
});
