import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Knex } from 'knex';
import {
  BackendProcess,
  dropProcessDatabase,
  inspectDatabase,
  postgresProcessDatabase,
  ProcessDatabase,
  sqliteProcessDatabase,
} from '../__testUtils__/backendProcess';
import {
  ProcessApi,
  reliabilityPlanJson,
  seedOrganization,
} from '../__testUtils__/processApi';
import { parseCloudFormation } from '../__testUtils__/cloudFormationYaml';
import { reportFigures } from '../__testUtils__/figures';
import {
  checkDataInvariants,
  storageIntegrity,
} from '../__testUtils__/dataInvariants';

jest.setTimeout(240_000);

const STACKS = 6;
const SERVICES = 3;
/** Short leases, so that a step whose claim died with the process is queued again quickly. */
const LEASE_SECONDS = 3;

const databases: [string, () => ProcessDatabase | undefined][] = [
  ['file-backed SQLite', sqliteProcessDatabase],
  ['PostgreSQL', postgresProcessDatabase],
];

function taskDefinition(image: string) {
  return {
    family: 'web',
    containerDefinitions: [
      {
        name: 'app',
        image,
        essential: true,
        portMappings: [{ containerPort: 8080 }],
      },
    ],
    cpu: '256',
    memory: '512',
  };
}

async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    await new Promise(resolve => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** What the burst got a 2xx answer for: these must all survive the crash. */
interface Acknowledged {
  runs: string[];
  completedSteps: string[];
  rollbacks: { id: string; targetId: string }[];
  refusedWithError: number;
}

describe.each(databases)(
  'kill -9 during a burst of writes on %s',
  (_name, make) => {
    const maybeDatabase = make();
    if (!maybeDatabase) {
      it('needs PostgreSQL (BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING)', () => {
        expect(process.env.INFRA_DELIVERY_REQUIRE_POSTGRES).not.toBe('1');
      });
      return;
    }
    const database: ProcessDatabase = maybeDatabase;
    const logFile = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'infra-delivery-crash-')),
      'backend.log',
    );
    let backend: BackendProcess | undefined;
    const api = new ProcessApi(() => backend!.baseUrl);
    let knex: Knex | undefined;

    afterAll(async () => {
      await backend?.kill9();
      await knex?.destroy();
      await dropProcessDatabase(database);
    });

    async function inspectUnfinished(): Promise<number> {
      const inspect = inspectDatabase(database);
      try {
        const [{ count }] = await inspect('pipeline_runs')
          .whereIn('status', ['QUEUED', 'RUNNING'])
          .count({ count: '*' });
        return Number(count);
      } finally {
        await inspect.destroy();
      }
    }

    async function start() {
      backend = await BackendProcess.start({
        database,
        logFile,
        infraDelivery: {
          engine: { leaseSeconds: LEASE_SECONDS },
          deployments: { localStageMillis: 10 },
        },
      });
    }

    it('keeps every acknowledged write, shows nothing half-written, and resumes queued runs', async () => {
      await start();
      const org = await seedOrganization(api, { stacks: STACKS });
      const { planJson, resourceCount } = reliabilityPlanJson();

      // Services with two successful deployments each, so that each can be rolled back.
      const account = await api.expect(201, 'POST', '/cloud-accounts', {
        token: org.token,
        body: {
          data: { givenId: 'aws', name: 'AWS', cloudId: '123456789012' },
        },
      });
      await api.expect(
        200,
        'POST',
        `/cloud-accounts/${account.data.id}/connect-local`,
        {
          token: org.token,
          body: {},
        },
      );
      // An onboarding link downloaded (its signature and JWT must stay out of the log).
      const link = await api.expect(
        200,
        'GET',
        `/cloud-accounts/${account.data.id}/template-url`,
        { token: org.token },
      );
      const templateUrl = new URL(link.data.templateUrl);
      const template = await fetch(
        `${backend!.baseUrl}${templateUrl.pathname.slice(
          '/api/infra-delivery'.length,
        )}${templateUrl.search}`,
      );
      expect(template.status).toBe(200);
      const onboardingSecrets = [
        templateUrl.searchParams.get('signature')!,
        parseCloudFormation(await template.text()).Parameters.OnboardingToken
          .Default as string,
      ];
      const firstDeployments: string[] = [];
      for (const release of ['v1', 'v2']) {
        const created = await Promise.all(
          Array.from({ length: SERVICES }, (_, i) =>
            api.expect(201, 'POST', '/deployments', {
              token: org.token,
              body: {
                data: {
                  cloudAccountId: account.data.id,
                  region: 'eu-west-1',
                  environmentId: org.environmentId,
                  clusterRef: 'main',
                  serviceRef: `web-${i}`,
                  taskDefinition: taskDefinition(
                    `registry.example.com/web:${release}`,
                  ),
                },
              },
            }),
          ),
        );
        for (const deployment of created) {
          await waitFor(
            `deployment ${deployment.data.id} to succeed`,
            async () => {
              const got = await api.call(
                'GET',
                `/deployments/${deployment.data.id}`,
                {
                  token: org.token,
                },
              );
              return got.body?.data?.status === 'SUCCEEDED' ? true : undefined;
            },
            30_000,
          );
        }
        if (release === 'v1') {
          firstDeployments.push(...created.map(d => d.data.id as string));
        }
      }

      // The burst: triggers, a runner reporting plans, rollbacks, all at once, until the kill.
      const acknowledged: Acknowledged = {
        runs: [],
        completedSteps: [],
        rollbacks: [],
        refusedWithError: 0,
      };
      let killed = false;
      const alive = () => !killed;

      async function triggerer(offset: number) {
        for (let i = offset; alive(); i++) {
          const stack = org.stacks[i % STACKS];
          const response = await api.call(
            'POST',
            `/pipelines/${stack.changePipelineId}/runs`,
            {
              token: org.token,
              body: { data: { description: `burst ${i}` } },
            },
          );
          if (response.status === 201) {
            acknowledged.runs.push(response.body.data.id);
          } else if (response.status !== 0) {
            acknowledged.refusedWithError += 1;
          }
        }
      }

      async function runner(runnerId: string) {
        while (alive()) {
          const claim = await api.call('POST', '/runner/claims', {
            token: org.runnerKey,
            body: { data: { runnerId } },
          });
          if (claim.status !== 200) {
            await new Promise(resolve => setTimeout(resolve, 20));
            continue;
          }
          const step = claim.body.data.stepExecution;
          const completed = await api.call(
            'POST',
            `/runner/step-executions/${step.id}/complete`,
            {
              token: org.runnerKey,
              body: {
                data: {
                  leaseToken: claim.body.data.leaseToken,
                  status: 'SUCCEEDED',
                  planJson,
                },
              },
            },
          );
          if (completed.status === 200) {
            acknowledged.completedSteps.push(step.id);
          }
        }
      }

      async function rollbacker() {
        for (let i = 0; alive(); i++) {
          const targetId = firstDeployments[i % SERVICES];
          const response = await api.call(
            'POST',
            `/deployments/${targetId}/rollback`,
            {
              token: org.token,
            },
          );
          if (response.status === 201) {
            acknowledged.rollbacks.push({
              id: response.body.data.id,
              targetId,
            });
          } else if (response.status === 0) {
            continue;
          } else if (response.status !== 409) {
            acknowledged.refusedWithError += 1;
          }
          await new Promise(resolve => setTimeout(resolve, 50));
        }
      }

      const crashed = backend!;
      const burstStarted = Date.now();
      const workers = Promise.all([
        triggerer(0),
        triggerer(3),
        runner('runner-a'),
        runner('runner-b'),
        rollbacker(),
      ]);
      // Kill while requests are in flight: after some writes were acknowledged.
      await waitFor(
        'the burst to be under way',
        async () =>
          acknowledged.runs.length >= 30 &&
          acknowledged.completedSteps.length >= 10
            ? true
            : undefined,
        60_000,
      );
      await new Promise(resolve =>
        setTimeout(resolve, 300 + Math.random() * 700),
      );
      await crashed.kill9();
      const burstMs = Date.now() - burstStarted;
      killed = true;
      await workers;

      expect(acknowledged.refusedWithError).toBe(0);
      expect(acknowledged.rollbacks.length).toBeGreaterThan(0);

      // With the process dead: the database as the crash left it.
      knex = inspectDatabase(database);
      expect(await storageIntegrity(knex, database.client)).toBe('ok');
      const persisted = await knex('pipeline_runs')
        .whereIn('id', acknowledged.runs)
        .select('id');
      expect(persisted.length).toBe(new Set(acknowledged.runs).size);
      const completed = await knex('step_executions')
        .whereIn('id', acknowledged.completedSteps)
        .select('id', 'status');
      expect(completed.map(s => s.status)).toEqual(
        acknowledged.completedSteps.map(() => 'SUCCEEDED'),
      );
      const rollbacks = await knex('deployments')
        .whereIn(
          'id',
          acknowledged.rollbacks.map(r => r.id),
        )
        .select('id', 'rollback_to_deployment_id');
      expect(
        rollbacks.map(r => [r.id, r.rollback_to_deployment_id]).sort(),
      ).toEqual(acknowledged.rollbacks.map(r => [r.id, r.targetId]).sort());
      expect(await checkDataInvariants(knex, resourceCount)).toEqual([]);
      await knex.destroy();
      knex = undefined;

      // Restart on the same database: every acknowledged write is served, queued runs resume.
      const restartStarted = Date.now();
      await start();
      const readyMs = Date.now() - restartStarted;
      const unfinishedAtRestart = await inspectUnfinished();
      for (const id of acknowledged.runs) {
        expect(
          (await api.call('GET', `/pipeline-runs/${id}`, { token: org.token }))
            .status,
        ).toBe(200);
      }
      killed = false;
      const finishedAfterRestart = Promise.all([
        runner('runner-c'),
        runner('runner-d'),
      ]);
      const unfinished = async () => {
        const queued = await api.expect(
          200,
          'GET',
          '/pipeline-runs?status=QUEUED&limit=1',
          {
            token: org.token,
          },
        );
        const running = await api.expect(
          200,
          'GET',
          '/pipeline-runs?status=RUNNING&limit=1',
          {
            token: org.token,
          },
        );
        return queued.data.length + running.data.length;
      };
      await waitFor(
        'every run to finish',
        async () => ((await unfinished()) === 0 ? true : undefined),
        120_000,
      );
      const resumedMs = Date.now() - restartStarted;
      killed = true;
      await finishedAfterRestart;

      knex = inspectDatabase(database);
      const statuses = (await knex('pipeline_runs')
        .select('status')
        .count({ count: '*' })
        .groupBy('status')) as { status: string; count: string | number }[];
      expect(statuses.map(s => [s.status, Number(s.count)])).toEqual([
        ['SUCCEEDED', expect.any(Number)],
      ]);
      reportFigures(`crash-safety ${database.client}`, {
        burstMs,
        acknowledgedRuns: acknowledged.runs.length,
        acknowledgedStepReports: acknowledged.completedSteps.length,
        acknowledgedRollbacks: acknowledged.rollbacks.length,
        unfinishedRunsAtRestart: unfinishedAtRestart,
        restartReadyMs: readyMs,
        allRunsFinishedAfterRestartMs: resumedMs,
        runsInTheEnd: Number(statuses[0].count),
      });
      expect(await checkDataInvariants(knex, resourceCount)).toEqual([]);

      await backend!.stop();
      expect(await storageIntegrity(knex, database.client)).toBe('ok');

      // Neither process logged a credential it was handed.
      const logs = fs.readFileSync(logFile, 'utf8');
      expect(logs.length).toBeGreaterThan(0);
      for (const secret of [
        org.password,
        org.token,
        org.runnerKey,
        ...onboardingSecrets,
      ]) {
        expect(logs.includes(secret)).toBe(false);
      }
    });
  },
);
