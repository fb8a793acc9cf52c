import {
  IacChangeKind,
  IacExecutionSummary,
  RunChangeSummary,
} from './schemas';

/**
 * The error of an apply or destroy step whose runner planned again and found other changes than
 * the approved plan's: nothing was applied, and a new run must plan them for review.
 */
export const PLAN_CHANGED_ERROR_CODE = 'InfraDelivery:Runner:PLAN_CHANGED';

/** The part of a `terraform show -json` resource change that says what the change does. */
export interface IacResourceChangeActions {
  change: { actions: readonly string[]; importing?: unknown };
}

/** Whether a resource change imports the resource into the state. */
export function isImportingChange(change: IacResourceChangeActions): boolean {
  return (
    change.change.importing !== undefined && change.change.importing !== null
  );
}

/**
 * What a resource change of a plan does, from its actions: the service's change kinds, which
 * the service stores for each planned resource and the reference runner compares an apply's
 * plan by, against the plan that was approved.
 */
export function iacChangeKindOf(
  change: IacResourceChangeActions,
): IacChangeKind {
  switch (change.change.actions.join(',')) {
    case 'delete,create':
    case 'create,delete':
      return 'REPLACE';
    case 'delete':
      return 'DELETE';
    case 'create':
    case 'create,forget':
      return 'CREATE';
    case 'update':
      return 'UPDATE';
    case 'read':
      return 'READ';
    case 'forget':
      return 'FORGET';
    default:
      return isImportingChange(change) ? 'IMPORT' : 'NO_OP';
  }
}

/**
 * Whether a plan found nothing to apply (+0 ~0 −0): the run then skipped its approval and
 * apply. The one rule for it: the service records a run's change summary by it, and the
 * portal's run page, messages and lists say so by it.
 */
export function plansNothingToApply(
  summary: Pick<IacExecutionSummary, 'runType' | 'applyable'>,
): boolean {
  return summary.runType === 'PLAN' && !summary.applyable;
}

/** What a run that found nothing to apply is said to have done. */
export const NOTHING_TO_APPLY = 'No changes: nothing to apply';

/** A run's change summary from its plan's execution summary. */
export function runChangeSummaryOf(
  summary: Pick<
    IacExecutionSummary,
    | 'runType'
    | 'applyable'
    | 'addCount'
    | 'changeCount'
    | 'destroyCount'
    | 'importCount'
  >,
): RunChangeSummary {
  return {
    add: summary.addCount,
    change: summary.changeCount,
    destroy: summary.destroyCount,
    import: summary.importCount,
    noChanges: plansNothingToApply(summary),
  };
}

/**
 * A run's change summary in a few characters, for lists: "No changes", or `+3 ~1 −0` (with
 * ` · 2 to import` when it imports) as the run page's plan line counts them.
 */
export function changeSummaryText(summary: RunChangeSummary): string {
  if (summary.noChanges) return 'No changes';
  const imports = summary.import > 0 ? ` · ${summary.import} to import` : '';
  return `+${summary.add} ~${summary.change} −${summary.destroy}${imports}`;
}
