import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { BENCH_ROOT } from './databases';

/**
 * A bare node:http server answering stored bytes: the floor below any framework. It runs in
 * a process of its own, as the backend does, so that it does not share a thread with the
 * load generator.
 */
const SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const dir = process.argv[1];
const port = Number(process.argv[2]);
const responses = new Map(fs.readdirSync(dir).map(f => [f, fs.readFileSync(dir + '/' + f)]));
http.createServer((req, res) => {
  const body = responses.get((req.url || '').slice(1));
  if (!body) { res.statusCode = 404; res.end(); return; }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}).listen(port, '127.0.0.1', () => process.stdout.write('ready\\n'));
`;

export async function startBareFloor(
  responses: Map<string, Buffer>,
  port: number,
) {
  const dir = `${BENCH_ROOT}/bare-floor-responses`;
  mkdirSync(dir, { recursive: true });
  for (const [key, body] of responses) {
    writeFileSync(`${dir}/${key}`, body);
  }
  const child = spawn(process.execPath, ['-e', SERVER, dir, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', code => reject(new Error(`bare floor exited ${code}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      const done = new Promise(r => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    },
  };
}
