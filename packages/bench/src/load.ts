import autocannon from 'autocannon';

export interface LoadResult {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  requests: number;
  errors: number;
  non2xx: number;
  /**
   * The backend process's CPU time (all its threads) per request answered during the load,
   * in µs: unlike requests/s, it hardly moves with what else the machine runs.
   */
  backendCpuUsPerRequest?: number;
}

/** Loads one URL with autocannon for `duration` seconds over `connections` connections. */
export async function load(options: {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A body for each request instead of `body`'s for all. */
  nextBody?: () => string;
  connections: number;
  duration: number;
}): Promise<LoadResult> {
  const { nextBody } = options;
  const result = await autocannon({
    url: options.url,
    method: options.method,
    headers: {
      ...options.headers,
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body,
    ...(nextBody && {
      requests: [
        { setupRequest: request => ({ ...request, body: nextBody() }) },
      ],
    }),
    connections: options.connections,
    pipelining: 1,
    duration: options.duration,
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
