import { ProcessApi, ProcessResponse } from './processApi';

/** What the load does to one organization: reads and writes as a team and its runners would. */
export interface LoadWorld {
  token: string;
  runnerKey: string;
  stacks: { id: string; changePipelineId: string }[];
  planJson: Record<string, unknown>;
}

export interface LoadStats {
  requests: number;
  errors: { operation: string; status: number; body: unknown }[];
  /** Latencies in milliseconds, in the order the answers came. */
  latencies: number[];
  /** Latencies per operation, in milliseconds. */
  perOperation: Record<string, number[]>;
  seconds: number;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) {
    return 0;
  }
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  ];
}

type Operation = (
  world: LoadWorld,
  call: (
    name: string,
    expected: number[],
    method: 'GET' | 'POST',
    path: string,
    options?: { body?: unknown; token?: string },
  ) => Promise<ProcessResponse>,
  runIds: string[],
) => Promise<void>;

const pick = <T>(items: T[]): T =>
  items[Math.floor(Math.random() * items.length)];

/** The mix, by weight: mostly reads, with triggers and the runner protocol as the writes. */
const OPERATIONS: [number, Operation][] = [
  [
    20,
    async (_w, call) =>
      void (await call('list runs', [200], 'GET', '/pipeline-runs?limit=20')),
  ],
  [
    15,
    async (_w, call) =>
      void (await call('list stacks', [200], 'GET', '/stacks?limit=20')),
  ],
  [
    15,
    async (_w, call, runIds) => {
      if (runIds.length > 0) {
        await call('get run', [200], 'GET', `/pipeline-runs/${pick(runIds)}`);
      }
    },
  ],
  [
    10,
    async (w, call) =>
      void (await call(
        'get stack',
        [200],
        'GET',
        `/stacks/${pick(w.stacks).id}`,
      )),
  ],
  [
    10,
    async (w, call, runIds) => {
      const response = await call(
        'trigger run',
        [201],
        'POST',
        `/pipelines/${pick(w.stacks).changePipelineId}/runs`,
        { body: { data: { description: 'soak' } } },
      );
      if (response.status === 201) {
        runIds.push(response.body.data.id);
        if (runIds.length > 5000) {
          runIds.splice(0, 1000);
        }
      }
    },
  ],
  [
    30,
    async (w, call) => {
      const claim = await call(
        'claim step',
        [200, 204],
        'POST',
        '/runner/claims',
        {
          token: w.runnerKey,
          body: { data: { runnerId: 'soak-runner' } },
        },
      );
      if (claim.status !== 200) {
        return;
      }
      const step = claim.body.data.stepExecution;
      await call(
        'complete step',
        [200],
        'POST',
        `/runner/step-executions/${step.id}/complete`,
        {
          token: w.runnerKey,
          body: {
            data: {
              leaseToken: claim.body.data.leaseToken,
              status: 'SUCCEEDED',
              planJson: w.planJson,
            },
          },
        },
      );
    },
  ],
];
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, [weight]) => sum + weight, 0);

function randomOperation(): Operation {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [weight, operation] of OPERATIONS) {
    roll -= weight;
    if (roll < 0) {
      return operation;
    }
  }
  return OPERATIONS[0][1];
}

/**
 * Closed-loop load: `concurrency` clients, each sending its next request when the last one
 * was answered, for `seconds`. `onSecond` is called about once a second (for RSS samples).
 */
export async function runMixedLoad(options: {
  api: ProcessApi;
  world: LoadWorld;
  concurrency: number;
  seconds: number;
  runIds: string[];
  onSecond?: (elapsedSeconds: number) => void;
}): Promise<LoadStats> {
  const { api, world, runIds } = options;
  const stats: LoadStats = {
    requests: 0,
    errors: [],
    latencies: [],
    perOperation: {},
    seconds: options.seconds,
  };
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const call = async (
    name: string,
    expected: number[],
    method: 'GET' | 'POST',
    path: string,
    callOptions: { body?: unknown; token?: string } = {},
  ) => {
    const t0 = performance.now();
    const response = await api.call(method, path, {
      token: callOptions.token ?? world.token,
      body: callOptions.body,
    });
    stats.latencies.push(performance.now() - t0);
    stats.requests += 1;
    (stats.perOperation[name] ??= []).push(performance.now() - t0);
    if (!expected.includes(response.status)) {
      stats.errors.push({
        operation: name,
        status: response.status,
        body: response.body,
      });
    }
    return response;
  };
  const timer = setInterval(
    () => options.onSecond?.((Date.now() - started) / 1000),
    1000,
  );
  try {
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (Date.now() < deadline) {
          await randomOperation()(world, call, runIds);
        }
      }),
    );
  } finally {
    clearInterval(timer);
  }
  stats.seconds = (Date.now() - started) / 1000;
  return stats;
}

/** Least-squares slope of `points` (x in seconds, y in bytes), in MB per minute. */
export function slopeMbPerMinute(
  points: { t: number; bytes: number }[],
): number {
  const n = points.length;
  if (n < 2) {
    return 0;
  }
  const meanT = points.reduce((s, p) => s + p.t, 0) / n;
  const meanB = points.reduce((s, p) => s + p.bytes, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - meanT) * (p.bytes - meanB);
    den += (p.t - meanT) ** 2;
  }
  return den === 0 ? 0 : ((num / den) * 60) / (1024 * 1024);
}
