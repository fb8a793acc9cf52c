import { Table, TableColumn, TableProps } from '@backstage/core-components';
import { createContext, ReactNode, useContext, useMemo } from 'react';
import { useFocusRingStyles } from './focusRing';
import { useSteadyColumns } from './steadyColumns';

/**
 * The columns with a sort button only where sorting does something: a column with a field or a
 * comparison of its own. material-table makes every header a sort button, and one over a
 * rendered column compares nothing, so pressing it only turned an arrow; the hidden arrow also
 * took room from narrow tables.
 */
export function sortableWhereTheySort<T extends object>(
  columns: TableColumn<T>[],
): TableColumn<T>[] {
  return columns.map(column =>
    column.field || column.customSort || column.sorting !== undefined
      ? column
      : { ...column, sorting: false },
  );
}

/**
 * Backstage's theme sets table cells' line height to 1, which reads well on one line and
 * cramped on two: a run's title or a repository path that wraps ran its lines together.
 */
const READABLE_LINES = { lineHeight: 1.4 };

/** The columns with a line height that keeps wrapped lines apart, under their own style. */
export function withReadableLines<T extends object>(
  columns: TableColumn<T>[],
): TableColumn<T>[] {
  return columns.map(column => {
    const { cellStyle } = column;
    return {
      ...column,
      cellStyle:
        typeof cellStyle === 'function'
          ? (data, rowData) => ({
              ...READABLE_LINES,
              ...cellStyle(data, rowData),
            })
          : { ...READABLE_LINES, ...cellStyle },
    };
  });
}

/** What a table shows without rows, handed past Backstage's table by context. */
const EmptyContent = createContext<ReactNode>(null);

const ShownEmptyContent = () => <>{useContext(EmptyContent)}</>;

/**
 * Backstage's table makes its body a new component whenever `emptyContent` is a new element,
 * and every render of a card makes one: each row was mounted again, and a row's open
 * confirmation closed with the service's refusal in it. The table gets this one element, which
 * shows the content of the render.
 */
const STABLE_EMPTY_CONTENT = <ShownEmptyContent />;

/**
 * Backstage's `Table`, whose headers are sort buttons only where sorting does something, whose
 * wrapped lines stay apart, whose rows stay mounted when the content shown without rows
 * changes, and whose rows' buttons show keyboard focus as a ring.
 */
export function PluginTable<T extends object>({
  columns,
  emptyContent,
  ...props
}: TableProps<T>) {
  const { focusRing } = useFocusRingStyles();
  // The same columns while only their functions change (steadyColumns.ts says why), and so
  // the same cell styles for readable lines: new ones at each render were changed columns too.
  const steadyColumns = useSteadyColumns(columns);
  const shownColumns = useMemo(
    () => withReadableLines(sortableWhereTheySort(steadyColumns)),
    [steadyColumns],
  );
  return (
    <EmptyContent.Provider value={emptyContent}>
      <div className={focusRing}>
        <Table<T>
          {...props}
          emptyContent={
            emptyContent === undefined ? undefined : STABLE_EMPTY_CONTENT
          }
          columns={shownColumns}
        />
      </div>
    </EmptyContent.Provider>
  );
}
