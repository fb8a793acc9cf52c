import { TableColumn, TableOptions } from '@backstage/core-components';

/**
 * Every table of the plugin: all rows, dense, and columns that cannot be dragged — a draggable
 * header nests a second button inside the sort button, which screen readers cannot use.
 */
export const TABLE_OPTIONS: TableOptions = {
  paging: false,
  search: false,
  padding: 'dense',
  draggable: false,
};

/** A table inside a card: no search or toolbar of its own. */
export const CARD_TABLE_OPTIONS: TableOptions = {
  ...TABLE_OPTIONS,
  toolbar: false,
};

/**
 * Columns as wide as their content asks. material-table otherwise gives every column without a
 * width an equal share of the table as its header's width, so a long run name wraps over many
 * lines beside a column of short statuses.
 */
export function contentWidths<T extends object>(
  columns: TableColumn<T>[],
): TableColumn<T>[] {
  return columns.map(column => ({ ...column, width: 'auto' }));
}

/** A cell of short words kept on one line: sized by content, "Network" broke as "Netwo / rk". */
export const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/**
 * A cell whose text wraps between words only: tables break words anywhere (the Backstage
 * theme's `word-break: break-word`), and one kept on a single line instead (`NO_WRAP`) pushed
 * the cloud accounts' Remove button off a 1,024 px screen.
 */
export const WRAP_BETWEEN_WORDS = { wordBreak: 'normal' } as const;

/**
 * The buttons of a row: each label whole ("REMOV / E / SERVE / R" in a squeezed column), side
 * by side where the row has room, one above the other where it has not.
 */
export const ROW_ACTIONS_STYLE = {
  display: 'flex',
  flexWrap: 'wrap',
  gap: 8,
  whiteSpace: 'nowrap',
} as const;
