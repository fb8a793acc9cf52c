import { Knex } from 'knex';
import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tuneSqlite } from './migrations';
import { GroupSync, WalSync, walFileSync } from './sqliteDurableCommits';
import { sqliteFile } from '../__testUtils__/testDatabases';

/** A log sync the test finishes by hand while `held`; it counts the syncs that started. */
function heldSync() {
  const waiting: { resolve(): void; reject(error: Error): void }[] = [];
  const state = {
    started: 0,
    held: false,
    sync: (() => {
      state.started++;
      if (!state.held) {
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) =>
        waiting.push({ resolve, reject }),
      );
    }) as WalSync,
    finishOne() {
      waiting.shift()!.resolve();
    },
    failOne(error: Error) {
      waiting.shift()!.reject(error);
    },
  };
  return state;
}

/** Lets every pending promise and the turns of the event loop they need run. */
async function settle(turns = 5) {
  for (let i = 0; i < turns; i++) {
    await new Promise(resolve => setImmediate(resolve));
  }
}

function watch(promise: Promise<unknown>) {
  const outcome: { done: boolean; error?: unknown } = { done: false };
  promise.then(
    () => {
      outcome.done = true;
    },
    error => {
      outcome.error = error;
    },
  );
  return outcome;
}

describe('SQLite commits synced off the event loop', () => {
  let directory: string;
  let knex: Knex;
  let wal: ReturnType<typeof heldSync>;

  beforeEach(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-commits-'));
    knex = sqliteFile(path.join(directory, 'infra.sqlite'));
    wal = heldSync();
    await tuneSqlite(knex, () => wal.sync);
    await knex.schema.createTable('runs', table => {
      table.string('id').primary();
    });
    wal.started = 0;
    wal.held = true;
  });

  afterEach(async () => {
    wal.held = false;
    await knex.destroy();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  const count = async () => Number((await knex('runs').count({ n: '*' }))[0].n);

  it('acknowledges a transaction once a sync begun after its commit ends, with the connection free meanwhile', async () => {
    const committed = watch(
      knex.transaction(async tx => {
        await tx('runs').insert({ id: 'run-1' });
      }),
    );
    await settle();
    expect(wal.started).toBe(1);
    expect(committed.done).toBe(false);

    // The connection is back in the pool while the log syncs: the next query runs.
    expect(await count()).toBe(1);
    expect(committed.done).toBe(false);

    wal.finishOne();
    await settle();
    expect(committed.done).toBe(true);
  });

  it('acknowledges a write outside a transaction once synced, and never makes a read wait', async () => {
    const inserted = watch(knex('runs').insert({ id: 'run-1' }));
    await settle();
    expect(wal.started).toBe(1);
    expect(inserted.done).toBe(false);

    // A read, in a transaction of its own or not, starts no sync and waits for none.
    expect(await count()).toBe(1);
    await knex.transaction(async tx => tx('runs').select('id'));
    expect(wal.started).toBe(1);

    wal.finishOne();
    await settle();
    expect(inserted.done).toBe(true);
  });

  it('syncs nothing for a transaction that rolls back', async () => {
    await expect(
      knex.transaction(async tx => {
        await tx('runs').insert({ id: 'run-1' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(wal.started).toBe(0);
    expect(await count()).toBe(0);
  });

  it('shares one sync between the commits made while another runs', async () => {
    const first = watch(knex('runs').insert({ id: 'run-0' }));
    await settle();
    const rest = Array.from({ length: 8 }, (_, i) =>
      watch(
        knex.transaction(async tx => {
          await tx('runs').insert({ id: `run-${i + 1}` });
        }),
      ),
    );
    await settle(40);
    // All nine are committed; the eight made during the first sync wait for one more.
    expect(await count()).toBe(9);
    expect(wal.started).toBe(1);
    wal.finishOne();
    await settle();
    expect(first.done).toBe(true);
    expect(rest.some(outcome => outcome.done)).toBe(false);
    expect(wal.started).toBe(2);
    wal.finishOne();
    await settle();
    expect(rest.every(outcome => outcome.done)).toBe(true);
    expect(wal.started).toBe(2);
  });

  it('fails the write whose sync failed', async () => {
    const committed = watch(
      knex.transaction(async tx => {
        await tx('runs').insert({ id: 'run-1' });
      }),
    );
    await settle();
    wal.failOne(new Error('EIO: i/o error, fdatasync'));
    await settle();
    expect(committed.done).toBe(false);
    expect(String(committed.error)).toContain('EIO');
  });

  it("syncs the database's own log file by default", async () => {
    const file = path.join(directory, 'real.sqlite');
    const real = sqliteFile(file);
    const open = jest.spyOn(fsPromises, 'open');
    try {
      await tuneSqlite(real);
      await real.schema.createTable('runs', table => {
        table.string('id').primary();
      });
      open.mockClear();
      await real.transaction(async tx => {
        await tx('runs').insert({ id: 'run-1' });
      });
      expect(open).toHaveBeenCalledWith(`${file}-wal`, 'r+');
    } finally {
      open.mockRestore();
      await real.destroy();
    }
  });

  it('tells a log that cannot be synced', async () => {
    await expect(
      walFileSync(path.join(directory, 'missing.sqlite'))(),
    ).rejects.toThrow('ENOENT');
  });
});

describe('GroupSync', () => {
  it('makes a write that came during a sync wait for the next one', async () => {
    const wal = heldSync();
    wal.held = true;
    const syncs = new GroupSync(wal.sync);
    const first = watch(syncs.afterWrite());
    const second = watch(syncs.afterWrite());
    const third = watch(syncs.afterWrite());
    expect(wal.started).toBe(1);
    wal.finishOne();
    await settle();
    expect(first.done).toBe(true);
    expect([second.done, third.done]).toEqual([false, false]);
    expect(wal.started).toBe(2);
    wal.finishOne();
    await settle();
    expect([second.done, third.done]).toEqual([true, true]);
  });

  it('starts afresh after a failed sync', async () => {
    const wal = heldSync();
    wal.held = true;
    const syncs = new GroupSync(wal.sync);
    const failed = watch(syncs.afterWrite());
    const next = watch(syncs.afterWrite());
    wal.failOne(new Error('EIO'));
    await settle();
    expect(String(failed.error)).toContain('EIO');
    expect(wal.started).toBe(2);
    wal.finishOne();
    await settle();
    expect(next.done).toBe(true);
  });
});
