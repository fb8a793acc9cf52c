import { IacChangeKind } from './schemas';

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
