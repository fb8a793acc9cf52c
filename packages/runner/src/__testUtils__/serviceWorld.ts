import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';

/** The test IaC tool the runner's tests execute (it prints and reports `FAKE_IAC_PLAN`). */
export const FAKE_IAC = path.resolve(__dirname, 'fake-iac');

/** Real Terraform plans, shared with the backend's ingestion tests. */
export const PLAN_FIXTURES = path.resolve(
  __dirname,
  '../../../../plugins/infra-delivery-backend/src/iac/__fixtures__/tf-plans',
);

/** A client for `baseUrl` sending `token`, as automation would use the service. */
export function clientFor(baseUrl: string, token?: string) {
  return new InfraDeliveryClient({
    baseUrl: async () => baseUrl,
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: {
          ...init?.headers,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      }),
  });
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
  return { owner, stack: created.data, runnerKey: key.data.key };
}
