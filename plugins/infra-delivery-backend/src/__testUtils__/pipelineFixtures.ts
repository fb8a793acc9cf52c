import {
  PipelineRun,
  PipelineStep,
  Role,
  RunnerClaim,
  Stack,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { InfraDeliveryTestClient } from './testBackend';

/** Anyone holding a token of the organization. */
type WithToken = { token: string };

/** Fails loudly, with the answer's body, when a set-up call does not succeed. */
export function expectStatus(response: request.Response, status: number) {
  if (response.status !== status) {
    throw new Error(
      `Expected ${status} from ${response.request.method} ${
        response.request.url
      }, got ${response.status}: ${JSON.stringify(response.body)}`,
    );
  }
}

let fixtureCounter = 0;
function nextSuffix(): string {
  fixtureCounter += 1;
  return String(fixtureCounter);
}

/** A project with one environment. */
export async function createEnvironment(
  api: InfraDeliveryTestClient,
  owner: WithToken,
): Promise<{ projectId: string; environmentId: string }> {
  const project = await api.post(
    '/projects',
    { data: { givenId: `project-${nextSuffix()}`, name: 'Project' } },
    owner.token,
  );
  expectStatus(project, 201);
  const environment = await api.post(
    `/projects/${project.body.data.id}/environments`,
    { data: { givenId: `env-${nextSuffix()}`, name: 'Environment' } },
    owner.token,
  );
  expectStatus(environment, 201);
  return {
    projectId: project.body.data.id,
    environmentId: environment.body.data.id,
  };
}

/**
 * A stack (with its change and destroy pipelines) in a new project and environment, or in the
 * given ones.
 */
export async function createStack(
  api: InfraDeliveryTestClient,
  owner: WithToken,
  options: {
    name?: string;
    autoApprove?: boolean;
    projectId?: string;
    environmentId?: string;
  } = {},
): Promise<Stack> {
  const place =
    options.projectId && options.environmentId
      ? { projectId: options.projectId, environmentId: options.environmentId }
      : await createEnvironment(api, owner);
  const response = await api.post(
    '/stacks',
    {
      data: {
        ...place,
        name: options.name ?? `Stack ${nextSuffix()}`,
        ...(options.autoApprove !== undefined
          ? { autoApprove: options.autoApprove }
          : {}),
      },
    },
    owner.token,
  );
  expectStatus(response, 201);
  return response.body.data;
}

/** A pipeline that is not a stack's, with the given steps (one approval by default). */
export async function createPipeline(
  api: InfraDeliveryTestClient,
  owner: WithToken,
  options: { projectId?: string; steps?: PipelineStep[] } = {},
) {
  const projectId =
    options.projectId ?? (await createEnvironment(api, owner)).projectId;
  const response = await api.post(
    '/pipelines',
    {
      data: {
        projectId,
        givenId: `pipeline-${nextSuffix()}`,
        name: 'Pipeline',
        steps: options.steps ?? [{ type: 'approval', name: 'Approve' }],
      },
    },
    owner.token,
  );
  expectStatus(response, 201);
  return response.body.data as { id: string; projectId: string };
}

/** Triggers a run of a pipeline. */
export async function trigger(
  api: InfraDeliveryTestClient,
  caller: WithToken,
  pipelineId: string,
): Promise<PipelineRun> {
  const response = await api.post(
    `/pipelines/${pipelineId}/runs`,
    { data: {} },
    caller.token,
  );
  expectStatus(response, 201);
  return response.body.data;
}

/** A service account of the owner's organization with an API key: a runner's bearer token. */
export async function createRunner(
  api: InfraDeliveryTestClient,
  owner: WithToken,
  role: Exclude<Role, 'OWNER'> = 'MEMBER',
): Promise<{
  key: string;
  apiKeyId: string;
  serviceAccountId: string;
  serviceAccountName: string;
}> {
  const account = await api.post(
    '/service-accounts',
    { data: { name: `runner ${nextSuffix()}`, role } },
    owner.token,
  );
  expectStatus(account, 201);
  const apiKey = await api.post(
    '/api-keys',
    {
      data: {
        name: `runner key ${nextSuffix()}`,
        ownerType: 'SERVICE_ACCOUNT',
        ownerId: account.body.data.id,
      },
    },
    owner.token,
  );
  expectStatus(apiKey, 201);
  return {
    key: apiKey.body.data.key,
    apiKeyId: apiKey.body.data.id,
    serviceAccountId: account.body.data.id,
    serviceAccountName: account.body.data.name,
  };
}

/** Claims the oldest claimable step; fails unless there is one. */
export async function claim(
  api: InfraDeliveryTestClient,
  runnerKey: string,
  runnerId = 'runner-1',
): Promise<RunnerClaim> {
  const response = await api.post(
    '/runner/claims',
    { data: { runnerId } },
    runnerKey,
  );
  expectStatus(response, 200);
  return response.body.data;
}

/**
 * A claim sent with fetch to `api`'s instance, so that the test can go away while the service
 * holds it (`signal`), as a killed runner's connection does.
 */
export function sendClaim(
  api: InfraDeliveryTestClient,
  runnerKey: string,
  data: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Response> {
  const { port } = api.server.address() as AddressInfo;
  return fetch(`http://127.0.0.1:${port}/api/infra-delivery/runner/claims`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${runnerKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ data }),
    signal,
  });
}

/** Signs a runner off (204): it stops, and its id is free for another account's runner. */
export async function signOff(
  api: InfraDeliveryTestClient,
  runnerKey: string,
  runnerId: string,
): Promise<void> {
  expectStatus(
    await api.post('/runner/sign-offs', { data: { runnerId } }, runnerKey),
    204,
  );
}

/** Reports a claimed step's result. */
export async function complete(
  api: InfraDeliveryTestClient,
  runnerKey: string,
  claimed: RunnerClaim,
  result: Record<string, unknown> = { status: 'SUCCEEDED' },
): Promise<StepExecution> {
  const response = await api.post(
    `/runner/step-executions/${claimed.stepExecution.id}/complete`,
    { data: { leaseToken: claimed.leaseToken, ...result } },
    runnerKey,
  );
  expectStatus(response, 200);
  return response.body.data;
}

/** A run's step executions, by position. */
export async function getSteps(
  api: InfraDeliveryTestClient,
  caller: WithToken,
  runId: string,
): Promise<StepExecution[]> {
  const response = await api.get(
    `/pipeline-runs/${runId}/step-executions`,
    caller.token,
  );
  expectStatus(response, 200);
  return response.body.data;
}

export async function getRun(
  api: InfraDeliveryTestClient,
  caller: WithToken,
  runId: string,
): Promise<PipelineRun> {
  const response = await api.get(`/pipeline-runs/${runId}`, caller.token);
  expectStatus(response, 200);
  return response.body.data;
}

/** A run action (approve, reject, cancel, retry) that must succeed. */
export async function act(
  api: InfraDeliveryTestClient,
  caller: WithToken,
  runId: string,
  action: 'approve' | 'reject' | 'cancel' | 'retry',
  comment?: string,
): Promise<PipelineRun> {
  const response = await api.post(
    `/pipeline-runs/${runId}/${action}`,
    { data: comment ? { comment } : {} },
    caller.token,
  );
  expectStatus(response, 200);
  return response.body.data;
}
