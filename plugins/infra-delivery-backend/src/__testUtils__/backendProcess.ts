import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { JsonObject } from '@backstage/types';
import knexFactory, { Knex } from 'knex';
import { HEAP_PROBE, HeapProbeAnswer } from './backendProcess/heapProbe';

const ENTRY = path.resolve(__dirname, 'backendProcess/main.ts');
const PACKAGE_DIR = path.resolve(__dirname, '../..');
const NODE_TRANSFORM = require.resolve(
  '@backstage/cli/config/nodeTransform.cjs',
);

/** Where a backend process keeps its data: a SQLite file, or a PostgreSQL database. */
export type ProcessDatabase =
  | { client: 'better-sqlite3'; directory: string }
  | { client: 'pg'; connectionString: string; prefix: string };

/** A fresh SQLite directory under the OS temp directory. */
export function sqliteProcessDatabase(): ProcessDatabase {
  return {
    client: 'better-sqlite3',
    directory: fs.mkdtempSync(path.join(os.tmpdir(), 'infra-delivery-db-')),
  };
}

/** A fresh (not yet created) PostgreSQL database, from the test connection string. */
export function postgresProcessDatabase(): ProcessDatabase | undefined {
  const connectionString =
    process.env.BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING;
  if (!connectionString) {
    return undefined;
  }
  return {
    client: 'pg',
    connectionString,
    prefix: `reliability_${randomBytes(4).toString('hex')}_`,
  };
}

/** The plugin database's name in PostgreSQL (Backstage makes one database per plugin). */
function postgresDatabaseName(database: { prefix: string }) {
  return `${database.prefix}infra-delivery`;
}

/** A Knex client on the plugin's database, for checks after (or between) processes. */
export function inspectDatabase(database: ProcessDatabase): Knex {
  if (database.client === 'better-sqlite3') {
    return knexFactory({
      client: 'better-sqlite3',
      connection: {
        filename: path.join(database.directory, 'infra-delivery.sqlite'),
      },
      useNullAsDefault: true,
    });
  }
  const url = new URL(database.connectionString);
  url.pathname = `/${encodeURIComponent(postgresDatabaseName(database))}`;
  return knexFactory({
    client: 'pg',
    connection: url.toString(),
    pool: { min: 0, max: 2 },
  });
}

/** Removes what the processes left: the SQLite directory or the PostgreSQL database. */
export async function dropProcessDatabase(
  database: ProcessDatabase,
): Promise<void> {
  if (database.client === 'better-sqlite3') {
    fs.rmSync(database.directory, { recursive: true, force: true });
    return;
  }
  const admin = knexFactory({
    client: 'pg',
    connection: database.connectionString,
    pool: { min: 0, max: 1 },
  });
  try {
    await admin.raw(
      `DROP DATABASE IF EXISTS "${postgresDatabaseName(
        database,
      )}" WITH (FORCE)`,
    );
  } finally {
    await admin.destroy();
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const claimedPorts = new Set<number>();

/** A free port from 7300–7699 (the portal's 3000/7007 are shared and never used here). */
export async function freePort(): Promise<number> {
  const start = 7300 + Math.floor(Math.random() * 400);
  for (let i = 0; i < 400; i++) {
    const port = 7300 + ((start - 7300 + i) % 400);
    if (!claimedPorts.has(port) && (await portIsFree(port))) {
      claimedPorts.add(port);
      return port;
    }
  }
  throw new Error('No free port in 7300–7699');
}

export interface BackendProcessOptions {
  database: ProcessDatabase;
  port?: number;
  /** More `infraDelivery.*` configuration. */
  infraDelivery?: JsonObject;
  /** PostgreSQL only: client settings beside the connection string's (`keepAlive`, …). */
  connectionSettings?: JsonObject;
  /** More `backend.database.*` configuration (`knexConfig`, …). */
  databaseSettings?: JsonObject;
  /** Everything the process writes to stdout and stderr goes here (appended). */
  logFile: string;
  /** Give up waiting for readiness after this long. */
  readyTimeoutMs?: number;
}

/**
 * The connection as Backstage's configuration takes it: the string itself, or with more client
 * settings its parts (a `connectionString` would override the database Backstage picks).
 */
function postgresConnection(
  connectionString: string,
  settings: JsonObject | undefined,
): string | JsonObject {
  if (!settings) {
    return connectionString;
  }
  const url = new URL(connectionString);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    ...settings,
  };
}

function configFor(port: number, options: BackendProcessOptions): JsonObject {
  const { database } = options;
  return {
    app: { baseUrl: `http://127.0.0.1:${port}` },
    backend: {
      baseUrl: `http://127.0.0.1:${port}`,
      listen: { port, host: '127.0.0.1' },
      database:
        database.client === 'better-sqlite3'
          ? {
              client: 'better-sqlite3',
              connection: { directory: database.directory },
            }
          : {
              client: 'pg',
              connection: postgresConnection(
                database.connectionString,
                options.connectionSettings,
              ),
              prefix: database.prefix,
              ...options.databaseSettings,
            },
    },
    infraDelivery: {
      demo: { enabled: false },
      rateLimits: {
        signup: { limit: 100000 },
        tokenPerAddress: { limit: 100000 },
        tokenPerEmail: { limit: 100000 },
        apiKeyFailuresPerAddress: { limit: 100000 },
      },
      ...options.infraDelivery,
    },
  };
}

/**
 * The backend (Backstage with the infra-delivery plugin, see backendProcess/main.ts) as a
 * process of its own, so that it can be killed for real: `kill -9` leaves the database exactly
 * as a crash would.
 */
export class BackendProcess {
  private exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly logFile: string,
  ) {
    this.exited = new Promise(resolve =>
      child.once('exit', (code, signal) => resolve(signal ? null : code)),
    );
  }

  static async start(options: BackendProcessOptions): Promise<BackendProcess> {
    const launched = await BackendProcess.launch(options);
    await launched.waitUntilReady(options.readyTimeoutMs ?? 90_000);
    return launched;
  }

  /** Spawns the process without waiting for it to be ready. */
  static async launch(options: BackendProcessOptions): Promise<BackendProcess> {
    const port = options.port ?? (await freePort());
    const configDir = fs.mkdtempSync(
      path.join(os.tmpdir(), 'infra-delivery-config-'),
    );
    const configFile = path.join(configDir, 'app-config.json');
    fs.writeFileSync(configFile, JSON.stringify(configFor(port, options)));
    const log = fs.openSync(options.logFile, 'a');
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--no-flush-bytecode',
        '--require',
        NODE_TRANSFORM,
        ENTRY,
        '--config',
        configFile,
      ],
      {
        cwd: PACKAGE_DIR,
        env: { ...process.env, LOG_LEVEL: 'info' },
        // The IPC channel carries the live-heap probe (backendProcess/heapProbe.ts).
        stdio: ['ignore', log, log, 'ipc'],
      },
    );
    // Nor may it keep the test's process alive.
    child.channel?.unref();
    fs.closeSync(log);
    return new BackendProcess(child, port, options.logFile);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/api/infra-delivery`;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) {
        throw new Error(
          `The backend process exited before it was ready; see ${this.logFile}`,
        );
      }
      try {
        const response = await fetch(
          `http://127.0.0.1:${this.port}/.backstage/health/v1/readiness`,
        );
        if (response.ok) {
          return;
        }
      } catch {
        // Not listening yet.
      }
      await new Promise(resolve => setTimeout(resolve, 200));
    }
    throw new Error(
      `The backend process was not ready within ${timeoutMs} ms; see ${this.logFile}`,
    );
  }

  /** SIGKILL: no shutdown hooks, no flushing; whatever is not committed is lost. */
  async kill9(): Promise<void> {
    if (this.running) {
      this.child.kill('SIGKILL');
    }
    await this.exited;
  }

  /** An orderly stop (SIGTERM), falling back to SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) {
      return;
    }
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Resident set size in bytes, from /proc. */
  rssBytes(): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
    return kb * 1024;
  }

  /**
   * The bytes the process's JavaScript heap still holds after a full garbage collection (see
   * backendProcess/heapProbe.ts): what a leak grows, without the RSS's swings.
   */
  async liveHeapBytes(timeoutMs = 30_000): Promise<number> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const onMessage = (message: unknown) => {
        const answer = message as HeapProbeAnswer;
        if (answer?.type === HEAP_PROBE) {
          clearTimeout(timer);
          this.child.off('message', onMessage);
          resolve(answer.usedBytes);
        }
      };
      timer = setTimeout(() => {
        this.child.off('message', onMessage);
        reject(new Error(`No heap probe answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.child.on('message', onMessage);
      this.child.send({ type: HEAP_PROBE });
    });
  }

  /** Open file descriptors (sockets included), from /proc. */
  openFileDescriptors(): number {
    return fs.readdirSync(`/proc/${this.pid}/fd`).length;
  }

  /** Open TCP sockets of the process, from /proc. */
  openSockets(): number {
    let sockets = 0;
    for (const fd of fs.readdirSync(`/proc/${this.pid}/fd`)) {
      try {
        if (
          fs.readlinkSync(`/proc/${this.pid}/fd/${fd}`).startsWith('socket:')
        ) {
          sockets += 1;
        }
      } catch {
        // Closed while we looked.
      }
    }
    return sockets;
  }

  logs(): string {
    return fs.readFileSync(this.logFile, 'utf8');
  }
}
