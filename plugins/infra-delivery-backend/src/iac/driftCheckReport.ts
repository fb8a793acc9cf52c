import { RunRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { PlanJson } from './planJson';
import { DRIFTED_CHANGE_KINDS } from '@infra-delivery/plugin-infra-delivery-common';
import { PlannedResource } from '../domain/iacChanges';

/** The resources of a plan that a reconciling apply would change. */
export function driftedResourcesOf(
  resources: PlannedResource[],
): PlannedResource[] {
  return resources.filter(
    resource =>
      resource.mode === 'managed' &&
      DRIFTED_CHANGE_KINDS.includes(resource.changeKind),
  );
}

/**
 * Records what a drift check's plan found on its stack, in the transaction that completes the
 * plan step. A plan that errored, or a step that reported no plan, decides nothing: the drift
 * is then unknown.
 */
export async function recordDriftCheckReport(
  tx: Stores,
  run: RunRecord,
  plan: PlanJson | undefined,
  resources: PlannedResource[],
): Promise<void> {
  if (run.kind !== 'DRIFT_CHECK' || !run.attachedEntityId) {
    return;
  }
  if (!plan || plan.errored) {
    await tx.stackDrift.recordOutcome(run.attachedEntityId, {
      runId: run.id,
      driftStatus: 'UNKNOWN',
    });
    return;
  }
  const drifted = driftedResourcesOf(resources).length;
  await tx.stackDrift.recordOutcome(run.attachedEntityId, {
    runId: run.id,
    driftStatus: drifted > 0 ? 'DRIFTED' : 'IN_SYNC',
    driftedResourceCount: drifted,
  });
}
