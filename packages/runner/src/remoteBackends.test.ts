import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TestDatabases } from '@backstage/backend-test-utils';
import { Runner } from './Runner';
import {
  clientFor,
  organizationWithStack,
  runnerDirectories,
  startService,
} from './__testUtils__/serviceWorld';
import {
  HttpStateServer,
  startHttpStateServer,
} from './__testUtils__/httpStateServer';
import { terraformBinary } from './__testUtils__/terraform';

jest.setTimeout(120_000);

const TERRAFORM = terraformBinary();
const databases = TestDatabases.create({ ids: ['POSTGRES_15'] });

/** Skipped, saying why, where there is no Terraform (or no PostgreSQL for the pg backend). */
const withTerraform = TERRAFORM ? describe : describe.skip;
const NO_TERRAFORM = TERRAFORM
  ? ''
  : ' [skipped: no terraform on the PATH; INFRA_DELIVERY_TEST_TERRAFORM names one]';
const withPostgres =
  TERRAFORM && databases.supports('POSTGRES_15') ? describe : describe.skip;
const NO_POSTGRES = databases.supports('POSTGRES_15')
  ? ''
  : ' [skipped: no PostgreSQL; BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING names one]';

/** Credentials that must not leave the runner: in the backend block, and in the environment. */
const PG_PASSWORD = 'pg-conn-str-secret-4b1d';
const HTTP_USERNAME = 'runner-r2';
const HTTP_PASSWORD = 'http-env-secret-93fa';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}

/** The Network stack's module: one resource Terraform has built in, in `backend`. */
const moduleWith = (backend: string) =>
  `terraform {\n  backend ${backend}\n}\n\nresource "terraform_data" "network" {\n  input = "10.0.0.0/16"\n}\n`;

withTerraform(
  `the runner with Terraform's remote backends${NO_TERRAFORM}`,
  () => {
    let baseUrl: string;
    let workRoot: string;
    let sourceRoot: string;

    beforeAll(async () => {
      baseUrl = await startService();
    });

    beforeEach(() => {
      ({ workRoot, sourceRoot } = runnerDirectories('backends'));
      process.env.TF_HTTP_PASSWORD = HTTP_PASSWORD;
    });

    afterEach(() => {
      delete process.env.TF_HTTP_PASSWORD;
    });

    /**
     * The stack's module with `backend`, a run of its change pipeline, and one step of it run by
     * the runner with Terraform; answers the run, and everything the step left that a person or a
     * program can read: the API's run, steps, stack and step logs, and the runner's own log.
     */
    async function runWith(backend: string) {
      fs.writeFileSync(
        path.join(sourceRoot, 'network', 'main.tf'),
        moduleWith(backend),
      );
      const { owner, stack, runnerKey } = await organizationWithStack(baseUrl);
      const triggered = await owner.call('triggerPipelineRun', {
        params: { id: stack.changePipelineId },
        body: { data: {} },
      });
      const runnerLog: string[] = [];
      await new Runner(
        {
          url: baseUrl,
          token: runnerKey,
          runnerId: 'backend-runner',
          iacBinary: TERRAFORM!,
          workRoot,
          sourceRoot,
          checkout: true,
          pollIntervalMs: 10,
          waitSeconds: 0,
          once: true,
          labels: [],
          hostname: 'build-host.example.com',
        },
        clientFor(baseUrl, runnerKey),
        line => runnerLog.push(line),
      ).run();
      const params = { params: { id: triggered.data.id } };
      const run = (await owner.call('getPipelineRun', params)).data;
      const steps = (await owner.call('listStepExecutions', params)).data;
      const stepLogs = await Promise.all(
        steps.map(
          async step =>
            (
              await owner.call('listStepExecutionLogs', {
                params: { id: step.id },
              })
            ).data,
        ),
      );
      const stackNow = (
        await owner.call('getStack', { params: { id: stack.id } })
      ).data;
      return {
        run,
        logText: stepLogs.flat().map(line => line.text),
        everything: [
          JSON.stringify({ run, steps, stepLogs, stackNow }),
          ...runnerLog,
        ].join('\n'),
      };
    }

    /** No credential anywhere: not in the logs, the errors, the API's answers. */
    function expectNoCredentials(everything: string) {
      for (const secret of [
        PG_PASSWORD,
        HTTP_PASSWORD,
        Buffer.from(`${HTTP_USERNAME}:${HTTP_PASSWORD}`).toString('base64'),
      ]) {
        expect(everything).not.toContain(secret);
      }
    }

    describe('pg', () => {
      it('a backend on a closed port: BACKEND_UNREACHABLE, in its own words', async () => {
        const port = await closedPort();
        const { run, everything } = await runWith(
          `"pg" {\n    conn_str = "postgres://postgres:${PG_PASSWORD}@127.0.0.1:${port}/state?sslmode=disable"\n  }`,
        );
        expect(run.status).toBe('FAILED');
        expect(run.error).toMatchObject({
          code: 'InfraDelivery:Runner:BACKEND_UNREACHABLE',
          message: `terraform init could not reach the stack's state backend: dial tcp 127.0.0.1:${port}: connect: connection refused`,
          metadata: { command: 'terraform init', exitCode: 1 },
        });
        expectNoCredentials(everything);
      });

      it('a conn_str Terraform cannot parse, which it prints whole: the password masked', async () => {
        const { run, logText, everything } = await runWith(
          `"pg" {\n    conn_str = "postgres://postgres:${PG_PASSWORD}@127.0.0.1:notaport/state?sslmode=disable"\n  }`,
        );
        const said =
          'parse "postgres://postgres:***@127.0.0.1:notaport/state?sslmode=disable": invalid port ":notaport" after host';
        expect(run.error).toMatchObject({
          code: 'InfraDelivery:Runner:COMMAND_FAILED',
          message: `terraform init exited with 1: ${said}`,
        });
        expect(logText).toContain(`Error: ${said}`);
        expectNoCredentials(everything);
      });
    });

    withPostgres(`pg, on PostgreSQL${NO_POSTGRES}`, () => {
      it('a state locked by another session: STATE_LOCKED naming no holder, then the plan once it is gone', async () => {
        const knex = await databases.init('POSTGRES_15');
        const { host, port, user, database } = knex.client.config
          .connection as {
          host: string;
          port: number;
          user: string;
          database: string;
        };
        const backend = `"pg" {\n    conn_str    = "postgres://${user}:${PG_PASSWORD}@${host}:${port}/${database}?sslmode=disable"\n    schema_name = "network_state"\n  }`;
        // The workspace, as the first apply makes it (init and plan do not): a row whose id is
        // its lock's key. An empty module: the stack's own plan has its resource to add.
        const initDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-init-'));
        fs.writeFileSync(
          path.join(initDir, 'main.tf'),
          `terraform {\n  backend ${backend}\n}\n`,
        );
        for (const args of [['init'], ['apply', '-auto-approve']]) {
          execFileSync(TERRAFORM!, [...args, '-input=false', '-no-color'], {
            cwd: initDir,
            env: { ...process.env, TF_IN_AUTOMATION: '1' },
            stdio: 'ignore',
          });
        }
        const [{ id }] = (
          await knex.raw(
            "SELECT id FROM network_state.states WHERE name = 'default'",
          )
        ).rows as { id: number }[];

        // Another session holds the lock (as a command running at a terminal would) while the
        // runner plans.
        const locked = await knex.transaction(async trx => {
          await trx.raw('SELECT pg_advisory_xact_lock(?)', [id]);
          return runWith(backend);
        });
        expect(locked.run.status).toBe('FAILED');
        expect(locked.run.error).toMatchObject({
          code: 'InfraDelivery:Runner:STATE_LOCKED',
          message:
            "terraform plan could not lock the stack's state: another command holds its lock in the PostgreSQL (pg) backend, which does not say which",
          details: [
            {
              title: "The backend's answer",
              render: 'list',
              items: ['Error message: Workspace is already locked: default'],
            },
          ],
          metadata: { command: 'terraform plan', exitCode: 1, backend: 'pg' },
        });
        expect(locked.run.error?.description).toContain(
          "WHERE l.locktype = 'advisory'",
        );
        expectNoCredentials(locked.everything);

        // The session gone, so is the lock: the next run plans.
        const planned = await runWith(backend);
        expect(planned.run.status).toBe('WAITING_FOR_APPROVAL');
        expect(planned.logText).toContain(
          'Plan: 1 to add, 0 to change, 0 to destroy.',
        );
        expectNoCredentials(planned.everything);
      });
    });

    describe('http', () => {
      let server: HttpStateServer | undefined;

      afterEach(async () => {
        await server?.close();
        server = undefined;
      });

      const httpBackend = (address: string) =>
        `"http" {\n    address        = "${address}"\n    lock_address   = "${address}"\n    unlock_address = "${address}"\n    username       = "${HTTP_USERNAME}"\n  }`;

      it("a state locked by another command: STATE_LOCKED with the holder's lock ID and its force-unlock", async () => {
        const holderId = '5d1c2e8a-0b7f-4c1e-9a51-2f0e6f4b7a10';
        server = await startHttpStateServer({
          username: HTTP_USERNAME,
          password: HTTP_PASSWORD,
          lockedBy: {
            ID: holderId,
            Operation: 'OperationTypeApply',
            Who: 'ana@laptop',
            Version: '1.11.4',
            Created: '2026-12-01T23:00:00Z',
          },
        });
        const { run, everything } = await runWith(httpBackend(server.address));
        expect(run.status).toBe('FAILED');
        expect(run.error).toMatchObject({
          code: 'InfraDelivery:Runner:STATE_LOCKED',
          message: `terraform plan could not lock the stack's state: it is locked (lock ID ${holderId})`,
          description: expect.stringContaining(
            `terraform force-unlock -force ${holderId}`,
          ),
          metadata: {
            command: 'terraform plan',
            exitCode: 1,
            backend: 'http',
            lockId: holderId,
          },
        });
        // The holder keeps its lock.
        expect(server.lock?.ID).toBe(holderId);
        expect(server.requests).not.toContain('UNLOCK');
        expectNoCredentials(everything);
      });

      it('a server answering 503: BACKEND_UNREACHABLE at init', async () => {
        server = await startHttpStateServer({
          username: HTTP_USERNAME,
          password: HTTP_PASSWORD,
          unavailable: 'everything',
        });
        const { run, everything } = await runWith(httpBackend(server.address));
        expect(run.error).toMatchObject({
          code: 'InfraDelivery:Runner:BACKEND_UNREACHABLE',
          message: `terraform init could not reach the stack's state backend: Error refreshing state: Failed to get state: GET ${server.address} giving up after 3 attempt(s)`,
        });
        expectNoCredentials(everything);
      });

      it('a server answering 503 to LOCK only: BACKEND_UNREACHABLE, not a lock someone holds', async () => {
        server = await startHttpStateServer({
          username: HTTP_USERNAME,
          password: HTTP_PASSWORD,
          unavailable: 'lock',
        });
        const { run, everything } = await runWith(httpBackend(server.address));
        expect(run.error).toMatchObject({
          code: 'InfraDelivery:Runner:BACKEND_UNREACHABLE',
          message: `terraform plan could not reach the stack's state backend: Error acquiring the state lock: Failed to lock: LOCK ${server.address} giving up after 3 attempt(s)`,
          metadata: { command: 'terraform plan', exitCode: 1 },
        });
        expectNoCredentials(everything);
      });
    });
  },
);
