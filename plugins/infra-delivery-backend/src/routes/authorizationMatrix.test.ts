import {
  errorBodySchema,
  OperationDefinition,
  OperationId,
  operations,
  Role,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import request from 'supertest';
import { FakeGithub } from '../__testUtils__/fakeGithub';
import { FakeGitHubEnterprise } from '../__testUtils__/fakeGitHubEnterprise';
import {
  OPERATION_CALLS,
  OperationCall,
  OperationCallSpec,
} from '../__testUtils__/operationCalls';
import {
  createOperationWorld,
  CREDENTIAL_CASES,
  CredentialCase,
  OperationWorld,
  worldConfig,
} from '../__testUtils__/operationWorld';
import { sendOperation } from '../__testUtils__/sendOperation';
import {
  createTestDatabases,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';
import { roleAtLeast } from '../auth/roles';

jest.setTimeout(180_000);

const databases = createTestDatabases();

const UNAUTHENTICATED: readonly CredentialCase[] = [
  'no token',
  'malformed token',
  'expired access token',
  'revoked API key',
];
const OUTSIDER: CredentialCase = 'API key of another organization';

/**
 * The status a credential case must get, from the operation's access alone: credentials that do
 * not authenticate are a 401; the other organization's caller (an ADMIN service account) gets a
 * 404 for anything that names this organization's resources (or nothing, for a filter) and
 * otherwise works in its own organization, except where only members may call; members get the
 * allowed answer from the operation's role up, else a 403. Public operations answer every
 * credential alike.
 */
function expectedStatus(
  spec: OperationCallSpec,
  call: OperationCall,
  allowed: number,
  credential: CredentialCase,
  world: OperationWorld,
): number {
  if (spec.access === 'public') {
    return allowed;
  }
  if (UNAUTHENTICATED.includes(credential)) {
    return 401;
  }
  if (credential === OUTSIDER) {
    if (spec.membersOnly) {
      return 403;
    }
    const named = JSON.stringify([call.params, call.query, call.body]);
    return world.secrets().some(secret => named.includes(secret))
      ? call.outsider ?? 404
      : call.outsiderAtHome ?? allowed;
  }
  if (spec.access === 'runner') {
    return 403;
  }
  return roleAtLeast(credential as Role, spec.access) ? allowed : 403;
}

/** What of the world a response shows that its request did not name already. */
function leakedSecrets(
  response: request.Response,
  call: OperationCall,
  world: OperationWorld,
): string[] {
  const named = JSON.stringify([call.params, call.query, call.body]);
  const shown = `${JSON.stringify(response.headers)}${response.text ?? ''}${
    response.body ? JSON.stringify(response.body) : ''
  }`;
  return world
    .secrets()
    .filter(secret => !named.includes(secret) && shown.includes(secret));
}

const operationIds = Object.keys(operations) as OperationId[];
/** Cases run per database, for the summary. */
const casesRun = new Map<string, number>();
const operationsRun = new Set<string>();

afterAll(() => {
  const perDatabase = [...casesRun]
    .map(([databaseId, cases]) => `${cases} on ${databaseId}`)
    .join(', ');
  const total = [...casesRun.values()].reduce((sum, n) => sum + n, 0);
  process.stdout.write(
    `Authorization matrix: ${operationsRun.size} operations × ${CREDENTIAL_CASES.length} credentials; ${total} cases run (${perDatabase})\n`,
  );
});

describe('the authorization matrix', () => {
  it('has a call and an access level for every operation of the route table, and nothing else', () => {
    expect(
      operationIds.filter(operationId => !OPERATION_CALLS[operationId]),
    ).toEqual([]);
    expect(
      Object.keys(OPERATION_CALLS).filter(
        operationId => !(operationId in operations),
      ),
    ).toEqual([]);
  });
});

describe.each(databases.eachSupportedId())(
  'the authorization matrix on %s',
  databaseId => {
    let knex: Knex;
    let world: OperationWorld;
    let github: FakeGithub;
    let enterprise: FakeGitHubEnterprise;

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      github = await FakeGithub.start();
      enterprise = new FakeGitHubEnterprise();
      await enterprise.start();
      const api = await startInfraDeliveryBackend(knex, {
        config: worldConfig(github),
      });
      world = await createOperationWorld({ api, knex, github, enterprise });
    });

    afterAll(async () => {
      await github?.close();
      await enterprise?.stop();
    });

    it.each(operationIds)('%s', async operationId => {
      const operation: OperationDefinition = operations[operationId];
      const spec = OPERATION_CALLS[operationId];
      const mismatches: unknown[] = [];
      for (const credential of CREDENTIAL_CASES) {
        const call = await spec.call(world);
        const allowed = call.allowed ?? operation.success.status;
        const expected = expectedStatus(spec, call, allowed, credential, world);
        const response = await sendOperation(
          world.api,
          operation,
          call,
          world.tokens[credential],
        );
        casesRun.set(databaseId, (casesRun.get(databaseId) ?? 0) + 1);
        const problems: string[] = [];
        if (response.status !== expected) {
          problems.push(`status ${response.status}, expected ${expected}`);
        }
        if (
          roleCase(credential) &&
          response.status === allowed &&
          call.allowedCode !== undefined &&
          response.body?.code !== call.allowedCode
        ) {
          problems.push(
            `code ${response.body?.code}, expected ${call.allowedCode}`,
          );
        }
        if (
          response.status >= 400 &&
          !errorBodySchema.safeParse(response.body).success
        ) {
          problems.push('the error is not an ErrorBody');
        }
        if (spec.access !== 'public' && !roleCase(credential)) {
          const leaked = leakedSecrets(response, call, world);
          if (leaked.length > 0) {
            problems.push(`shows ${leaked.join(', ')}`);
          }
        }
        if (problems.length > 0) {
          mismatches.push({
            credential,
            problems,
            code: response.body?.code,
            message: response.body?.message,
          });
        }
      }
      operationsRun.add(operationId);
      expect(mismatches).toEqual([]);
    });
  },
);

function roleCase(credential: CredentialCase): boolean {
  return (
    credential === 'VIEWER' || credential === 'MEMBER' || credential === 'ADMIN'
  );
}
