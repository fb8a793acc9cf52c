/**
 * Where the plugin's tabs hang under an entity's page in the catalog (`/catalog/…/<path>`).
 * The tabs are mounted at these paths, and links to them are built from the same values.
 */
export const ENTITY_TAB_PATHS = {
  stacks: 'infra-stacks',
  runs: 'infra-runs',
  deployments: 'infra-deployments',
  metrics: 'infra-metrics',
} as const;

export type EntityTab = keyof typeof ENTITY_TAB_PATHS;
