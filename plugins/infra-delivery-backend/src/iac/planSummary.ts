import { isImportingChange } from '@infra-delivery/plugin-infra-delivery-common';
import { PlanCounts } from '../domain/iacChanges';
import { PlanJson, ResourceChange } from './planJson';

function actionsKey(change: ResourceChange): string {
  return change.change.actions.join(',');
}

/**
 * Counts a plan exactly as Terraform's own `Plan:` line does (`renderHuman` in Terraform's
 * `jsonformat/plan.go`): a replacement is one add and one destroy; an importing resource
 * counts toward import (and toward change when it is also updated); deleting a data
 * source is not a destroy; `read` and `no-op` are counted apart and never in the line.
 */
export function planSummaryFromPlanJson(plan: PlanJson): PlanCounts {
  const counts: PlanCounts = {
    addCount: 0,
    changeCount: 0,
    destroyCount: 0,
    importCount: 0,
    readCount: 0,
    replaceCount: 0,
    unchangedCount: 0,
  };
  for (const change of plan.resource_changes) {
    if (isImportingChange(change)) {
      counts.importCount += 1;
    }
    switch (actionsKey(change)) {
      case 'create':
      case 'create,forget':
        counts.addCount += 1;
        break;
      case 'update':
        counts.changeCount += 1;
        break;
      case 'delete':
        if (change.mode !== 'data') {
          counts.destroyCount += 1;
        }
        break;
      case 'delete,create':
      case 'create,delete':
        counts.addCount += 1;
        counts.destroyCount += 1;
        counts.replaceCount += 1;
        break;
      case 'read':
        counts.readCount += 1;
        break;
      case 'no-op':
        counts.unchangedCount += 1;
        break;
      default:
        break;
    }
  }
  return counts;
}

/** The `Plan:` line Terraform prints for these counts. */
export function planLine(counts: PlanCounts): string {
  const importPart =
    counts.importCount > 0 ? `${counts.importCount} to import, ` : '';
  return `Plan: ${importPart}${counts.addCount} to add, ${counts.changeCount} to change, ${counts.destroyCount} to destroy.`;
}
