import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { scaffolderModuleInfraDelivery } from './module';

describe('scaffolderModuleInfraDelivery', () => {
  async function registeredActions() {
    const addActions = jest.fn();
    await startTestBackend({
      extensionPoints: [[scaffolderActionsExtensionPoint, { addActions }]],
      features: [scaffolderModuleInfraDelivery],
    });
    return addActions.mock.calls.flat();
  }

  it('registers the three actions', async () => {
    const actions = await registeredActions();
    expect(actions.map(a => a.id)).toEqual([
      'infra-delivery:stack:create',
      'infra-delivery:run:trigger',
      'infra-delivery:cloud-account:create',
    ]);
  });

  it('calls the infra-delivery API with a token on behalf of the task initiator', async () => {
    const fetchMock = jest.spyOn(global, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          data: {
            id: 'stack-1',
            givenId: 'network',
            changePipelineId: 'p1',
            destroyPipelineId: 'p2',
          },
        }),
        { status: 201, headers: { 'content-type': 'application/json' } },
      ),
    );
    try {
      const addActions = jest.fn();
      await startTestBackend({
        extensionPoints: [[scaffolderActionsExtensionPoint, { addActions }]],
        features: [
          scaffolderModuleInfraDelivery,
          mockServices.discovery.factory(),
        ],
      });
      const action = addActions.mock.calls
        .flat()
        .find(a => a.id === 'infra-delivery:stack:create');
      const ctx = createMockActionContext({
        input: { projectId: 'p', environmentId: 'e', name: 'Network' },
      });
      ctx.getInitiatorCredentials = async () =>
        mockCredentials.user('user:default/jane');
      await action.handler(ctx);

      const [url, init] = fetchMock.mock.calls[0];
      expect(String(url)).toMatch(/\/api\/infra-delivery\/stacks$/);
      expect(init?.method).toBe('POST');
      const authorization = (init?.headers as Record<string, string>)
        .authorization;
      // The mock auth service's on-behalf-of token names the user and the target plugin.
      expect(authorization).toMatch(/^Bearer /);
      expect(authorization).toContain('user:default/jane');
      expect(authorization).toContain('infra-delivery');
      expect(ctx.output).toHaveBeenCalledWith('stackId', 'stack-1');
    } finally {
      fetchMock.mockRestore();
    }
  });

  it('links pages in the task log at the Infrastructure page the backend plugin knows', async () => {
    const logsOf = async (config: object) => {
      const addActions = jest.fn();
      await startTestBackend({
        extensionPoints: [[scaffolderActionsExtensionPoint, { addActions }]],
        features: [
          scaffolderModuleInfraDelivery,
          mockServices.rootConfig.factory({ data: config }),
        ],
      });
      const action = addActions.mock.calls
        .flat()
        .find(a => a.id === 'infra-delivery:run:trigger');
      const fetchMock = jest.spyOn(global, 'fetch').mockResolvedValue(
        new Response(
          JSON.stringify({
            data: { id: 'run-1', pipelineId: 'p', status: 'QUEUED' },
          }),
          { status: 201, headers: { 'content-type': 'application/json' } },
        ),
      );
      try {
        const ctx = createMockActionContext({ input: { pipelineId: 'p' } });
        jest.spyOn(ctx.logger, 'info');
        ctx.getInitiatorCredentials = async () =>
          mockCredentials.user('user:default/jane');
        await action.handler(ctx);
        return (ctx.logger.info as jest.Mock).mock.calls.map(c => c[0]);
      } finally {
        fetchMock.mockRestore();
      }
    };
    expect(
      await logsOf({ app: { baseUrl: 'https://portal.example.com/' } }),
    ).toContain(
      "The run's page: https://portal.example.com/infra-delivery/runs/run-1",
    );
    expect(
      await logsOf({
        app: { baseUrl: 'https://portal.example.com' },
        infraDelivery: { portalUrl: 'https://portal.example.com/infra/' },
      }),
    ).toContain("The run's page: https://portal.example.com/infra/runs/run-1");
  });

  const exampleTemplate = () =>
    parse(
      readFileSync(
        resolve(__dirname, '../templates/infra-delivery-stack/template.yaml'),
        'utf8',
      ),
    );

  it('is used by the example template with inputs its schemas know', async () => {
    const actions = await registeredActions();
    const template = exampleTemplate();
    const steps = template.spec.steps as {
      action: string;
      input: Record<string, unknown>;
    }[];
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      const action = actions.find(a => a.id === step.action);
      expect(action).toBeDefined();
      const properties = Object.keys(action.schema.input.properties);
      expect(properties).toEqual(
        expect.arrayContaining(Object.keys(step.input)),
      );
      for (const required of action.schema.input.required ?? []) {
        expect(Object.keys(step.input)).toContain(required);
      }
    }
  });

  it('asks in the example template whether to wait only with a first run, and for how long only when waiting', () => {
    const firstRun = exampleTemplate().spec.parameters.find(
      (page: { title: string }) => page.title === 'First run',
    );
    // Shown always, the review listed a 30-minute timeout for a task that waited for nothing.
    expect(Object.keys(firstRun.properties)).toEqual(['runNow']);
    const branchOf = (
      dependency: { oneOf: { properties: Record<string, any> }[] },
      key: string,
      value: boolean,
    ) => dependency.oneOf.find(b => b.properties[key].const === value)!;
    const noRun = branchOf(firstRun.dependencies.runNow, 'runNow', false);
    expect(Object.keys(noRun.properties)).toEqual(['runNow']);
    const run = branchOf(firstRun.dependencies.runNow, 'runNow', true) as any;
    expect(Object.keys(run.properties)).toEqual(['runNow', 'wait']);
    expect(
      Object.keys(branchOf(run.dependencies.wait, 'wait', false).properties),
    ).toEqual(['wait']);
    expect(
      branchOf(run.dependencies.wait, 'wait', true).properties.timeoutSeconds,
    ).toMatchObject({ type: 'integer', minimum: 60 });
  });

  it('links the example template’s success page to the new stack and its first run, with outputs the actions give', async () => {
    const actions = await registeredActions();
    const template = exampleTemplate();
    const actionOf = Object.fromEntries(
      (template.spec.steps as { id: string; action: string }[]).map(step => [
        step.id,
        actions.find(a => a.id === step.action),
      ]),
    );
    const links = template.spec.output.links as { url: string }[];
    // The Overview listed every stack; the new stack's page opens it at once.
    expect(links.map(link => link.url)).toEqual([
      '/infra-delivery${{ steps.stack.output.stackPage }}',
      '/infra-delivery${{ steps.run.output.runPage }}',
    ]);
    for (const { url } of links) {
      for (const [, step, output] of url.matchAll(
        /steps\.(\w+)\.output\.(\w+)/g,
      )) {
        expect(Object.keys(actionOf[step].schema.output.properties)).toContain(
          output,
        );
      }
    }
  });
});
