import { TableColumn } from '@backstage/core-components';
import { isValidElement, MutableRefObject, useRef } from 'react';

/**
 * Whether two values are alike apart from their functions, as material-table compares columns:
 * React elements by type, key and props, objects and arrays by their entries, functions alike
 * whatever they are.
 */
export function alikeWithoutFunctions(a: unknown, b: unknown): boolean {
  if (typeof a === 'function' && typeof b === 'function') return true;
  if (Object.is(a, b)) return true;
  if (isValidElement(a) || isValidElement(b)) {
    return (
      isValidElement(a) &&
      isValidElement(b) &&
      a.type === b.type &&
      a.key === b.key &&
      alikeWithoutFunctions(a.props, b.props)
    );
  }
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  return (
    aKeys.length === bKeys.length &&
    aKeys.every(
      key =>
        Object.prototype.hasOwnProperty.call(b, key) &&
        alikeWithoutFunctions(
          (a as Record<string, unknown>)[key],
          (b as Record<string, unknown>)[key],
        ),
    )
  );
}

/** The column, each of its functions calling the same function of the latest columns. */
function calling<T extends object>(
  column: TableColumn<T>,
  index: number,
  latest: MutableRefObject<TableColumn<T>[]>,
): TableColumn<T> {
  return Object.fromEntries(
    Object.entries(column).map(([key, value]) => [
      key,
      typeof value === 'function'
        ? (...args: unknown[]) =>
            (latest.current[index] as Record<string, Function>)[key](...args)
        : value,
    ]),
  ) as TableColumn<T>;
}

/**
 * The caller's columns as the same objects from render to render while only their functions
 * change, each function calling the caller's function of the latest render; new objects when
 * anything else changes (a column more, another title or width).
 *
 * material-table compares a table's columns at each render, functions by identity: a column
 * whose `render` closed over the page's values (its links, its actions, the other rows) was a
 * changed column at every render of the page. It worked its columns out again each time and,
 * in a development build, warned that "the columns provided to material table are static, but
 * contain functions which update on every render". Made once per render of the page's own,
 * the functions could not be steady for a page whose cells read its data: the columns changed
 * with every reading of it.
 */
export function useSteadyColumns<T extends object>(
  columns: TableColumn<T>[],
): TableColumn<T>[] {
  // Each set of steady columns calls the latest columns alike to them: material-table may
  // render the set before for a moment once the columns changed (a column fewer), and its
  // functions called the new set's by position, the cell of one column rendered by another.
  const steady = useRef<{
    latest: MutableRefObject<TableColumn<T>[]>;
    columns: TableColumn<T>[];
  }>();
  if (
    steady.current &&
    (steady.current.latest.current === columns ||
      alikeWithoutFunctions(steady.current.latest.current, columns))
  ) {
    steady.current.latest.current = columns;
  } else {
    const latest = { current: columns };
    steady.current = {
      latest,
      columns: columns.map((column, index) => calling(column, index, latest)),
    };
  }
  return steady.current.columns;
}
