import {
  errorBodySchema,
  OperationDefinition,
  OperationId,
  operations,
} from '@infra-delivery/plugin-infra-delivery-common';
import { Knex } from 'knex';
import request from 'supertest';
import { FakeGithub } from '../__testUtils__/fakeGithub';
import { FakeGitHubEnterprise } from '../__testUtils__/fakeGitHubEnterprise';
import { pushToCodeSource } from '../__testUtils__/gitTriggerFixtures';
import {
  OPERATION_CALLS,
  OperationCall,
} from '../__testUtils__/operationCalls';
import {
  createOperationWorld,
  OperationWorld,
  worldConfig,
} from '../__testUtils__/operationWorld';
import { sendOperation } from '../__testUtils__/sendOperation';
import {
  createTestDatabases,
  startInfraDeliveryBackend,
} from '../__testUtils__/testBackend';

jest.setTimeout(180_000);

const databases = createTestDatabases();

/** The paged lists of the route table: operations whose query takes a `cursor`. */
const pagedLists = (Object.keys(operations) as OperationId[]).filter(
  operationId => {
    const query = (operations[operationId] as OperationDefinition).query;
    return query !== undefined && 'cursor' in query.shape;
  },
);

/**
 * Lists the world has no second item of: their items come from runners (log lines, plan
 * ingestion, runners' own claims). Their cursors are covered in iacRoutes, pipelineRoutes and
 * runnerRegistryRoutes tests.
 */
const UNPAGED_IN_WORLD: readonly OperationId[] = [
  'listRunners',
  'listStepExecutionLogs',
  'listIacExecutionSummaries',
  'listIacResources',
  'listStepExecutionIacResources',
];

/** The operations that create something (201), called once more so every list has two items. */
const creations = (Object.keys(operations) as OperationId[]).filter(
  operationId =>
    (operations[operationId] as OperationDefinition).success.status === 201 &&
    OPERATION_CALLS[operationId].access !== 'public',
);

/** Query filters that name a resource, and the world's resource each names. */
const ID_FILTERS: Record<string, (world: OperationWorld) => string> = {
  id: w => w.runId,
  projectId: w => w.projectId,
  environmentId: w => w.environmentId,
  pipelineId: w => w.pipelineId,
  pipelineRunId: w => w.runId,
  stepExecutionId: w => w.stepExecutionId,
  attachedEntityId: w => w.stackChangePipelineId,
  stackId: w => w.stackId,
  codeSourceId: w => w.codeSourceId,
  cloudAccountId: w => w.cloudAccountId,
  deploymentId: w => w.deploymentId,
  moduleDefinitionId: w => w.moduleDefinitionId,
  moduleVersionId: w => w.moduleVersionId,
  ownerId: w => w.serviceAccountId,
  serverId: w => w.gitSelfHostedServerId,
};

/** Every list (paged or not) whose query can filter by a resource's id. */
const filteredLists = (Object.keys(operations) as OperationId[]).flatMap(
  operationId => {
    const query = (operations[operationId] as OperationDefinition).query;
    return Object.keys(query?.shape ?? {})
      .filter(name => name in ID_FILTERS)
      .map(filter => [operationId, filter] as const);
  },
);

function itemsOf(response: request.Response): unknown[] {
  const data = response.body?.data;
  if (Array.isArray(data)) {
    return data;
  }
  if (Array.isArray(data?.data)) {
    return data.data;
  }
  return (data?.counts ?? []).filter((c: { count: number }) => c.count > 0);
}

function shows(response: request.Response, secrets: string[]): string[] {
  const text = JSON.stringify(response.body ?? {});
  return secrets.filter(secret => text.includes(secret));
}

let cursorCases = 0;
let filterCases = 0;

afterAll(() => {
  process.stdout.write(
    `Cross-organization queries: ${pagedLists.length} paged lists, ${cursorCases} foreign-cursor cases, ${filteredLists.length} id filters, ${filterCases} foreign-id cases\n`,
  );
});

describe.each(databases.eachSupportedId())(
  'cursors and id filters across organizations on %s',
  databaseId => {
    let knex: Knex;
    let world: OperationWorld;
    let outsider: OperationWorld;
    let github: FakeGithub;
    let enterprise: FakeGitHubEnterprise;
    /** A cursor of each paged list of `world`, with the call that made it. */
    const cursors = new Map<
      OperationId,
      { call: OperationCall; cursor: string }
    >();

    beforeAll(async () => {
      knex = await databases.init(databaseId);
      github = await FakeGithub.start();
      enterprise = new FakeGitHubEnterprise();
      await enterprise.start();
      const api = await startInfraDeliveryBackend(knex, {
        config: worldConfig(github),
      });
      world = await createOperationWorld({ api, knex, github, enterprise });
      outsider = await createOperationWorld({ api, knex, github, enterprise });
      for (const operationId of creations) {
        const call = await OPERATION_CALLS[operationId].call(world);
        if (call.allowed !== undefined && call.allowed !== 201) {
          // Its matrix call is refused by a domain rule: it creates nothing to list.
          continue;
        }
        const response = await sendOperation(
          world.api,
          operations[operationId],
          call,
          world.owner.token,
        );
        if (response.status !== 201) {
          throw new Error(
            `${operationId}: ${response.status} ${JSON.stringify(
              response.body,
            )}`,
          );
        }
      }
      // Webhook deliveries come from GitHub, not from a creation: two pushes to the world's
      // repository give its deliveries list a second page.
      await pushToCodeSource(api, github, world.owner, world.codeSourceId, 2);
      for (const operationId of pagedLists) {
        const operation: OperationDefinition = operations[operationId];
        const call = await OPERATION_CALLS[operationId].call(world);
        const page = await sendOperation(
          world.api,
          operation,
          { ...call, query: { ...call.query, limit: '1' } },
          world.owner.token,
        );
        const cursor = page.body?.meta?.nextCursor;
        if (typeof cursor === 'string') {
          cursors.set(operationId, { call, cursor });
        }
      }
    });

    afterAll(async () => {
      await github?.close();
      await enterprise?.stop();
    });

    it('has a cursor of every paged list to try', () => {
      expect(
        pagedLists.filter(
          operationId =>
            !cursors.has(operationId) &&
            !UNPAGED_IN_WORLD.includes(operationId),
        ),
      ).toEqual([]);
    });

    it.each(pagedLists)(
      "refuses %s's cursor in another organization and in every other list",
      async operationId => {
        const made = cursors.get(operationId);
        expect(made ?? UNPAGED_IN_WORLD.includes(operationId)).toBeTruthy();
        if (!made) {
          return;
        }
        const problems: string[] = [];
        for (const target of pagedLists) {
          for (const caller of [world, outsider]) {
            if (target === operationId && caller === world) {
              continue;
            }
            const operation: OperationDefinition = operations[target];
            const call = await OPERATION_CALLS[target].call(caller);
            const response = await sendOperation(
              world.api,
              operation,
              { ...call, query: { ...call.query, cursor: made.cursor } },
              caller.owner.token,
            );
            cursorCases += 1;
            const who = caller === world ? 'same organization' : 'outsider';
            if (
              response.status !== 400 ||
              errorBodySchema.parse(response.body).code !==
                'InfraDelivery:Request:INVALID_CURSOR'
            ) {
              problems.push(
                `${target} (${who}): ${response.status} ${response.body?.code}`,
              );
            }
            if (caller === outsider) {
              const seen = shows(response, world.secrets());
              if (seen.length > 0) {
                problems.push(`${target} (${who}) shows ${seen.join(', ')}`);
              }
            }
          }
        }
        expect(problems).toEqual([]);
      },
    );

    it.each(filteredLists)(
      "%s filtered by %s with another organization's id yields nothing of it",
      async (operationId, filter) => {
        const operation: OperationDefinition = operations[operationId];
        const call = await OPERATION_CALLS[operationId].call(outsider);
        const worldId = ID_FILTERS[filter](world);
        const foreign = await sendOperation(
          world.api,
          operation,
          { ...call, query: { ...call.query, [filter]: worldId } },
          outsider.owner.token,
        );
        filterCases += 1;
        const refused =
          foreign.status >= 400 &&
          foreign.status < 500 &&
          (errorBodySchema.safeParse(foreign.body).data?.code ?? '').startsWith(
            'InfraDelivery:',
          );
        const answeredWithNothing =
          foreign.status === 200 && itemsOf(foreign).length === 0;
        expect(
          refused || answeredWithNothing
            ? 'nothing of it'
            : { status: foreign.status, body: foreign.body },
        ).toBe('nothing of it');
        expect(
          shows(
            foreign,
            world.secrets().filter(secret => secret !== worldId),
          ),
        ).toEqual([]);
      },
    );
  },
);
