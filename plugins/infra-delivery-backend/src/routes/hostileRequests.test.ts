import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import { Agent } from 'node:http';
import request from 'supertest';
import { FakeGithub } from '../__testUtils__/fakeGithub';
import { FakeGitHubEnterprise } from '../__testUtils__/fakeGitHubEnterprise';
import {
  GoodCall,
  HostileCase,
  HostileRequest,
  hostileCases,
} from '../__testUtils__/hostileCases';
import {
  OpenApiDocument,
  OpenApiOperation,
} from '../__testUtils__/openApiDocument';
import { OPERATION_CALLS } from '../__testUtils__/operationCalls';
import {
  createOperationWorld,
  OperationWorld,
  worldConfig,
} from '../__testUtils__/operationWorld';
import { createRunner } from '../__testUtils__/pipelineFixtures';
import {
  BASE,
  createTestDatabases,
  startInfraDeliveryBackend,
  TestDatabaseId,
} from '../__testUtils__/testBackend';

jest.setTimeout(120_000);

const databases = createTestDatabases();
const document = OpenApiDocument.load();
const operations = document.operations();

/** One backend on one database, with a world of resources to aim at. */
interface Target {
  databaseId: TestDatabaseId;
  world: OperationWorld;
  runnerKey: string;
  /** Keeps connections open between requests: thousands are sent. */
  agent: Agent;
  github: FakeGithub;
  enterprise: FakeGitHubEnterprise;
}

async function startTarget(databaseId: TestDatabaseId): Promise<Target> {
  const knex = await databases.init(databaseId);
  const github = await FakeGithub.start();
  const enterprise = new FakeGitHubEnterprise();
  await enterprise.start();
  const api = await startInfraDeliveryBackend(knex, {
    config: worldConfig(github),
  });
  const world = await createOperationWorld({ api, knex, github, enterprise });
  const runnerKey = (await createRunner(api, world.owner)).key;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return { databaseId, world, runnerKey, agent, github, enterprise };
}

/** The status and ErrorBody code of an answer: what both databases must agree on. */
interface Answer {
  status: number;
  code?: string;
  problems: string[];
}

const STACK_TRACE = /\bat [^\s()]+ \((?:\/|node:|file:)[^)]*:\d+:\d+\)/;
const DATABASE_TEXT =
  /\b(select\b[\s\S]*\bfrom|insert into|update \S+ set|delete from)\b|SQLITE_|violates|syntax error at|relation "|knex|pg_/i;

/** What is wrong with an answer: a 5xx, a refusal that is not an ErrorBody, a leak. */
function answerOf(response: request.Response): Answer {
  const problems: string[] = [];
  const text = response.text ?? '';
  if (response.status >= 500) {
    problems.push(`${response.status} ${text.slice(0, 300)}`);
  }
  let code: string | undefined;
  if (response.status >= 400) {
    const parsed = errorBodySchema.strict().safeParse(response.body);
    if (parsed.success && parsed.data.code.startsWith('InfraDelivery:')) {
      code = parsed.data.code;
    } else {
      problems.push(
        `${response.status} without an ErrorBody: ${text.slice(0, 200)}`,
      );
    }
    if (DATABASE_TEXT.test(text)) {
      problems.push(`database text in the answer: ${text.slice(0, 300)}`);
    }
  }
  if (STACK_TRACE.test(text)) {
    problems.push(`a stack trace in the answer: ${text.slice(0, 300)}`);
  }
  return { status: response.status, code, problems };
}

async function send(
  target: Target,
  hostile: HostileRequest,
  token: string,
): Promise<Answer> {
  let test = request(target.world.api.server)
    [hostile.method](`${BASE}${hostile.url}`)
    .agent(target.agent)
    .set('authorization', `Bearer ${token}`)
    .timeout(20_000);
  for (const [name, value] of Object.entries(hostile.headers)) {
    test = test.set(name, value);
  }
  if (hostile.body !== undefined) {
    test = test.serialize(body => body).send(hostile.body);
  }
  try {
    return answerOf(await test);
  } catch (error) {
    return { status: 0, problems: [`no answer: ${String(error)}`] };
  }
}

const sent = new Map<string, number>();

/**
 * Cases a valid request makes the server wait for by design: a runner's claim with nothing to
 * claim holds up to `waitSeconds`.
 */
const WAITS_BY_DESIGN = new Set([
  'claimStepExecution body data.waitSeconds: maximum (60)',
]);

/**
 * Whether two databases' answers must be the same: a 429 depends on how fast the failures
 * before it came (wrong sign-ins back off by time), not on the database.
 */
function comparable(answers: Answer[]): boolean {
  return answers.every(answer => answer.status !== 429);
}

/**
 * Sends each case to every database at once and lists what is wrong: a 5xx, a refusal that
 * is not an ErrorBody, a stack trace or SQL in the answer, databases that answer differently.
 */
async function problemsOf(
  on: Target[],
  cases: HostileCase[],
  goods: GoodCall[],
  tokens: string[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const hostile of cases) {
    const answers = await Promise.all(
      on.map((target, i) => send(target, hostile.build(goods[i]), tokens[i])),
    );
    answers.forEach((answer, i) => {
      const databaseId = on[i].databaseId;
      sent.set(databaseId, (sent.get(databaseId) ?? 0) + 1);
      problems.push(
        ...answer.problems.map(
          problem => `${hostile.label} on ${databaseId}: ${problem}`,
        ),
      );
    });
    const said = answers.map(a => `${a.status} ${a.code ?? ''}`.trim());
    if (comparable(answers) && new Set(said).size > 1) {
      problems.push(
        `${hostile.label}: ${on
          .map((target, i) => `${target.databaseId} ${said[i]}`)
          .join(', ')}`,
      );
    }
  }
  return problems;
}

describe('hostile requests derived from the OpenAPI document', () => {
  let targets: Target[] = [];

  beforeAll(async () => {
    targets = await Promise.all(
      databases
        .eachSupportedId()
        .map(([databaseId]) => startTarget(databaseId)),
    );
  }, 180_000);

  afterAll(async () => {
    for (const target of targets) {
      target.agent.destroy();
      await target.github.close();
      await target.enterprise.stop();
    }
    process.stdout.write(
      `Hostile requests: ${operations.length} operations, ${[...sent]
        .map(([databaseId, count]) => `${count} requests on ${databaseId}`)
        .join(', ')}\n`,
    );
  });

  it('covers every operation of the document with a good call to spoil', () => {
    expect(
      operations
        .map(operation => operation.operationId)
        .filter(id => !(id in OPERATION_CALLS)),
    ).toEqual([]);
  });

  it.each(
    operations.map((operation): [string, OpenApiOperation] => [
      operation.operationId,
      operation,
    ]),
  )(
    '%s answers every hostile request with a 4xx ErrorBody or a success, alike on every database',
    async (operationId, operation) => {
      const spec = OPERATION_CALLS[operationId as keyof typeof OPERATION_CALLS];
      // Sequentially: a good call may make resources, and each world makes them in the same order.
      const goods: GoodCall[] = [];
      for (const target of targets) {
        goods.push(await spec.call(target.world));
      }
      const tokens = targets.map(target =>
        spec.access === 'runner' ? target.runnerKey : target.world.owner.token,
      );
      const cases = hostileCases(operation, document).filter(
        hostile => !WAITS_BY_DESIGN.has(`${operationId} ${hostile.label}`),
      );
      expect(cases.length).toBeGreaterThan(0);
      expect(await problemsOf(targets, cases, goods, tokens)).toEqual([]);
    },
  );
});
