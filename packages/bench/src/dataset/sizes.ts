/** How many rows of each kind a dataset at `scale` holds (scale 1 is the default). */
export interface DatasetSizes {
  pipelines: number;
  stacks: number;
  runs: number;
  /** IaC resource rows: a plan and an apply of every stack's addresses. */
  resources: number;
  deployments: number;
  events: number;
  /** Stacks whose current state holds `bigStackResources` addresses (#14 by stack). */
  bigStacks: number;
  bigStackResources: number;
  /** Services the deployments spread over. */
  services: number;
  catalogEntities: number;
}

/** Filters of 200 ids need at least 200 groups, whatever the scale. */
const AT_LEAST = { pipelines: 200, stacks: 400 };

export function datasetSizes(scale: number): DatasetSizes {
  const scaled = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    pipelines: Math.max(AT_LEAST.pipelines, scaled(2_000)),
    stacks: Math.max(AT_LEAST.stacks, scaled(10_000)),
    runs: scaled(1_000_000),
    resources: scaled(2_000_000),
    deployments: scaled(200_000),
    events: scaled(1_000_000),
    bigStacks: Math.max(1, Math.round(10 * scale)),
    bigStackResources: 1_000,
    services: Math.max(10, scaled(2_000)),
    catalogEntities: scaled(100_000),
  };
}
