import { Knex } from 'knex';
import { Stores } from './pluginInternals';
import { readsWhileTriggering, triggerEndpoints } from './triggers';
import { DatasetManifest } from './dataset/generate';

/** Every list asks for the same page size, the catalog peer included. */
export const PAGE_SIZE = 50;

export interface Endpoint {
  key: string;
  title: string;
  method: 'GET' | 'POST';
  /** Path under the backend's base URL, query included. */
  path: string;
  body?: string;
  /** A list endpoint, held to the list targets. */
  list: boolean;
  /** The store call the route makes, for the SQL floor; absent where no query repeats. */
  store?: (stores: Stores) => Promise<unknown>;
  /** Where each request sends another body: the body of the next request. */
  nextBody?: () => string;
  /** Run before each load of the endpoint (its warm-up included). */
  beforeLoad?: (knex: Knex) => Promise<void>;
  /**
   * Writes sent at a steady rate, one at a time, while the endpoint is loaded (its warm-up
   * included): a read measured while the database changes under it, as in a portal whose runs
   * are active. The backend's CPU per request then includes the writes'.
   */
  alongside?: SteadyWrites;
}

export interface SteadyWrites {
  perSecond: number;
  method: 'POST';
  path: string;
  body: string;
}

const PLUGIN = '/api/infra-delivery';

function repeat(name: string, values: string[]) {
  return values.map(v => `${name}=${encodeURIComponent(v)}`).join('&');
}

/** The endpoints of the issue, over the generated dataset. */
export function benchEndpoints(
  manifest: DatasetManifest,
  deep: { cursor: string; afterId: string; pages: number },
  extra: { triggerPipelineId: string; metricQuery: string },
): Endpoint[] {
  const org = manifest.organizationId;
  const pipelines = manifest.pipelineIds.slice(0, 200);
  const stacks = manifest.stackIds.slice(0, 200);
  const bigStack = manifest.bigStackIds[0];
  const page = { limit: PAGE_SIZE };
  const firstPage: Endpoint = {
    key: 'runs-first',
    title: '#13 first page',
    method: 'GET',
    path: `${PLUGIN}/pipeline-runs?limit=${PAGE_SIZE}`,
    list: true,
    store: s => s.pipelineRuns.listRuns(org, {}, page),
  };
  return [
    firstPage,
    readsWhileTriggering(org, extra.triggerPipelineId, {
      ...firstPage,
      key: 'runs-first-writes',
    }),
    {
      key: 'runs-deep',
      title: `#13 after ${deep.pages.toLocaleString('en')} pages`,
      method: 'GET',
      path: `${PLUGIN}/pipeline-runs?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(
        deep.cursor,
      )}`,
      list: true,
      store: s =>
        s.pipelineRuns.listRuns(org, {}, { ...page, afterId: deep.afterId }),
    },
    {
      key: 'runs-pipelines',
      title: '#13 200 pipelineIds × latestPerPipeline=5',
      method: 'GET',
      path: `${PLUGIN}/pipeline-runs?limit=${PAGE_SIZE}&latestPerPipeline=5&${repeat(
        'pipelineId',
        pipelines,
      )}`,
      list: true,
      store: s =>
        s.pipelineRuns.listRuns(
          org,
          { pipelineIds: pipelines, latestPerPipeline: 5 },
          page,
        ),
    },
    {
      key: 'runs-entities',
      title: '#13 200 attachedEntityIds × latestPerEntity=3',
      method: 'GET',
      path: `${PLUGIN}/pipeline-runs?limit=${PAGE_SIZE}&latestPerEntity=3&${repeat(
        'attachedEntityId',
        stacks,
      )}`,
      list: true,
      store: s =>
        s.pipelineRuns.listRuns(
          org,
          { attachedEntityIds: stacks, latestPerEntity: 3 },
          page,
        ),
    },
    {
      key: 'resources-stack',
      title: '#14 by stack (1,000 resources)',
      method: 'GET',
      path: `${PLUGIN}/iac-resources?limit=${PAGE_SIZE}&stackId=${bigStack}`,
      list: true,
      store: s => s.iacResults.listStackState(org, bigStack, page),
    },
    {
      key: 'resource-count',
      title: '#24 for 200 stacks',
      method: 'GET',
      path: `${PLUGIN}/stacks/resource-count?${repeat('stackId', stacks)}`,
      list: true,
      store: s => s.iacResults.countStackState(org, stacks),
    },
    {
      key: 'summaries',
      title: '#10 by pipeline',
      method: 'GET',
      path: `${PLUGIN}/iac-execution-summaries?limit=${PAGE_SIZE}&pipelineId=${manifest.summaryPipelineId}`,
      list: true,
      store: s =>
        s.iacResults.listSummaries(
          org,
          { pipelineId: manifest.summaryPipelineId },
          page,
        ),
    },
    {
      key: 'events',
      title: '#19 by deployment',
      method: 'GET',
      path: `${PLUGIN}/infrastructure-events?deploymentId=${manifest.deploymentId}`,
      list: true,
      store: s =>
        s.infrastructureEvents.list(org, {
          deploymentId: manifest.deploymentId,
        }),
    },
    {
      key: 'metric',
      title: '#15 from cache (local driver)',
      method: 'GET',
      path: `${PLUGIN}/cloud/metrics/metric?${extra.metricQuery}`,
      list: false,
      store: s => s.cloudAccounts.get(org, manifest.cloudAccountId),
    },
    ...triggerEndpoints(org, manifest.stackIds, extra.triggerPipelineId),
  ];
}
