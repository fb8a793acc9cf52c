import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BackendProcess,
  dropProcessDatabase,
  inspectDatabase,
  postgresProcessDatabase,
  ProcessDatabase,
} from '../__testUtils__/backendProcess';
import { reportFigures } from '../__testUtils__/figures';
import { ProcessApi, seedOrganization } from '../__testUtils__/processApi';

jest.setTimeout(240_000);

const INSTANCES = 3;
const MIGRATIONS = fs
  .readdirSync(path.resolve(__dirname, '../../migrations'))
  .filter(name => name.endsWith('.js'))
  .sort();

/**
 * PostgreSQL only: several instances are a PostgreSQL deployment. SQLite serves one local
 * instance; processes sharing one file race for Knex's migration tables the same way, and
 * nothing but an OS file lock could order them.
 */
const databases: [string, () => ProcessDatabase | undefined][] = [
  ['an empty PostgreSQL database', postgresProcessDatabase],
];

describe.each(databases)(
  `${INSTANCES} instances started at the same moment on %s`,
  (_name, make) => {
    const database = make();
    if (!database) {
      it('needs PostgreSQL (BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING)', () => {
        expect(process.env.INFRA_DELIVERY_REQUIRE_POSTGRES).not.toBe('1');
      });
      return;
    }
    const logDir = fs.mkdtempSync(
      path.join(os.tmpdir(), 'infra-delivery-startup-'),
    );
    const instances: BackendProcess[] = [];

    afterAll(async () => {
      await Promise.all(instances.map(instance => instance.kill9()));
      await dropProcessDatabase(database);
    });

    it('all become ready, the migrations run once, and every instance serves the same data', async () => {
      // Spawned together, before any of them is ready: they race for the database and the
      // migration locks. Unguarded, Backstage core's own migrations (the auth service's key
      // store, before any plugin code runs) made the losers exit with MigrationLocked or
      // "already exists"; startOneInstanceAtATime lets them through one at a time.
      const started = Date.now();
      const launched = await Promise.all(
        Array.from({ length: INSTANCES }, (_, i) =>
          BackendProcess.launch({
            database,
            logFile: path.join(logDir, `instance-${i}.log`),
          }),
        ),
      );
      instances.push(...launched);
      const readyMs = await Promise.all(
        launched.map(instance =>
          instance.waitUntilReady(180_000).then(() => Date.now() - started),
        ),
      );
      reportFigures('concurrent-startup', { instances: INSTANCES, readyMs });
      for (const instance of launched) {
        expect(instance.running).toBe(true);
        expect(instance.logs()).not.toMatch(
          /MigrationLocked|already exists|duplicate key value/,
        );
      }

      const knex = inspectDatabase(database);
      try {
        const applied = await knex('knex_migrations')
          .select('name')
          .orderBy('name');
        expect(applied.map(row => row.name)).toEqual(MIGRATIONS);
        const locks = await knex('knex_migrations_lock').select('is_locked');
        expect(locks).toEqual([{ is_locked: 0 }]);
        // One portal organization, however many instances ensured it.
        const [{ count }] = await knex('organizations').count({ count: '*' });
        expect(Number(count)).toBe(1);
      } finally {
        await knex.destroy();
      }

      // Written through one instance, read through the others.
      const first = new ProcessApi(() => instances[0].baseUrl);
      const org = await seedOrganization(first, { stacks: 1 });
      for (const instance of instances.slice(1)) {
        const other = new ProcessApi(() => instance.baseUrl);
        const stacks = await other.expect(200, 'GET', '/stacks', {
          token: org.token,
        });
        expect(stacks.data.map((s: { id: string }) => s.id)).toEqual([
          org.stacks[0].id,
        ]);
      }
    });
  },
);
