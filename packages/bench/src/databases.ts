import { mkdirSync, rmSync } from 'node:fs';
import knexFactory, { Knex } from 'knex';

export type DatabaseKind = 'sqlite' | 'postgres';

/**
 * Where datasets and results go. BENCH_ROOT moves them, so that benches of different
 * checkouts (whose migrations differ) on one machine never open each other's datasets.
 */
export const BENCH_ROOT = process.env.BENCH_ROOT ?? '/tmp/infra-delivery-bench';
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432';

/**
 * Where a dataset lives: on SQLite the file Backstage opens for the plugin under a directory
 * of its own, on PostgreSQL the database Backstage names from a prefix of its own.
 */
export interface BenchDatabase {
  kind: DatabaseKind;
  tag: string;
  /** `backend.database` of the bench backend's config. */
  backendConfig: Record<string, unknown>;
  /** A Knex handle on the plugin's database, as Backstage would open it. */
  open(): Knex;
  /** Drops and recreates the plugin's database. */
  recreate(): Promise<void>;
  /**
   * Drops the catalog's database: entities a previous run provided would otherwise still be
   * processing while this run measures.
   */
  resetCatalog(): Promise<void>;
}

function scaleTag(scale: number) {
  return String(scale).replace('.', '_');
}

/** The dataset of `scale` on `kind`. */
export function benchDatabase(
  kind: DatabaseKind,
  scale: number,
): BenchDatabase {
  return namedBenchDatabase(kind, `s${scaleTag(scale)}`);
}

/** A database of the bench's own named `name` (a scale's dataset, or another bench's). */
export function namedBenchDatabase(
  kind: DatabaseKind,
  name: string,
): BenchDatabase {
  const tag = `${kind}-${name}`;
  if (kind === 'sqlite') {
    const directory = `${BENCH_ROOT}/${tag}`;
    const file = `${directory}/infra-delivery.sqlite`;
    return {
      kind,
      tag,
      backendConfig: {
        client: 'better-sqlite3',
        connection: { directory },
      },
      open: () =>
        knexFactory({
          client: 'better-sqlite3',
          connection: { filename: file },
          useNullAsDefault: true,
        }),
      recreate: async () => {
        rmSync(directory, { recursive: true, force: true });
        mkdirSync(directory, { recursive: true });
      },
      resetCatalog: async () => {
        for (const suffix of ['', '-journal', '-wal', '-shm']) {
          rmSync(`${directory}/catalog.sqlite${suffix}`, { force: true });
        }
      },
    };
  }
  const prefix = `bench_${name}_`;
  const database = `${prefix}infra-delivery`;
  return {
    kind,
    tag,
    backendConfig: {
      client: 'pg',
      connection: POSTGRES_URL,
      prefix,
    },
    open: () =>
      knexFactory({
        client: 'pg',
        connection: `${POSTGRES_URL}/${database}`,
        // The SQL floor holds one connection per concurrent request.
        pool: { min: 0, max: 16 },
      }),
    recreate: () =>
      administer(async admin => {
        await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [database]);
        await admin.raw('CREATE DATABASE ??', [database]);
      }),
    resetCatalog: () =>
      administer(admin =>
        admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [
          `${prefix}catalog`,
        ]),
      ),
  };
}

async function administer(work: (admin: Knex) => Promise<unknown>) {
  const admin = knexFactory({
    client: 'pg',
    connection: `${POSTGRES_URL}/postgres`,
  });
  try {
    await work(admin);
  } finally {
    await admin.destroy();
  }
}

/** Pragmas for a bulk load on SQLite: nothing is worth an fsync until the load is done. */
export async function prepareForBulkLoad(knex: Knex) {
  if (String(knex.client.config.client).includes('sqlite')) {
    await knex.raw('PRAGMA journal_mode = WAL');
    await knex.raw('PRAGMA synchronous = OFF');
    await knex.raw('PRAGMA cache_size = -262144');
    await knex.raw('PRAGMA temp_store = MEMORY');
  }
}
