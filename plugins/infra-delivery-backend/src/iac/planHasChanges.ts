import { PlanJson } from './planJson';

/**
 * Whether applying the plan would change anything: Terraform's own `applyable` where the plan
 * has it (Terraform ≥ 1.8, OpenTofu), else the same reading of the changes — a resource that is
 * created, updated, deleted, replaced, read, forgotten, imported or moved, or an output that
 * changes. A plan that errored applies nothing.
 */
export function planHasChanges(plan: PlanJson): boolean {
  if (plan.errored) {
    return false;
  }
  if (typeof plan.applyable === 'boolean') {
    return plan.applyable;
  }
  const resourceChanges = plan.resource_changes.some(
    change =>
      change.change.actions.some(action => action !== 'no-op') ||
      Boolean(change.change.importing) ||
      (change.previous_address !== undefined &&
        change.previous_address !== change.address),
  );
  const outputChanges = Object.values(plan.output_changes ?? {}).some(output =>
    (output.actions ?? []).some(action => action !== 'no-op'),
  );
  return resourceChanges || outputChanges;
}
