import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { BENCH_ROOT, BenchDatabase } from './databases';

/**
 * The Node flags the README's "Running the backend in production" section gives the backend
 * (docs/benchmarks.md, optimization 15): a young generation of 16 MB semi-spaces instead of
 * the 64 MB V8 grows to without pointer compression; an old generation limit under 2 GB, which
 * makes V8 collect it at ~1.8× its live size instead of 4×; and no allocation-site
 * pretenuring, under which the write path's short-lived Knex transaction objects were
 * allocated straight into the old generation. Node refuses the last in NODE_OPTIONS, so they
 * all go on the command line.
 */
export const PRODUCTION_NODE_FLAGS = [
  '--max-semi-space-size=16',
  '--max-old-space-size=1536',
  '--no-allocation-site-pretenuring',
];

/**
 * The backend's Node flags: the production ones, then BENCH_BACKEND_NODE_ARGS (e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the load; of two values of one V8 flag,
 * the last counts).
 */
export function backendNodeFlags(): string[] {
  return [
    ...PRODUCTION_NODE_FLAGS,
    ...(process.env.BENCH_BACKEND_NODE_ARGS?.split(/\s+/).filter(Boolean) ??
      []),
  ];
}

/** A static token for Backstage's own APIs (the catalog peer). */
export const BACKSTAGE_STATIC_TOKEN = 'bench-static-token-0123456789abcdef';

export interface BackendProcess {
  baseUrl: string;
  pid: number;
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** CPU time the process used so far, user and system, all threads, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

function backendConfig(
  database: BenchDatabase,
  port: number,
  catalogEntities: number,
) {
  return {
    backend: {
      baseUrl: `http://localhost:${port}`,
      listen: { port },
      database: database.backendConfig,
      auth: {
        externalAccess: [
          {
            type: 'static',
            options: { token: BACKSTAGE_STATIC_TOKEN, subject: 'bench' },
          },
        ],
      },
    },
    catalog: {
      rules: [
        { allow: ['Component', 'System', 'API', 'Resource', 'Location'] },
      ],
      processingInterval: { minutes: 30 },
    },
    bench: { catalogEntities },
    infraDelivery: {
      // The bench signs in once per run; the shipped limits stay as they are otherwise.
      rateLimits: { tokenPerAddress: { limit: 1000 } },
    },
  };
}

function readStatus(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms). */
function readCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Starts the bench backend (the product's plugins plus the bench-only floor plugin) in
 * production mode on `port`, and waits until it answers.
 */
export async function startBackend(options: {
  database: BenchDatabase;
  port: number;
  catalogEntities: number;
  /** The TypeScript sources instead of the production build. */
  fromSources: boolean;
  log: (line: string) => void;
}): Promise<BackendProcess> {
  const { database, port, log } = options;
  const answering = await fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
  if (answering) {
    throw new Error(`Port ${port} is in use; choose another with --port`);
  }
  await database.resetCatalog();
  const configFile = `${BENCH_ROOT}/${database.tag}-config.json`;
  writeFileSync(
    configFile,
    JSON.stringify(backendConfig(database, port, options.catalogEntities)),
  );
  const logFile = `${BENCH_ROOT}/${database.tag}-backend.log`;
  const { openSync } = await import('node:fs');
  const out = openSync(logFile, 'w');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...backendNodeFlags(),
      resolvePackagePath('@internal/infra-delivery-bench', 'bin/bench-backend'),
      '--config',
      configFile,
    ],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        BENCH_BACKEND_BUILD: options.fromSources ? 'src' : 'dist',
      },
      stdio: ['ignore', out, out],
      cwd: resolvePackagePath('@internal/infra-delivery-bench'),
    },
  );
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (exited) {
      throw new Error(`The bench backend exited; see ${logFile}`);
    }
    try {
      const response = await fetch(`${baseUrl}/.backstage/health/v1/readiness`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 180_000) {
      child.kill('SIGKILL');
      throw new Error(`The bench backend did not become ready; see ${logFile}`);
    }
    await new Promise(r => setTimeout(r, 500));
  }
  log(
    `[${database.tag}] backend ready in ${(
      (Date.now() - started) /
      1000
    ).toFixed(1)} s (pid ${child.pid}, log ${logFile})`,
  );
  const pid = child.pid!;
  return {
    baseUrl,
    pid,
    peakRssMb: () => readStatus(pid, 'VmHWM'),
    cpuMs: () => readCpuMs(pid),
    stop: async () => {
      if (exited) return;
      const done = new Promise(r => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(timer);
    },
  };
}
