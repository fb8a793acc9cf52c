import {
  actionsRegistryServiceFactory,
  actionsServiceFactory,
} from '@backstage/backend-defaults/alpha';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import mcpActionsPlugin from '@backstage/plugin-mcp-actions-backend';
import infraDeliveryPlugin from '@internal/plugin-infra-delivery-backend';
import request from 'supertest';

jest.setTimeout(60_000);

/**
 * End to end through an MCP client's eyes: the MCP actions plugin lists the infra-delivery
 * tools from the actions registry and calls them as the Backstage user of the request.
 */
describe('infra-delivery tools over MCP', () => {
  let server: Parameters<typeof request>[0];
  let stop: () => Promise<void>;

  afterAll(() => stop());

  beforeAll(async () => {
    const backend = await startTestBackend({
      features: [
        infraDeliveryPlugin,
        mcpActionsPlugin,
        actionsRegistryServiceFactory,
        actionsServiceFactory,
        mockServices.rootConfig.factory({
          data: {
            backend: { actions: { pluginSources: ['infra-delivery'] } },
            infraDelivery: {
              roleMappings: [
                { entityRef: 'user:default/member', role: 'MEMBER' },
              ],
              defaultRole: 'VIEWER',
            },
          },
        }),
      ],
    });
    server = backend.server;
    stop = () => backend.stop();
  });

  async function rpc(user: string, method: string, params: object) {
    const response = await request(server)
      .post('/api/mcp-actions/v1')
      .set('authorization', mockCredentials.user.header(user))
      .set('accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method, params });
    expect(response.status).toBe(200);
    // The streamable transport answers one SSE message.
    const data = response.text
      .split('\n')
      .find(line => line.startsWith('data: '));
    return JSON.parse(data ? data.slice('data: '.length) : response.text);
  }

  it('lists the tools with their annotations', async () => {
    const { result } = await rpc('user:default/viewer', 'tools/list', {});
    const tools = Object.fromEntries(
      result.tools.map((t: any) => [t.name, t.annotations]),
    );
    expect(Object.keys(tools).sort()).toEqual([
      'infra-delivery.approve-run',
      'infra-delivery.get-metric',
      'infra-delivery.get-run',
      'infra-delivery.list-deployments',
      'infra-delivery.list-runs',
      'infra-delivery.list-stacks',
      'infra-delivery.rollback-deployment',
      'infra-delivery.trigger-plan',
    ]);
    expect(tools['infra-delivery.rollback-deployment']).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(tools['infra-delivery.list-stacks']).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(tools['infra-delivery.trigger-plan']).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it('calls a tool as the user: a VIEWER reads, but may not trigger a plan', async () => {
    const listed = await rpc('user:default/viewer', 'tools/call', {
      name: 'infra-delivery.list-stacks',
      arguments: {},
    });
    expect(listed.result).not.toHaveProperty('isError', true);
    expect(listed.result.structuredContent).toEqual({
      stacks: [],
      totalCount: 0,
    });

    const triggered = await rpc('user:default/viewer', 'tools/call', {
      name: 'infra-delivery.trigger-plan',
      arguments: { stackId: 'any' },
    });
    expect(JSON.stringify(triggered)).toContain('MEMBER');

    const member = await rpc('user:default/member', 'tools/call', {
      name: 'infra-delivery.trigger-plan',
      arguments: { stackId: 'missing' },
    });
    expect(JSON.stringify(member)).toContain('not found');
  });
});
