import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { Api } from './api';
import { startSteadyWrites } from './steadyWrites';
import {
  BACKSTAGE_STATIC_TOKEN,
  backendNodeFlags,
  startBackend,
} from './backendProcess';
import { startBareFloor } from './bareFloor';
import { BENCH_ROOT, BenchDatabase } from './databases';
import {
  BENCH_EMAIL,
  BENCH_PASSWORD,
  DatasetManifest,
} from './dataset/generate';
import { benchEndpoints, Endpoint, PAGE_SIZE } from './endpoints';
import { measurePlanIngestion } from './ingestion';
import { load } from './load';
import { BenchOptions } from './options';
import { BenchReport, EndpointFigures, markdownReport } from './report';
import { captureStatements, measureSqlFloor, Statement } from './sqlFloor';

const DEEP_PAGES = 10_000;
const PLAN_RESOURCES = 10_000;
/** Query strings at least this long get a floor of their own (the 200-id lists' are ~8 KB). */
const LONG_QUERY = 2048;

function queryOf(path: string): string {
  const at = path.indexOf('?');
  return at < 0 ? '' : path.slice(at + 1);
}

/** The cursor's scope leaves the page size out: walk in pages of this size. */
const WALK_PAGE = 500;

/**
 * Walks the runs list through the API, as a client would, to the position `pages` pages of
 * PAGE_SIZE deep: in pages of WALK_PAGE, whose cursors continue any page size.
 */
async function walkRuns(api: Api, pages: number) {
  let cursor: string | undefined;
  let afterId = '';
  const requests = (pages * PAGE_SIZE) / WALK_PAGE;
  for (let page = 0; page < requests; page++) {
    const body = await api.expect(
      200,
      'GET',
      `/api/infra-delivery/pipeline-runs?limit=${WALK_PAGE}${
        cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
      }`,
    );
    cursor = body.meta.nextCursor;
    afterId = body.data[body.data.length - 1].id;
    if (!cursor) throw new Error(`The runs list ended after ${page + 1} pages`);
  }
  return { cursor: cursor!, afterId, pages };
}

/** A fixed one-hour window an hour ago: cached for five minutes after the first answer. */
function metricQuery(manifest: DatasetManifest) {
  const end = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3600_000);
  const start = new Date(end.getTime() - 3600_000);
  return new URLSearchParams({
    cloudAccountId: manifest.cloudAccountId,
    region: 'eu-west-1',
    namespace: 'AWS/ECS',
    metricName: 'CPUUtilization',
    statistic: 'Average',
    period: '60',
    startTime: start.toISOString(),
    endTime: end.toISOString(),
    dimension: 'ServiceName=svc-0',
  }).toString();
}

async function waitForCatalog(
  baseUrl: string,
  expected: number,
  waitMinutes: number,
  log: (line: string) => void,
) {
  // At most --catalog-wait minutes: past that the peer is measured with what the catalog holds.
  const started = Date.now();
  const deadline = started + waitMinutes * 60_000;
  let count = 0;
  while (Date.now() < deadline) {
    const response = await fetch(
      `${baseUrl}/api/catalog/entities/by-query?limit=1&filter=kind=resource`,
      { headers: { authorization: `Bearer ${BACKSTAGE_STATIC_TOKEN}` } },
    );
    if (response.ok) {
      count = (await response.json()).totalItems;
      if (count >= expected) break;
    }
    await new Promise(r => setTimeout(r, 3000));
  }
  log(
    `catalog holds ${count} of ${expected} bench entities after ${(
      (Date.now() - started) /
      60_000
    ).toFixed(1)} minutes`,
  );
  return count;
}

export async function runBenchmark(options: {
  options: BenchOptions;
  database: BenchDatabase;
  manifest: DatasetManifest;
  generated: boolean;
  log: (line: string) => void;
}) {
  const { database, manifest, log } = options;
  const { connections, duration, only } = options.options;
  const tagged = (line: string) => log(`[${database.tag}] ${line}`);
  const backend = await startBackend({
    database,
    port: options.options.port,
    catalogEntities: manifest.sizes.catalogEntities,
    fromSources: options.options.fromSources,
    log,
  });
  const knex = database.open();
  let bare: Awaited<ReturnType<typeof startBareFloor>> | undefined;
  try {
    const anonymous = new Api(backend.baseUrl);
    const token = (
      await anonymous.expect(200, 'POST', '/api/infra-delivery/auth/token', {
        data: { email: BENCH_EMAIL, password: BENCH_PASSWORD },
      })
    ).data.accessToken;
    const api = anonymous.withToken(token);
    const memory = async (when: string) => {
      const m = await api.expect(200, 'GET', '/api/bench/memory');
      tagged(
        `memory ${when}: RSS ${m.rssMb} MB, V8 heap ${m.heapUsedMb}/${m.heapTotalMb} MB, external ${m.externalMb} MB`,
      );
      return m;
    };
    await memory('when ready');
    // The local cloud driver answers metrics once the account is connected (409: it is).
    const connected = await api.request(
      'POST',
      `/api/infra-delivery/cloud-accounts/${manifest.cloudAccountId}/connect-local`,
    );
    if (connected.status !== 200 && connected.status !== 409) {
      throw new Error(`connect-local: ${connected.status} ${connected.text}`);
    }

    const perWalk = WALK_PAGE / PAGE_SIZE;
    const pages =
      Math.floor(
        Math.min(DEEP_PAGES, manifest.sizes.runs / PAGE_SIZE - 2) / perWalk,
      ) * perWalk;
    const walkStarted = Date.now();
    const deep = await walkRuns(api, pages);
    tagged(
      `walked ${pages} pages in ${((Date.now() - walkStarted) / 1000).toFixed(
        1,
      )} s`,
    );
    await memory('after the walk');

    let endpoints: Endpoint[] = benchEndpoints(manifest, deep, {
      triggerPipelineId: manifest.pipelineIds[manifest.pipelineIds.length - 1],
      metricQuery: metricQuery(manifest),
    });
    if (only.length) endpoints = endpoints.filter(e => only.includes(e.key));

    // One real answer of each endpoint: the bytes both floors serve.
    const responses = new Map<string, Buffer>();
    const statements = new Map<string, Statement[]>();
    for (const endpoint of endpoints) {
      const result = await api.request(
        endpoint.method,
        endpoint.path,
        endpoint.body ? JSON.parse(endpoint.body) : undefined,
      );
      if (result.status >= 300) {
        throw new Error(
          `${endpoint.title}: ${result.status} ${result.text.slice(0, 300)}`,
        );
      }
      const bytes = Buffer.from(result.text);
      responses.set(endpoint.key, bytes);
      await fetch(`${backend.baseUrl}/api/bench/responses/${endpoint.key}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      if (endpoint.store) {
        statements.set(
          endpoint.key,
          await captureStatements(knex, endpoint.store),
        );
      }
    }
    bare = await startBareFloor(responses, options.options.port + 1);

    const authorization = { authorization: api.authorization };
    /** A load on the backend, with the backend's CPU time per answered request. */
    const loadBackend = async (loadOptions: Parameters<typeof load>[0]) => {
      const cpuBefore = backend.cpuMs();
      const result = await load(loadOptions);
      const cpuMs = backend.cpuMs() - cpuBefore;
      return {
        ...result,
        backendCpuUsPerRequest:
          result.requests > 0 ? (cpuMs * 1000) / result.requests : undefined,
      };
    };
    /** `work`, with the endpoint's writes sent alongside it while it runs. */
    const withWritesAlongside = async <T>(
      endpoint: Endpoint,
      work: () => Promise<T>,
    ): Promise<[T, { sent: number; failed: number } | undefined]> => {
      if (!endpoint.alongside) {
        return [await work(), undefined];
      }
      const writes = startSteadyWrites(api, endpoint.alongside);
      try {
        return [await work(), await writes.stop()];
      } finally {
        // Stopped already unless `work` failed; the writes must not outlive it either way.
        await writes.stop();
      }
    };
    const figures: EndpointFigures[] = [];
    for (const endpoint of endpoints) {
      const entry: EndpointFigures = {
        key: endpoint.key,
        title: endpoint.title,
        list: endpoint.list,
        bytes: responses.get(endpoint.key)!.length,
        byConnections: {},
      };
      // A second of warm-up (JIT, caches), not recorded.
      await endpoint.beforeLoad?.(knex);
      await withWritesAlongside(endpoint, () =>
        load({
          url: `${backend.baseUrl}${endpoint.path}`,
          method: endpoint.method,
          headers: authorization,
          body: endpoint.body,
          nextBody: endpoint.nextBody,
          connections: 4,
          duration: 1,
        }),
      );
      for (const c of connections) {
        await endpoint.beforeLoad?.(knex);
        await api.expect(204, 'POST', '/api/bench/event-loop/reset');
        const [measured, written] = await withWritesAlongside(endpoint, () =>
          loadBackend({
            url: `${backend.baseUrl}${endpoint.path}`,
            method: endpoint.method,
            headers: authorization,
            body: endpoint.body,
            nextBody: endpoint.nextBody,
            connections: c,
            duration,
          }),
        );
        const loop = await api.expect(200, 'GET', '/api/bench/event-loop');
        const middlewareFloor = await loadBackend({
          url: `${backend.baseUrl}/api/bench/responses/${endpoint.key}`,
          method: 'GET',
          connections: c,
          duration,
        });
        // A long query string (the 200-id lists) is taken apart by Backstage's root app before
        // any plugin sees it: the same bytes asked for with the same query string show what
        // that costs on its own.
        const query = queryOf(endpoint.path);
        const queryFloor =
          query.length >= LONG_QUERY
            ? await loadBackend({
                url: `${backend.baseUrl}/api/bench/responses/${endpoint.key}?${query}`,
                method: 'GET',
                connections: c,
                duration,
              })
            : undefined;
        const bareFloor = await load({
          url: `${bare.baseUrl}/${endpoint.key}`,
          method: 'GET',
          connections: c,
          duration,
        });
        const captured = statements.get(endpoint.key);
        const sqlFloor = captured
          ? await measureSqlFloor(knex, captured, {
              concurrency: c,
              seconds: duration,
            })
          : undefined;
        entry.byConnections[c] = {
          backend: measured,
          middlewareFloor,
          queryFloor,
          bareFloor,
          sqlFloor,
          maxStallMs: loop.maxMs,
        };
        tagged(
          `${endpoint.title} ×${c}: p50 ${measured.p50} ms, p99 ${
            measured.p99
          } ms, ${measured.requestsPerSecond.toFixed(0)} req/s` +
            ` (middleware floor ${middlewareFloor.requestsPerSecond.toFixed(
              0,
            )}${
              queryFloor
                ? `, with this query string ${queryFloor.requestsPerSecond.toFixed(
                    0,
                  )} at ${queryFloor.backendCpuUsPerRequest?.toFixed(
                    0,
                  )} µs/request`
                : ''
            }, bare ${bareFloor.requestsPerSecond.toFixed(0)}` +
            `, backend CPU ${measured.backendCpuUsPerRequest?.toFixed(
              0,
            )} µs/request, middleware floor's ${middlewareFloor.backendCpuUsPerRequest?.toFixed(
              0,
            )}` +
            `${
              sqlFloor
                ? `, SQL ${sqlFloor.requestsPerSecond.toFixed(
                    0,
                  )} at p50 ${sqlFloor.p50.toFixed(2)} ms`
                : ''
            }), stall ${loop.maxMs.toFixed(1)} ms${stallWindow(loop)}${
              written
                ? `; ${written.sent} writes alongside, ${written.failed} failed`
                : ''
            }`,
        );
      }
      figures.push(entry);
    }

    // The issue's RSS bound is for the load; ingestion and the catalog's processing follow.
    const loadPeakRssMb = backend.peakRssMb();
    const loadMemory = await memory('after the loads');
    let ingestion;
    if (!only.length || only.includes('ingestion')) {
      ingestion = await measurePlanIngestion(api, manifest, PLAN_RESOURCES);
      tagged(
        `plan ingestion of ${PLAN_RESOURCES}: ${ingestion.totalMs.toFixed(
          0,
        )} ms, longest stall ${ingestion.maxStallMs.toFixed(1)} ms`,
      );
    }

    // The catalog gets its entities only now: processing them would otherwise land in every
    // figure above.
    let peer: EndpointFigures | undefined;
    let catalogEntities = 0;
    if (!only.length || only.includes('catalog')) {
      await fetch(`${backend.baseUrl}/api/catalog/bench-entities`, {
        method: 'POST',
      });
      catalogEntities = await waitForCatalog(
        backend.baseUrl,
        manifest.sizes.catalogEntities,
        options.options.catalogWaitMinutes,
        tagged,
      );
      peer = {
        key: 'catalog',
        title: `catalog by-query (peer, ${catalogEntities.toLocaleString(
          'en',
        )} entities)`,
        list: true,
        bytes: 0,
        byConnections: {},
      };
      for (const c of connections) {
        await api.expect(204, 'POST', '/api/bench/event-loop/reset');
        const measured = await load({
          url: `${backend.baseUrl}/api/catalog/entities/by-query?limit=${PAGE_SIZE}&filter=kind=resource`,
          method: 'GET',
          headers: { authorization: `Bearer ${BACKSTAGE_STATIC_TOKEN}` },
          connections: c,
          duration,
        });
        const loop = await api.expect(200, 'GET', '/api/bench/event-loop');
        peer.byConnections[c] = { backend: measured, maxStallMs: loop.maxMs };
        tagged(
          `catalog peer ×${c}: p50 ${measured.p50} ms, p99 ${
            measured.p99
          } ms, ${measured.requestsPerSecond.toFixed(0)} req/s`,
        );
      }
    }

    const report: BenchReport = {
      database: database.kind === 'sqlite' ? 'SQLite' : 'PostgreSQL',
      scale: options.options.scale,
      backendBuild: `${
        options.options.fromSources
          ? 'TypeScript sources transpiled at load'
          : 'production build (backstage-cli package build)'
      }, node ${backendNodeFlags().join(' ')}`,
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(
        totalmem() /
        2 ** 30
      ).toFixed(0)} GiB, Node ${process.versions.node}`,
      generatedSeconds: options.generated ? manifest.seconds : undefined,
      rows: manifest.rows,
      deepPages: deep.pages,
      endpoints: figures,
      peer,
      catalogEntities,
      ingestion,
      loadPeakRssMb,
      loadMemory,
      peakRssMb: backend.peakRssMb(),
    };
    const markdown = markdownReport(report);
    writeFileSync(
      `${BENCH_ROOT}/results-${database.tag}.json`,
      JSON.stringify(report, null, 2),
    );
    writeFileSync(`${BENCH_ROOT}/results-${database.tag}.md`, `${markdown}\n`);
    process.stdout.write(`${markdown}\n\n`);
  } finally {
    await bare?.close();
    await knex.destroy();
    await backend.stop();
  }
}

/** Where the longest stall sits on a CPU profile's clock, for `yarn bench:profile --window`. */
function stallWindow(loop: {
  longestStall?: { endUs: number; ms: number };
}): string {
  const stall = loop.longestStall;
  return stall
    ? ` (--window ${Math.round(stall.endUs - stall.ms * 1000)} ${stall.endUs})`
    : '';
}
