import { Api } from './api';
import { syntheticPlan } from './dataset/syntheticPlan';
import { DatasetManifest } from './dataset/generate';

export interface IngestionResult {
  resources: number;
  /** The runner's completion request, from send to answer. */
  totalMs: number;
  /** The backend's longest event-loop stall while it ran. */
  maxStallMs: number;
}

/**
 * A 10,000-resource plan through the real ingestion path: a new stack, a run of its change
 * pipeline, a runner's claim of the plan step, and the completion that carries the plan.
 */
export async function measurePlanIngestion(
  api: Api,
  manifest: DatasetManifest,
  resources: number,
): Promise<IngestionResult> {
  const suffix = Date.now().toString(36);
  const stack = (
    await api.expect(201, 'POST', '/api/infra-delivery/stacks', {
      data: {
        projectId: manifest.projectId,
        environmentId: manifest.environmentId,
        name: `Ingestion ${suffix}`,
        givenId: `ingestion-${suffix}`,
      },
    })
  ).data;
  await api.expect(
    201,
    'POST',
    `/api/infra-delivery/pipelines/${stack.changePipelineId}/runs`,
    { data: { description: 'bench ingestion' } },
  );
  // Runners are service accounts with an API key.
  const account = (
    await api.expect(201, 'POST', '/api/infra-delivery/service-accounts', {
      data: { name: `Bench runner ${suffix}`, role: 'MEMBER' },
    })
  ).data;
  const key = (
    await api.expect(201, 'POST', '/api/infra-delivery/api-keys', {
      data: {
        name: `runner-${suffix}`,
        ownerType: 'SERVICE_ACCOUNT',
        ownerId: account.id,
      },
    })
  ).data.key;
  const runner = api.withToken(key);
  let claim: any;
  for (let attempt = 0; attempt < 50 && !claim; attempt++) {
    const result = await runner.request(
      'POST',
      '/api/infra-delivery/runner/claims',
      {
        data: { runnerId: 'bench-runner' },
      },
    );
    if (result.status === 200) claim = result.json.data;
    else if (result.status === 204) await new Promise(r => setTimeout(r, 200));
    else
      throw new Error(`claim: ${result.status} ${result.text.slice(0, 300)}`);
  }
  if (!claim) throw new Error('No plan step became claimable');
  const body = {
    data: {
      leaseToken: claim.leaseToken,
      status: 'SUCCEEDED',
      planJson: syntheticPlan(resources, { seed: suffix }),
    },
  };
  await api.expect(204, 'POST', '/api/bench/event-loop/reset');
  const started = performance.now();
  await runner.expect(
    200,
    'POST',
    `/api/infra-delivery/runner/step-executions/${claim.stepExecution.id}/complete`,
    body,
  );
  const totalMs = performance.now() - started;
  const loop = await api.expect(200, 'GET', '/api/bench/event-loop');
  return { resources, totalMs, maxStallMs: loop.maxMs };
}
