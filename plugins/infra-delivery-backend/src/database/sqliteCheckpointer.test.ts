import { mockServices } from '@backstage/backend-test-utils';
import knexFactory, { Knex } from 'knex';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tuneSqlite } from './migrations';
import {
  SqliteCheckpointer,
  startSqliteCheckpointer,
} from './sqliteCheckpointer';
import { inMemorySqlite, sqliteFile } from '../__testUtils__/testDatabases';

async function autocheckpointPages(knex: Knex): Promise<number> {
  const [row] = await knex.raw<{ wal_autocheckpoint: number }[]>(
    'PRAGMA wal_autocheckpoint',
  );
  return row.wal_autocheckpoint;
}

async function waitFor(condition: () => boolean, timeoutMs = 4_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`Not reached within ${timeoutMs} ms`);
    }
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

describe('startSqliteCheckpointer', () => {
  const logger = mockServices.logger.mock();

  describe('on a file-backed SQLite database', () => {
    let directory: string;
    let file: string;
    let knex: Knex;
    let checkpointer: SqliteCheckpointer | undefined;

    beforeEach(async () => {
      directory = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
      file = path.join(directory, 'infra.sqlite');
      knex = sqliteFile(file);
      await tuneSqlite(knex);
      await knex.schema.createTable('resources', table => {
        table.string('id').primary();
        table.text('attributes');
      });
    });

    afterEach(async () => {
      await checkpointer?.stop();
      await knex.destroy();
      fs.rmSync(directory, { recursive: true, force: true });
    });

    it('copies committed pages into the database file while the committing connection leaves them', async () => {
      checkpointer = await startSqliteCheckpointer(knex, logger, 50);
      expect(checkpointer).toBeDefined();
      // The committing connection would only checkpoint past 10,000 pages (40 MB).
      expect(await autocheckpointPages(knex)).toBe(10_000);

      const before = fs.statSync(file).size;
      await knex.transaction(async tx => {
        for (let batch = 0; batch < 10; batch++) {
          await tx('resources').insert(
            Array.from({ length: 100 }, (_, i) => ({
              id: `r-${batch}-${i}`,
              attributes: 'x'.repeat(2_000),
            })),
          );
        }
      });
      // ~2 MB of rows: below the connection's threshold, so only the worker copies them.
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(1_000_000);
      await waitFor(() => fs.statSync(file).size > before + 1_000_000);

      // What was copied is the data: a new connection reads every row.
      const reader = sqliteFile(file);
      try {
        expect(await reader('resources').count({ n: '*' })).toEqual([
          { n: 1000 },
        ]);
      } finally {
        await reader.destroy();
      }
    });

    it('hands checkpoints back to the committing connection when it stops', async () => {
      checkpointer = await startSqliteCheckpointer(knex, logger, 50);
      await checkpointer!.stop();
      expect(await autocheckpointPages(knex)).toBe(1_000);
      // Stopping twice waits for the same exit.
      await checkpointer!.stop();
    });
  });

  it('leaves in-memory SQLite and other databases alone', async () => {
    const memory = inMemorySqlite();
    try {
      await tuneSqlite(memory);
      expect(await startSqliteCheckpointer(memory, logger)).toBeUndefined();
      expect(await autocheckpointPages(memory)).toBe(1_000);
    } finally {
      await memory.destroy();
    }
    const postgres = knexFactory({ client: 'pg' });
    expect(await startSqliteCheckpointer(postgres, logger)).toBeUndefined();
    await postgres.destroy();
  });
});
