import type { TableColumn } from '@backstage/core-components';
import { alikeWithoutFunctions } from '../components/common/steadyColumns';

/** Whether some function of the columns is another object, the two alike otherwise. */
function newFunctionsOnly(
  before: TableColumn<object>[],
  after: TableColumn<object>[],
): boolean {
  if (before.length !== after.length) return false;
  if (!alikeWithoutFunctions(before, after)) return false;
  return before.some((column, index) =>
    Object.entries(column).some(
      ([key, value]) =>
        typeof value === 'function' &&
        value !== (after[index] as Record<string, unknown>)[key],
    ),
  );
}

/** The tables whose columns came again as new functions, by their columns' titles. */
const unstable = new Set<string>();

/**
 * Notes a table rendered again with `after` for columns where it had `before`: columns alike
 * but for new functions are the ones material-table takes for changed columns, working them
 * out again (and warning in a development build) at every render of the card around it.
 */
export function noteColumnsAgain(
  before: TableColumn<object>[],
  after: TableColumn<object>[],
): void {
  if (before !== after && newFunctionsOnly(before, after)) {
    unstable.add(after.map(column => String(column.title ?? '')).join(', '));
  }
}

/** The tables noted since the last call, emptied. */
export function takeUnstableColumns(): string[] {
  const taken = [...unstable];
  unstable.clear();
  return taken;
}
