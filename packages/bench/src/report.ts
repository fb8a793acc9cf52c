import { LoadResult } from './load';
import { SqlFloorResult } from './sqlFloor';

export interface EndpointFigures {
  key: string;
  title: string;
  list: boolean;
  bytes: number;
  byConnections: Record<
    number,
    {
      backend: LoadResult;
      middlewareFloor?: LoadResult;
      /** The middleware floor asked with the endpoint's own query string, when it is long. */
      queryFloor?: LoadResult;
      bareFloor?: LoadResult;
      sqlFloor?: SqlFloorResult;
      maxStallMs: number;
    }
  >;
}

export interface BenchReport {
  database: string;
  scale: number;
  machine: string;
  generatedSeconds?: number;
  rows: Record<string, number>;
  /** What the backend ran: the production build or the sources. */
  backendBuild: string;
  deepPages: number;
  endpoints: EndpointFigures[];
  peer?: EndpointFigures;
  catalogEntities: number;
  ingestion?: { resources: number; totalMs: number; maxStallMs: number };
  /** Peak RSS after the endpoint loads, before ingestion and the catalog peer. */
  loadPeakRssMb?: number;
  /** The backend's memory by kind right after the endpoint loads, in MB. */
  loadMemory?: {
    rssMb: number;
    heapUsedMb: number;
    heapTotalMb: number;
    externalMb: number;
    arrayBuffersMb: number;
  };
  peakRssMb: number;
}

const f = (n: number | undefined, digits = 1) =>
  n === undefined || !Number.isFinite(n) ? '—' : n.toFixed(digits);
const ratio = (a?: number, b?: number) =>
  a === undefined || b === undefined || b === 0 ? '—' : `${(a / b).toFixed(2)}`;

/** The report as a Markdown table, one row per endpoint and connection count. */
export function markdownReport(report: BenchReport): string {
  const lines: string[] = [];
  lines.push(
    `### ${report.database}, scale ${report.scale} (${Object.entries(
      report.rows,
    )
      .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
      .join(', ')})`,
    '',
    `Machine: ${report.machine}. Backend: ${report.backendBuild}. Peak RSS ${f(
      report.loadPeakRssMb,
      0,
    )} MB after the endpoint loads, ${f(
      report.peakRssMb,
      0,
    )} MB by the end (plan ingestion, catalog processing).${
      report.loadMemory
        ? ` After the loads: RSS ${report.loadMemory.rssMb} MB, V8 heap ${report.loadMemory.heapUsedMb} MB used of ${report.loadMemory.heapTotalMb} MB, external ${report.loadMemory.externalMb} MB (array buffers ${report.loadMemory.arrayBuffersMb} MB).`
        : ''
    }${
      report.generatedSeconds !== undefined
        ? ` Dataset generated in ${f(report.generatedSeconds)} s.`
        : ''
    }`,
    '',
    '| endpoint | conns | p50 ms | p99 ms | req/s | SQL floor p50 / req/s | middleware floor req/s | bare floor req/s | ×SQL | ×middleware | ×bare | max stall ms |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const endpoint of [
    ...report.endpoints,
    ...(report.peer ? [report.peer] : []),
  ]) {
    for (const [connections, figures] of Object.entries(
      endpoint.byConnections,
    )) {
      const b = figures.backend;
      lines.push(
        `| ${endpoint.title} | ${connections} | ${f(b.p50)} | ${f(b.p99)} | ${f(
          b.requestsPerSecond,
          0,
        )}${b.non2xx || b.errors ? ` (${b.non2xx + b.errors} failed)` : ''} | ${
          figures.sqlFloor
            ? `${f(figures.sqlFloor.p50, 2)} / ${f(
                figures.sqlFloor.requestsPerSecond,
                0,
              )}`
            : '—'
        } | ${f(figures.middlewareFloor?.requestsPerSecond, 0)} | ${f(
          figures.bareFloor?.requestsPerSecond,
          0,
        )} | ${ratio(
          b.requestsPerSecond,
          figures.sqlFloor?.requestsPerSecond,
        )} | ${ratio(
          b.requestsPerSecond,
          figures.middlewareFloor?.requestsPerSecond,
        )} | ${ratio(
          b.requestsPerSecond,
          figures.bareFloor?.requestsPerSecond,
        )} | ${f(figures.maxStallMs)} |`,
      );
    }
  }
  if (report.ingestion) {
    lines.push(
      '',
      `Plan ingestion: ${report.ingestion.resources.toLocaleString(
        'en',
      )} resources in ${f(
        report.ingestion.totalMs,
        0,
      )} ms, longest event-loop stall ${f(report.ingestion.maxStallMs)} ms.`,
    );
  }
  lines.push(
    '',
    `Ratios are the backend's requests/s over the floor's. The deep page is reached after ${report.deepPages.toLocaleString(
      'en',
    )} pages; the catalog peer pages ${report.catalogEntities.toLocaleString(
      'en',
    )} entities.`,
  );
  return lines.join('\n');
}
