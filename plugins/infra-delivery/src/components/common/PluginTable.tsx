import { Table, TableColumn, TableProps } from '@backstage/core-components';

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

/** Backstage's `Table`, whose headers are sort buttons only where sorting does something. */
export function PluginTable<T extends object>({
  columns,
  ...props
}: TableProps<T>) {
  return <Table<T> {...props} columns={sortableWhereTheySort(columns)} />;
}
