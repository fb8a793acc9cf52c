import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  mockServices,
  startTestBackend,
  TestDatabases,
} from '@backstage/backend-test-utils';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
// The runner's tests run against the real service: a test-only import of the backend plugin.
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import infraDeliveryPlugin from '@infra-delivery/plugin-infra-delivery-backend';

/** The test IaC tool the runner's tests execute (it prints and reports `FAKE_IAC_PLAN`). */
export const FAKE_IAC = path.resolve(__dirname, 'fake-iac');

/** Real Terraform plans, shared with the backend's ingestion tests. */
export const PLAN_FIXTURES = path.resolve(
  __dirname,
  '../../../../plugins/infra-delivery-backend/src/iac/__fixtures__/tf-plans',
);

/**
 * The SQLite databases of the services the tests start, closed after the test file: the test
 * backend's own default database is never closed, and its connection pool's timers kept Jest's
 * worker from exiting ("A worker process has failed to exit gracefully").
 */
const sqlite = TestDatabases.create({ ids: ['SQLITE_3'] });

/**
 * Starts the service on a test backend, on `knex` (a fresh SQLite database by default) with
 * `features` beside the plugin, and answers its base URL, as a runner's `--url`.
 */
export async function startService(
  options: Parameters<typeof startStoppableService>[0] = {},
): Promise<string> {
  return (await startStoppableService(options)).baseUrl;
}

/** A fresh SQLite database, for services that share it (one restarting as another). */
export function freshDatabase() {
  return sqlite.init('SQLITE_3');
}

/** As `startService`, with `stop` to take the service down (its database stays). */
export async function startStoppableService(
  options: {
    knex?: Awaited<ReturnType<TestDatabases['init']>>;
    features?: Parameters<typeof startTestBackend>[0]['features'];
  } = {},
): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const knex = options.knex ?? (await freshDatabase());
  const backend = await startTestBackend({
    features: [
      infraDeliveryPlugin,
      mockServices.database.factory({ knex }),
      ...(options.features ?? []),
    ],
  });
  return {
    baseUrl: `http://127.0.0.1:${
      (backend.server.address() as AddressInfo).port
    }/api/infra-delivery`,
    stop: () => backend.stop(),
  };
}

/**
 * A client for `baseUrl` sending `token`, as automation would use the service. A request for
 * which `unreachable` answers true does not reach the service, as while a portal restarts.
 */
export function clientFor(
  baseUrl: string,
  token?: string,
  unreachable: (url: string) => boolean = () => false,
) {
  return new InfraDeliveryClient({
    baseUrl: async () => baseUrl,
    fetch: (input, init) =>
      unreachable(String(input))
        ? Promise.reject(new TypeError('fetch failed'))
        : fetch(input, {
            ...init,
            headers: {
              ...init?.headers,
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
          }),
  });
}

/**
 * A client with `key` whose first `times` requests to paths ending in `suffix` (any path for
 * '') do not reach the service; `dropped.count` says how many did not.
 */
export function droppingClient(
  baseUrl: string,
  key: string,
  suffix: string,
  times: number,
) {
  const dropped = { count: 0 };
  const client = clientFor(
    baseUrl,
    key,
    url => url.endsWith(suffix) && dropped.count < times && ++dropped.count > 0,
  );
  return { client, dropped };
}

/** A fresh work root, and a source tree holding the `network` stack's code. */
export function runnerDirectories(prefix: string): {
  workRoot: string;
  sourceRoot: string;
} {
  const workRoot = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-work-`));
  const sourceRoot = fs.mkdtempSync(
    path.join(os.tmpdir(), `${prefix}-source-`),
  );
  fs.mkdirSync(path.join(sourceRoot, 'network'));
  fs.writeFileSync(path.join(sourceRoot, 'network', 'main.tf'), '# network\n');
  return { workRoot, sourceRoot };
}

/**
 * A git repository in a temp directory, served over `file://`, with two commits of the
 * `network` stack's code: the first has `main.tf` and `old.tf`, the second changes `main.tf`
 * and removes `old.tf`.
 */
export function networkRepository(prefix: string): {
  dir: string;
  url: string;
  first: string;
  second: string;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-repo-`));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Alice',
        GIT_AUTHOR_EMAIL: 'alice@example.com',
        GIT_COMMITTER_NAME: 'Alice',
        GIT_COMMITTER_EMAIL: 'alice@example.com',
      },
    })
      .toString()
      .trim();
  git('init', '--quiet', '--initial-branch=main');
  fs.mkdirSync(path.join(dir, 'network'));
  fs.writeFileSync(path.join(dir, 'network', 'main.tf'), '# first commit\n');
  fs.writeFileSync(
    path.join(dir, 'network', 'old.tf'),
    '# only in the first\n',
  );
  git('add', '.');
  git('commit', '--quiet', '-m', 'First');
  const first = git('rev-parse', 'HEAD');
  fs.writeFileSync(path.join(dir, 'network', 'main.tf'), '# second commit\n');
  fs.rmSync(path.join(dir, 'network', 'old.tf'));
  git('add', '--all', '.');
  git('commit', '--quiet', '-m', 'Second');
  return {
    dir,
    url: `file://${dir}`,
    first,
    second: git('rev-parse', 'HEAD'),
  };
}

/**
 * A new organization, as a person signs up: its owner's client, a `Network` stack (at path
 * `network`, with `stack` added to what is created) and an API key of a MEMBER service account
 * for the runner.
 */
export async function organizationWithStack(
  baseUrl: string,
  stack: { driftCheckIntervalHours?: number } = {},
) {
  const anonymous = clientFor(baseUrl);
  const email = `runner-${Date.now()}-${Math.random()}@example.com`;
  const password = 'correct horse battery staple';
  await anonymous.call('signup', { body: { data: { email, password } } });
  const token = (
    await anonymous.call('createAccessToken', {
      body: { data: { email, password } },
    })
  ).data.accessToken;
  const owner = clientFor(baseUrl, token);
  const project = await owner.call('createProject', {
    body: { data: { givenId: 'core', name: 'Core' } },
  });
  const environment = await owner.call('createEnvironment', {
    params: { projectId: project.data.id },
    body: { data: { givenId: 'prod', name: 'Production' } },
  });
  const created = await owner.call('createStack', {
    body: {
      data: {
        projectId: project.data.id,
        environmentId: environment.data.id,
        name: 'Network',
        path: 'network',
        ...stack,
      },
    },
  });
  const account = await owner.call('createServiceAccount', {
    body: { data: { name: 'runner', role: 'MEMBER' } },
  });
  const key = await owner.call('createApiKey', {
    body: {
      data: {
        name: 'runner',
        ownerType: 'SERVICE_ACCOUNT',
        ownerId: account.data.id,
      },
    },
  });
  return {
    owner,
    stack: created.data,
    runnerKey: key.data.key,
    runnerKeyId: key.data.id,
  };
}

/** What a runner says at the service's first answer: where, for which organization, as whom. */
export function connectedLine(
  runnerId: string,
  claims: 'polled' | 'held' = 'polled',
) {
  const asking =
    claims === 'held'
      ? 'waiting for work \\(the service answers as soon as a step is queued\\)'
      : 'asking for work every \\S+';
  return expect.stringMatching(
    new RegExp(
      `^Connected to http://\\S+ for organization "[^"]+" as ${runnerId} with\\S* [^;]+; ${asking}$`,
    ),
  );
}
