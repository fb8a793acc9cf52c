/*
 * The vocabulary of ECS deployments that both drivers speak (the local one simulates them)
 * and the services read: lifecycle stages, traffic phases, deployment hooks.
 */

/**
 * The lifecycle stages of an ECS-native blue/green, linear or canary deployment, in the order
 * ECS moves through them. A rolling deployment has none.
 */
export const LIFECYCLE_STAGES = [
  'RECONCILE_SERVICE',
  'PRE_SCALE_UP',
  'SCALE_UP',
  'POST_SCALE_UP',
  'TEST_TRAFFIC_SHIFT',
  'POST_TEST_TRAFFIC_SHIFT',
  'PRODUCTION_TRAFFIC_SHIFT',
  'POST_PRODUCTION_TRAFFIC_SHIFT',
  'BAKE_TIME',
  'CLEAN_UP',
] as const;

/** Hook stages at which production traffic already reaches the new revision. */
const POST_DEPLOY_HOOK_STAGES = new Set([
  'PRODUCTION_TRAFFIC_SHIFT',
  'POST_PRODUCTION_TRAFFIC_SHIFT',
]);

/**
 * Whether the service checks a release with lifecycle hooks before production traffic reaches
 * it (pre-deploy) or after (post-deploy).
 */
export function deployHooksOf(
  hooks: ReadonlyArray<{ lifecycleStages?: string[] }> | undefined,
): { preDeployEnabled: boolean; postDeployEnabled: boolean } {
  const stages = (hooks ?? []).flatMap(hook => hook.lifecycleStages ?? []);
  return {
    preDeployEnabled: stages.some(stage => !POST_DEPLOY_HOOK_STAGES.has(stage)),
    postDeployEnabled: stages.some(stage => POST_DEPLOY_HOOK_STAGES.has(stage)),
  };
}

/** Steps of a rolling deployment: started, rolling, (rolling back,) ended. */
export const ROLLING_STEPS = 4;

/** Which listener traffic the new revision receives at a stage. */
export function trafficPhaseOf(stage: string | undefined): string {
  const index = LIFECYCLE_STAGES.indexOf(
    stage as (typeof LIFECYCLE_STAGES)[number],
  );
  if (index < LIFECYCLE_STAGES.indexOf('TEST_TRAFFIC_SHIFT')) {
    return 'standby';
  }
  if (index < LIFECYCLE_STAGES.indexOf('PRODUCTION_TRAFFIC_SHIFT')) {
    return 'test';
  }
  return 'production';
}
