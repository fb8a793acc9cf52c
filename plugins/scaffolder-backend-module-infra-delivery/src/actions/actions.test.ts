import { mockCredentials } from '@backstage/backend-test-utils';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import { createCloudAccountAction } from './createCloudAccountAction';
import { createStackAction } from './createStackAction';
import { triggerRunAction } from './triggerRunAction';
import { InfraDeliveryClientFactory } from './clients';

type Call = { operationId: string; request: any };

/** A client that answers each operation from `answers` and records the calls. */
function fakeClients(answers: Record<string, (request: any) => unknown>) {
  const calls: Call[] = [];
  const credentialsSeen: unknown[] = [];
  const clients: InfraDeliveryClientFactory = credentials => {
    credentialsSeen.push(credentials);
    return {
      call: (async (operationId: string, request: any) => {
        calls.push({ operationId, request });
        const answer = answers[operationId];
        if (!answer) {
          throw new Error(`Unexpected call ${operationId}`);
        }
        return answer(request);
      }) as any,
    };
  };
  return { clients, calls, credentialsSeen };
}

const stack = {
  id: 'stack-1',
  givenId: 'network',
  changePipelineId: 'pipe-change',
  destroyPipelineId: 'pipe-destroy',
};

function run(status: string, extra: object = {}) {
  return {
    data: { id: 'run-1', pipelineId: 'pipe-change', status, ...extra },
  };
}

function apiError(status: number, code: string, message: string) {
  return new InfraDeliveryApiError(status, { code, message });
}

function logLines(ctx: ReturnType<typeof createMockActionContext>) {
  return (ctx.logger.info as jest.Mock).mock.calls.map(c => String(c[0]));
}

describe('infra-delivery:stack:create', () => {
  it('creates the stack as the task initiator and outputs its ids', async () => {
    const { clients, calls, credentialsSeen } = fakeClients({
      createStack: () => ({ data: { ...stack, organizationId: 'org' } }),
    });
    const credentials = mockCredentials.user('user:default/jane');
    const ctx = createMockActionContext({
      input: {
        projectId: 'proj',
        environmentId: 'env',
        name: 'Network',
        codeSourceId: 'code',
        path: 'infra/network',
        cloudAccountId: 'account-1',
      },
    });
    ctx.getInitiatorCredentials = async () => credentials;
    jest.spyOn(ctx.logger, 'info');
    await createStackAction({ clients }).handler(ctx as any);

    expect(credentialsSeen).toEqual([credentials]);
    expect(calls).toEqual([
      {
        operationId: 'createStack',
        request: {
          body: {
            data: expect.objectContaining({
              projectId: 'proj',
              environmentId: 'env',
              name: 'Network',
              codeSourceId: 'code',
              path: 'infra/network',
              cloudAccountId: 'account-1',
            }),
          },
        },
      },
    ]);
    expect(ctx.output).toHaveBeenCalledWith('stackId', 'stack-1');
    expect(ctx.output).toHaveBeenCalledWith('givenId', 'network');
    expect(ctx.output).toHaveBeenCalledWith('changePipelineId', 'pipe-change');
    expect(ctx.output).toHaveBeenCalledWith(
      'destroyPipelineId',
      'pipe-destroy',
    );
    // The stack's page in the portal, there before the catalog knows the stack.
    expect(ctx.output).toHaveBeenCalledWith(
      'stackPage',
      '/overview?stack=stack-1',
    );
  });

  it('links the new stack’s page in the task log, which stays when a later step fails', async () => {
    const { clients } = fakeClients({
      createStack: () => ({ data: stack }),
    });
    const ctx = createMockActionContext({
      input: { projectId: 'proj', environmentId: 'env', name: 'Network' },
    });
    jest.spyOn(ctx.logger, 'info');
    await createStackAction({
      clients,
      portalUrl: 'https://portal.example.com/infrastructure',
    }).handler(ctx as any);
    expect(logLines(ctx)).toContain(
      'Created stack network (stack-1); its page: https://portal.example.com/infrastructure/overview?stack=stack-1',
    );
  });

  it('requires the runner labels typed in the template’s field, or given as a list, each once', async () => {
    const bodies = async (runnerLabels?: string | string[]) => {
      const { clients, calls } = fakeClients({
        createStack: () => ({ data: stack }),
      });
      const ctx = createMockActionContext({
        input: {
          projectId: 'proj',
          environmentId: 'env',
          name: 'Network',
          runnerLabels,
        },
      });
      await createStackAction({ clients }).handler(ctx as any);
      return calls[0].request.body.data;
    };
    expect(await bodies('region=eu, env=prod env=prod')).toMatchObject({
      runnerLabels: ['env=prod', 'region=eu'],
    });
    expect(await bodies(['vpc', 'env=prod'])).toMatchObject({
      runnerLabels: ['env=prod', 'vpc'],
    });
    // None typed: any runner, as a stack created without the field.
    for (const none of [undefined, '', ' ', []]) {
      expect(await bodies(none)).not.toHaveProperty('runnerLabels');
    }
  });

  it('fails with the API’s error when the service refuses the input', async () => {
    const { clients } = fakeClients({
      createStack: () => {
        throw apiError(
          404,
          'InfraDelivery:Project:NOT_FOUND',
          'Project proj not found',
        );
      },
    });
    const ctx = createMockActionContext({
      input: { projectId: 'proj', environmentId: 'env', name: 'Network' },
    });
    await expect(
      createStackAction({ clients }).handler(ctx as any),
    ).rejects.toThrow('Project proj not found');
    expect(ctx.output).not.toHaveBeenCalled();
  });

  it('declares its input and output schemas', () => {
    const action = createStackAction({ clients: fakeClients({}).clients });
    expect(action.schema?.input).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['projectId', 'environmentId', 'name']),
    });
    expect(action.schema?.output).toMatchObject({
      properties: expect.objectContaining({
        stackId: expect.anything(),
        changePipelineId: expect.anything(),
      }),
    });
    expect(action.examples?.length).toBeGreaterThan(0);
  });
});

describe('infra-delivery:run:trigger', () => {
  it('triggers the change pipeline of a stack without waiting', async () => {
    const { clients, calls } = fakeClients({
      getStack: () => ({ data: stack }),
      triggerPipelineRun: () => run('QUEUED'),
    });
    const ctx = createMockActionContext({
      input: { stackId: 'stack-1', description: 'From the portal' },
    });
    await triggerRunAction({ clients }).handler(ctx as any);
    expect(calls.map(c => c.operationId)).toEqual([
      'getStack',
      'triggerPipelineRun',
    ]);
    expect(calls[1].request).toEqual({
      params: { id: 'pipe-change' },
      body: { data: { description: 'From the portal' } },
    });
    expect(ctx.output).toHaveBeenCalledWith('runId', 'run-1');
    expect(ctx.output).toHaveBeenCalledWith('runPage', '/runs/run-1');
    expect(ctx.output).toHaveBeenCalledWith('status', 'QUEUED');
    // In words for the template's output text, which showed "QUEUED" as it is.
    expect(ctx.output).toHaveBeenCalledWith('statusText', 'queued');
  });

  it('says in statusText why a queued run waits', async () => {
    const { clients } = fakeClients({
      getStack: () => ({ data: stack }),
      triggerPipelineRun: () =>
        run('QUEUED', {
          queueReason: 'Waits for run run-0, which holds the stack',
        }),
    });
    const ctx = createMockActionContext({ input: { stackId: 'stack-1' } });
    await triggerRunAction({ clients }).handler(ctx as any);
    expect(ctx.output).toHaveBeenCalledWith(
      'statusText',
      'queued (Waits for run run-0, which holds the stack)',
    );
  });

  it('links the run’s page in the task log, under the default page path without a portal address', async () => {
    const { clients } = fakeClients({
      triggerPipelineRun: () => run('QUEUED'),
    });
    const withUrl = createMockActionContext({ input: { pipelineId: 'p' } });
    jest.spyOn(withUrl.logger, 'info');
    await triggerRunAction({
      clients,
      portalUrl: 'https://portal.example.com/infra-delivery',
    }).handler(withUrl as any);
    expect(logLines(withUrl)).toContain(
      "The run's page: https://portal.example.com/infra-delivery/runs/run-1",
    );
    const withoutUrl = createMockActionContext({ input: { pipelineId: 'p' } });
    jest.spyOn(withoutUrl.logger, 'info');
    await triggerRunAction({ clients }).handler(withoutUrl as any);
    expect(logLines(withoutUrl)).toContain(
      "The run's page: /infra-delivery/runs/run-1",
    );
  });

  it('says what a run still running at the timeout is doing and where to follow it', async () => {
    const { clients } = fakeClients({
      triggerPipelineRun: () => run('QUEUED'),
      getPipelineRun: () =>
        run('RUNNING', { queueReason: 'Waiting for a runner' }),
      listStepExecutions: () => ({ data: [] }),
    });
    const ctx = createMockActionContext({
      input: { pipelineId: 'pipe-change', wait: true, timeoutSeconds: 2 },
    });
    await expect(
      triggerRunAction({ clients, pollIntervalMs: 50 }).handler(ctx as any),
    ).rejects.toThrow(
      'Run run-1 did not finish within 2 seconds: it is RUNNING (Waiting for a runner). Follow it on its page, /infra-delivery/runs/run-1. The run goes on; this task no longer follows it.',
    );
  });

  it('refuses both or neither of pipelineId and stackId', async () => {
    const { clients, calls } = fakeClients({});
    const action = triggerRunAction({ clients });
    await expect(
      action.handler(
        createMockActionContext({
          input: { stackId: 's', pipelineId: 'p' },
        }) as any,
      ),
    ).rejects.toThrow('Give exactly one of pipelineId and stackId');
    await expect(
      action.handler(createMockActionContext({ input: {} }) as any),
    ).rejects.toThrow('Give exactly one of pipelineId and stackId');
    expect(calls).toEqual([]);
  });

  it('waits for success, streaming run and step progress to the log', async () => {
    const statuses = [
      run('QUEUED', { queueReason: 'Stack busy' }),
      run('RUNNING'),
      run('SUCCEEDED'),
    ];
    const steps = [
      [{ id: 'st-1', name: 'Plan', status: 'PENDING' }],
      [{ id: 'st-1', name: 'Plan', status: 'RUNNING' }],
      [{ id: 'st-1', name: 'Plan', status: 'SUCCEEDED' }],
    ];
    let poll = 0;
    const { clients } = fakeClients({
      triggerPipelineRun: () => run('QUEUED'),
      getPipelineRun: () => statuses[Math.min(poll, 2)],
      listStepExecutions: () => ({ data: steps[Math.min(poll++, 2)] }),
    });
    const ctx = createMockActionContext({
      input: { pipelineId: 'pipe-change', wait: true, timeoutSeconds: 60 },
    });
    jest.spyOn(ctx.logger, 'info');
    await triggerRunAction({ clients, pollIntervalMs: 1 }).handler(ctx as any);
    expect(ctx.output).toHaveBeenCalledWith('status', 'SUCCEEDED');
    expect(ctx.output).toHaveBeenLastCalledWith('statusText', 'succeeded');
    expect(logLines(ctx)).toEqual([
      'Triggered run run-1 of pipeline pipe-change: QUEUED',
      "The run's page: /infra-delivery/runs/run-1",
      'Run run-1: QUEUED (Stack busy)',
      'Run run-1: RUNNING',
      '  step Plan: RUNNING',
      'Run run-1: SUCCEEDED',
      '  step Plan: SUCCEEDED',
    ]);
  });

  /** The task log of a waited-for run that reads as `polls`, one per poll (the last repeats). */
  async function logOfWaitedRun(triggered: unknown, polls: unknown[]) {
    let poll = 0;
    const { clients } = fakeClients({
      triggerPipelineRun: () => triggered,
      getPipelineRun: () => polls[Math.min(poll++, polls.length - 1)],
      listStepExecutions: () => ({ data: [] }),
    });
    const ctx = createMockActionContext({
      input: { pipelineId: 'pipe-change', wait: true, timeoutSeconds: 60 },
    });
    jest.spyOn(ctx.logger, 'info');
    await triggerRunAction({ clients, pollIntervalMs: 1 }).handler(ctx as any);
    return logLines(ctx);
  }

  it('says in the task log when the run waits for a runner, until one claims it', async () => {
    const waiting = {
      queueState: {
        preflightBlockedByAdmissionCondition: false,
        stackRunPreflightPending: false,
        waitingForRunner: true,
        reason: 'No runner is connected to this organization',
      },
    };
    expect(
      await logOfWaitedRun(run('RUNNING', waiting), [
        run('RUNNING', waiting),
        run('SUCCEEDED'),
      ]),
    ).toEqual([
      'Triggered run run-1 of pipeline pipe-change: RUNNING (No runner is connected to this organization)',
      "The run's page: /infra-delivery/runs/run-1",
      'Run run-1: RUNNING (No runner is connected to this organization)',
      'Run run-1: SUCCEEDED',
    ]);
  });

  it('says once that the free runners are silent, not at every poll as the seconds grow', async () => {
    const silentFor = (seconds: number) => ({
      queueState: {
        preflightBlockedByAdmissionCondition: false,
        stackRunPreflightPending: false,
        waitingForRunner: false,
        runnersSilent: true,
        reason: `Queued for a runner: the one connected runner, build-host-1, is free but has not asked for work for ${seconds}s; it may have stopped (killed, or its host lost)`,
      },
    });
    expect(
      await logOfWaitedRun(run('RUNNING'), [
        run('RUNNING', silentFor(12)),
        run('RUNNING', silentFor(17)),
        run('RUNNING', silentFor(22)),
        run('SUCCEEDED'),
      ]),
    ).toEqual([
      'Triggered run run-1 of pipeline pipe-change: RUNNING',
      "The run's page: /infra-delivery/runs/run-1",
      'Run run-1: RUNNING (Queued for a runner: the one connected runner, build-host-1, is free but has not asked for work for 12s; it may have stopped (killed, or its host lost))',
      'Run run-1: SUCCEEDED',
    ]);
  });

  it('fails the step when the run fails while waiting', async () => {
    const { clients } = fakeClients({
      triggerPipelineRun: () => run('QUEUED'),
      getPipelineRun: () =>
        run('FAILED', {
          error: { code: 'InfraDelivery:Step:FAILED', message: 'plan failed' },
        }),
      listStepExecutions: () => ({
        data: [{ id: 'st-1', name: 'Plan', status: 'FAILED' }],
      }),
    });
    const ctx = createMockActionContext({
      input: { pipelineId: 'pipe-change', wait: true },
    });
    const failure = await triggerRunAction({
      clients,
      pollIntervalMs: 1,
      portalUrl: 'https://portal.example.com/infra-delivery',
    })
      .handler(ctx as any)
      .catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    // The task log shows the error's stack: the message, without source paths.
    // The failed step shows no output links: the error names the run's page.
    expect((failure as Error).stack).toBe(
      'Error: Run run-1 ended FAILED: plan failed. Its steps and their logs are on its page: https://portal.example.com/infra-delivery/runs/run-1',
    );
    expect(ctx.output).toHaveBeenCalledWith('runId', 'run-1');
    expect(ctx.output).toHaveBeenCalledWith('status', 'FAILED');
  });

  it('fails the step when the run does not finish in time', async () => {
    const { clients } = fakeClients({
      triggerPipelineRun: () => run('QUEUED'),
      getPipelineRun: () => run('WAITING_FOR_APPROVAL'),
      listStepExecutions: () => ({ data: [] }),
    });
    const ctx = createMockActionContext({
      input: { pipelineId: 'pipe-change', wait: true, timeoutSeconds: 1 },
    });
    const started = Date.now();
    await expect(
      triggerRunAction({
        clients,
        pollIntervalMs: 50,
        portalUrl: 'https://portal.example.com/infra-delivery',
      }).handler(ctx as any),
    ).rejects.toThrow(
      // What waits, where to act on it, and that the run goes on without the task.
      'Run run-1 did not finish within 1 second: it waits for approval of its plan. Approve or reject it on its page, https://portal.example.com/infra-delivery/runs/run-1. The run goes on; this task no longer follows it.',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(ctx.output).toHaveBeenCalledWith('status', 'WAITING_FOR_APPROVAL');
    expect(ctx.output).toHaveBeenCalledWith(
      'statusText',
      'waiting for approval of its plan',
    );
  });

  it('passes a refusal of the API on (e.g. a VIEWER may not trigger)', async () => {
    const { clients } = fakeClients({
      triggerPipelineRun: () => {
        throw apiError(
          403,
          'InfraDelivery:Auth:INSUFFICIENT_ROLE',
          'This needs the MEMBER role; the caller is VIEWER',
        );
      },
    });
    const ctx = createMockActionContext({ input: { pipelineId: 'p' } });
    await expect(
      triggerRunAction({ clients }).handler(ctx as any),
    ).rejects.toMatchObject({
      status: 403,
      body: { code: 'InfraDelivery:Auth:INSUFFICIENT_ROLE' },
    });
  });
});

describe('infra-delivery:cloud-account:create', () => {
  it('registers the account and outputs its template URL', async () => {
    const { clients, calls } = fakeClients({
      createCloudAccount: () => ({
        data: { id: 'acc-1', givenId: 'production' },
      }),
      getCloudAccountTemplateUrl: () => ({
        data: {
          templateUrl: 'https://portal/template?sig=1',
          quickCreateUrl: 'https://console.aws.amazon.com/quick',
          version: '1',
        },
      }),
    });
    const ctx = createMockActionContext({
      input: {
        name: 'Production',
        givenId: 'production',
        cloudId: '123456789012',
      },
    });
    await createCloudAccountAction({ clients }).handler(ctx as any);
    expect(calls[0]).toEqual({
      operationId: 'createCloudAccount',
      request: {
        body: {
          data: {
            name: 'Production',
            givenId: 'production',
            cloudId: '123456789012',
          },
        },
      },
    });
    expect(calls[1]).toEqual({
      operationId: 'getCloudAccountTemplateUrl',
      request: { params: { id: 'acc-1' } },
    });
    expect(ctx.output).toHaveBeenCalledWith('accountId', 'acc-1');
    expect(ctx.output).toHaveBeenCalledWith(
      'templateUrl',
      'https://portal/template?sig=1',
    );
    expect(ctx.output).toHaveBeenCalledWith(
      'quickCreateUrl',
      'https://console.aws.amazon.com/quick',
    );
  });

  it('outputs no quick-create link when the service publishes no template to S3', async () => {
    const { clients } = fakeClients({
      createCloudAccount: () => ({
        data: { id: 'acc-2', givenId: 'staging' },
      }),
      getCloudAccountTemplateUrl: () => ({
        data: { templateUrl: 'https://portal/template?sig=2', version: '1' },
      }),
    });
    const ctx = createMockActionContext({
      input: { name: 'Staging', givenId: 'staging', cloudId: '123456789013' },
    });

    await createCloudAccountAction({ clients }).handler(ctx as any);

    expect(ctx.output).toHaveBeenCalledWith(
      'templateUrl',
      'https://portal/template?sig=2',
    );
    expect(
      (ctx.output as jest.Mock).mock.calls.map(([name]) => name).sort(),
    ).toEqual(['accountId', 'templateUrl']);
  });

  it('declares a 12-digit account id in its input schema', () => {
    const action = createCloudAccountAction({
      clients: fakeClients({}).clients,
    });
    expect((action.schema?.input as any).properties.cloudId.pattern).toBe(
      '^\\d{12}$',
    );
  });
});
