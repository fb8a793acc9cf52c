import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  BackendProcess,
  dropProcessDatabase,
  sqliteProcessDatabase,
} from '../__testUtils__/backendProcess';
import { reportFigures } from '../__testUtils__/figures';
import { ProcessApi, seedOrganization } from '../__testUtils__/processApi';

jest.setTimeout(180_000);

const BOMBS = 20;

/**
 * Compressed "bombs" against a real backend process: a 32 KB gzip body that inflates to 32 MB,
 * sent without a credential to the runner routes and, by a runner, as a step's report. The
 * process must refuse each (401 before reading it; 413 once the ratio cap is passed) and keep
 * answering `GET /health` meanwhile. The health latencies are printed, not asserted.
 */
describe('compressed bombs against a backend process', () => {
  const database = sqliteProcessDatabase();
  const logFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), 'infra-delivery-bombs-')),
    'backend.log',
  );
  let backend: BackendProcess;

  beforeAll(async () => {
    backend = await BackendProcess.start({ database, logFile });
  });

  afterAll(async () => {
    await backend?.kill9();
    await dropProcessDatabase(database);
  });

  const bomb = zlib.gzipSync(Buffer.alloc(32 * 1024 * 1024, ' '));

  async function sendBomb(route: string, token?: string) {
    const response = await fetch(`${backend.baseUrl}${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: bomb,
    });
    return [response.status, (await response.json()).code] as const;
  }

  it('refuses every bomb and keeps answering health checks', async () => {
    const api = new ProcessApi(() => backend.baseUrl);
    const { runnerKey } = await seedOrganization(api, { stacks: 0 });
    const report =
      '/runner/step-executions/0193a8c0-0000-7000-8000-000000000000/complete';

    const healthLatencies: number[] = [];
    let bombing = true;
    const healthChecks = (async () => {
      while (bombing) {
        const started = performance.now();
        const health = await api.call('GET', '/health');
        expect(health.status).toBe(200);
        healthLatencies.push(performance.now() - started);
        await new Promise(resolve => setTimeout(resolve, 20));
      }
    })();

    const answers = await Promise.all([
      ...Array.from({ length: BOMBS }, () => sendBomb('/runner/claims')),
      ...Array.from({ length: BOMBS }, () => sendBomb(report, runnerKey)),
    ]);
    bombing = false;
    await healthChecks;

    expect(answers.slice(0, BOMBS)).toEqual(
      Array(BOMBS).fill([401, 'InfraDelivery:Auth:MISSING_CREDENTIAL']),
    );
    expect(answers.slice(BOMBS)).toEqual(
      Array(BOMBS).fill([413, 'InfraDelivery:Request:INFLATES_TOO_FAR']),
    );
    expect(healthLatencies.length).toBeGreaterThan(0);
    healthLatencies.sort((a, b) => a - b);
    reportFigures('compressed bombs', {
      bombs: BOMBS * 2,
      healthChecks: healthLatencies.length,
      healthMaxMs: Math.round(healthLatencies[healthLatencies.length - 1]),
      healthMedianMs: Math.round(
        healthLatencies[Math.floor(healthLatencies.length / 2)],
      ),
    });
  });
});
