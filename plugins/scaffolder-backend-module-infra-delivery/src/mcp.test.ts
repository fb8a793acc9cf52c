import {
  actionsRegistryServiceFactory,
  actionsServiceFactory,
} from '@backstage/backend-defaults/alpha';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
  TestDatabases,
} from '@backstage/backend-test-utils';
import mcpActionsPlugin from '@backstage/plugin-mcp-actions-backend';
import { InfraDeliveryClient } from '@infra-delivery/plugin-infra-delivery-common';
import infraDeliveryPlugin from '@infra-delivery/plugin-infra-delivery-backend';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AddressInfo } from 'node:net';

/** Closed after the tests: the test backend's default database never is, and kept Jest's worker alive. */
const databases = TestDatabases.create({ ids: ['SQLITE_3'] });

jest.setTimeout(60_000);

const OWNER = 'user:default/owner';
const MEMBER = 'user:default/member';
const VIEWER = 'user:default/viewer';

const INFRA_DELIVERY_TOOLS = [
  'infra-delivery.approve-run',
  'infra-delivery.get-metric',
  'infra-delivery.get-run',
  'infra-delivery.get-stack-drift',
  'infra-delivery.list-deployments',
  'infra-delivery.list-runs',
  'infra-delivery.list-stacks',
  'infra-delivery.rollback-deployment',
  'infra-delivery.trigger-plan',
];
const DESTRUCTIVE_TOOLS = [
  'infra-delivery.approve-run',
  'infra-delivery.rollback-deployment',
  'infra-delivery.trigger-plan',
];

/** A plan creating two buckets, as `terraform show -json` prints it. */
const TWO_BUCKETS_PLAN = {
  format_version: '1.2',
  terraform_version: '1.9.0',
  resource_changes: [0, 1].map(index => ({
    address: `aws_s3_bucket.logs[${index}]`,
    mode: 'managed',
    type: 'aws_s3_bucket',
    name: 'logs',
    index,
    provider_name: 'registry.terraform.io/hashicorp/aws',
    change: {
      actions: ['create'],
      before: null,
      after: { bucket: `logs-${index}` },
      after_sensitive: {},
    },
  })),
};

/**
 * End to end through an MCP client's eyes: the MCP SDK's client connects to the MCP actions
 * plugin of a running backend over Streamable HTTP, lists the infra-delivery tools from the
 * actions registry and calls them as the Backstage user of its token.
 */
describe('infra-delivery tools through the MCP SDK client', () => {
  let baseUrl: string;
  let stopBackend: () => Promise<void>;
  const clients: Client[] = [];

  /** The REST API as a caller with the given `authorization` header. */
  function restAs(authorization: string) {
    return new InfraDeliveryClient({
      baseUrl: async () => `${baseUrl}/api/infra-delivery`,
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...(init?.headers as object), authorization },
        }),
    });
  }

  /** An MCP client session authenticated as a Backstage user. */
  async function mcpClientAs(user: string): Promise<Client> {
    const client = new Client({ name: 'infra-delivery-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(
        new URL(`${baseUrl}/api/mcp-actions/v1`),
        {
          requestInit: {
            headers: { authorization: mockCredentials.user.header(user) },
          },
        },
      ),
    );
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    const backend = await startTestBackend({
      features: [
        infraDeliveryPlugin,
        mcpActionsPlugin,
        mockServices.database.factory({
          knex: await databases.init('SQLITE_3'),
        }),
        actionsRegistryServiceFactory,
        actionsServiceFactory,
        mockServices.rootConfig.factory({
          data: {
            backend: { actions: { pluginSources: ['infra-delivery'] } },
            infraDelivery: {
              roleMappings: [
                { entityRef: OWNER, role: 'OWNER' },
                { entityRef: MEMBER, role: 'MEMBER' },
              ],
              defaultRole: 'VIEWER',
            },
          },
        }),
      ],
    });
    const { port } = backend.server.address() as AddressInfo;
    baseUrl = `http://localhost:${port}`;
    stopBackend = () => backend.stop();
  });

  afterAll(async () => {
    await Promise.all(clients.map(client => client.close()));
    await stopBackend();
  });

  describe('with a planned run waiting for approval', () => {
    let stack: { id: string; changePipelineId: string };
    let plannedRunId: string;

    beforeAll(async () => {
      // The portal organization's owner sets up a stack; a runner plans its first run.
      const owner = restAs(mockCredentials.user.header(OWNER));
      const project = await owner.call('createProject', {
        body: { data: { givenId: 'mcp-project', name: 'MCP project' } },
      });
      const environment = await owner.call('createEnvironment', {
        params: { projectId: project.data.id },
        body: { data: { givenId: 'mcp-env', name: 'MCP environment' } },
      });
      stack = (
        await owner.call('createStack', {
          body: {
            data: {
              projectId: project.data.id,
              environmentId: environment.data.id,
              name: 'Logs',
            },
          },
        })
      ).data;
      const serviceAccount = await owner.call('createServiceAccount', {
        body: { data: { name: 'mcp runner', role: 'MEMBER' } },
      });
      const apiKey = await owner.call('createApiKey', {
        body: {
          data: {
            name: 'mcp runner key',
            ownerType: 'SERVICE_ACCOUNT',
            ownerId: serviceAccount.data.id,
          },
        },
      });
      plannedRunId = (
        await owner.call('triggerPipelineRun', {
          params: { id: stack.changePipelineId },
          body: { data: {} },
        })
      ).data.id;
      const runner = restAs(`Bearer ${apiKey.data.key}`);
      const claimed = await runner.call('claimStepExecution', {
        body: { data: { runnerId: 'mcp-runner' } },
      });
      if (claimed?.data.stepExecution.pipelineRunId !== plannedRunId) {
        throw new Error(`The runner claimed ${JSON.stringify(claimed)}`);
      }
      await runner.call('completeStepExecution', {
        params: { id: claimed.data.stepExecution.id },
        body: {
          data: {
            leaseToken: claimed.data.leaseToken,
            status: 'SUCCEEDED',
            planJson: TWO_BUCKETS_PLAN,
          },
        },
      });
    });

    it('lists every infra-delivery tool, the writing ones marked destructive', async () => {
      const client = await mcpClientAs(MEMBER);

      const { tools } = await client.listTools();

      const ours = tools.filter(tool =>
        tool.name.startsWith('infra-delivery.'),
      );
      expect(ours.map(tool => tool.name).sort()).toEqual(INFRA_DELIVERY_TOOLS);
      for (const tool of ours) {
        const destructive = DESTRUCTIVE_TOOLS.includes(tool.name);
        expect([tool.name, tool.annotations]).toEqual([
          tool.name,
          expect.objectContaining({
            destructiveHint: destructive,
            readOnlyHint: !destructive,
          }),
        ]);
        expect(tool.description).toEqual(expect.any(String));
        expect(tool.inputSchema.type).toBe('object');
      }
      const getRun = ours.find(tool => tool.name === 'infra-delivery.get-run');
      expect(getRun?.inputSchema.required).toEqual(['runId']);
    });

    it('reads a run with its steps and plan summary through get-run', async () => {
      const client = await mcpClientAs(VIEWER);

      const result = await client.callTool({
        name: 'infra-delivery.get-run',
        arguments: { runId: plannedRunId },
      });

      expect(result.isError).toBeFalsy();
      const output = result.structuredContent as any;
      expect(output.run).toMatchObject({
        id: plannedRunId,
        status: 'WAITING_FOR_APPROVAL',
        stackId: stack.id,
      });
      expect(output.steps.map((s: any) => [s.type, s.status])).toEqual([
        ['iac.plan', 'SUCCEEDED'],
        ['approval', 'WAITING_FOR_APPROVAL'],
        ['iac.apply', 'PENDING'],
      ]);
      expect(output.plans).toEqual([
        expect.objectContaining({
          runType: 'PLAN',
          add: 2,
          change: 0,
          destroy: 0,
          applyable: true,
        }),
      ]);
      // Clients that read only `content` get the same answer as text.
      expect(result.content).toEqual([
        { type: 'text', text: JSON.stringify(output) },
      ]);
    });

    it('triggers a plan as a MEMBER and sees the run queued behind the waiting one', async () => {
      const client = await mcpClientAs(MEMBER);

      const triggered = await client.callTool({
        name: 'infra-delivery.trigger-plan',
        arguments: { stackId: stack.id, description: 'Asked by an agent' },
      });

      expect(triggered.isError).toBeFalsy();
      const { run } = triggered.structuredContent as any;
      expect(run).toMatchObject({
        pipelineId: stack.changePipelineId,
        stackId: stack.id,
        status: 'QUEUED',
        description: 'Asked by an agent',
      });

      const fetched = await client.callTool({
        name: 'infra-delivery.get-run',
        arguments: { runId: run.id },
      });
      const queued = fetched.structuredContent as any;
      expect(queued.run.status).toBe('QUEUED');
      expect(queued.run.queueReason).toContain(plannedRunId);
      expect(queued.steps.map((s: any) => s.status)).toEqual([
        'PENDING',
        'PENDING',
        'PENDING',
      ]);
      expect(queued.plans).toEqual([]);

      const listed = await client.callTool({
        name: 'infra-delivery.list-runs',
        arguments: { stackId: stack.id },
      });
      expect(
        (listed.structuredContent as any).runs.map((r: any) => [
          r.id,
          r.status,
        ]),
      ).toEqual([
        [run.id, 'QUEUED'],
        [plannedRunId, 'WAITING_FOR_APPROVAL'],
      ]);
    });

    it('answers a VIEWER’s trigger-plan with a tool error and queues nothing', async () => {
      const client = await mcpClientAs(VIEWER);
      const before = await client.callTool({
        name: 'infra-delivery.list-runs',
        arguments: { stackId: stack.id },
      });

      const refused = await client.callTool({
        name: 'infra-delivery.trigger-plan',
        arguments: { stackId: stack.id },
      });

      expect(refused.isError).toBe(true);
      expect(refused.content).toEqual([
        {
          type: 'text',
          text: expect.stringMatching(/^NotAllowedError: .*MEMBER/),
        },
      ]);
      const after = await client.callTool({
        name: 'infra-delivery.list-runs',
        arguments: { stackId: stack.id },
      });
      expect((after.structuredContent as any).totalCount).toBe(
        (before.structuredContent as any).totalCount,
      );
    });
  });

  it('refuses an MCP session without a valid Backstage token', async () => {
    const client = new Client({ name: 'anonymous', version: '1.0.0' });
    await expect(
      client.connect(
        new StreamableHTTPClientTransport(
          new URL(`${baseUrl}/api/mcp-actions/v1`),
          {
            requestInit: {
              headers: {
                authorization: mockCredentials.user.invalidHeader(),
              },
            },
          },
        ),
      ),
    ).rejects.toThrow(/401/);
  });
});
