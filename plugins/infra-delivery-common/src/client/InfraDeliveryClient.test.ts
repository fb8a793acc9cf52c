import { InfraDeliveryClient } from './InfraDeliveryClient';

function recordingClient() {
  const requests: { url: string; init: RequestInit }[] = [];
  const client = new InfraDeliveryClient({
    baseUrl: async () => 'http://service/api/infra-delivery',
    fetch: (async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return new Response(JSON.stringify({ data: { id: 'run-1' } }), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch,
  });
  return { client, requests };
}

describe('InfraDeliveryClient', () => {
  it('sends the Idempotency-Key of an idempotent operation', async () => {
    const { client, requests } = recordingClient();
    await client.call('triggerPipelineRun', {
      params: { id: 'pipeline-1' },
      body: { data: {} },
      idempotencyKey: 'retry-safe-1',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0].url).toBe(
      'http://service/api/infra-delivery/pipelines/pipeline-1/runs',
    );
    expect(requests[0].init.headers).toEqual({
      'Content-Type': 'application/json',
      'Idempotency-Key': 'retry-safe-1',
    });
  });

  it('sends no Idempotency-Key when none is given', async () => {
    const { client, requests } = recordingClient();
    await client.call('rollbackDeployment', { params: { id: 'd-1' } });
    expect(requests[0].init.headers).toEqual({});
    expect(requests[0].init.method).toBe('POST');
  });
});
