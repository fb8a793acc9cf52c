import { TableProps } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Skeleton from '@material-ui/lab/Skeleton';
import { PluginTable } from './PluginTable';

/** The height of a loading table's skeleton row: a table row with a caption under its name. */
const SKELETON_ROW_PX = 56;

/**
 * Rows of grey bars where a table's rows will be, named `label` for a screen reader: the
 * height of rows, not of a 4 px progress bar, so the cards under the table do not jump as it
 * fills (the Organization page at 800 px shifted by a CLS of 1.71 as its cards loaded).
 */
const SkeletonRows = ({ label, rows }: { label: string; rows: number }) => (
  <Box role="progressbar" aria-label={label} aria-busy="true" width="100%">
    {Array.from({ length: rows }, (_, index) => (
      <Skeleton key={index} height={SKELETON_ROW_PX} />
    ))}
  </Box>
);

/**
 * The plugin's table (`PluginTable`), which while `loading` shows `loadingRows` skeleton rows,
 * named `loadingLabel` as a progress bar, where its rows will be. The `isLoading` of Backstage's table shows a spinner with no accessible name,
 * so a screen reader announced an unnamed progress bar (axe-core's `aria-progressbar-name`,
 * seen on the Organization tab while its cards loaded).
 */
export function LoadingTable<T extends object>({
  loading,
  loadingLabel,
  data,
  loadingRows = 3,
  emptyContent,
  ...props
}: Omit<TableProps<T>, 'isLoading' | 'data'> & {
  data: T[];
  loading: boolean;
  loadingLabel: string;
  /** How many rows the table is expected to show: the skeleton keeps their height. */
  loadingRows?: number;
}) {
  return (
    <PluginTable<T>
      {...props}
      data={loading ? [] : data}
      emptyContent={
        loading ? (
          <SkeletonRows label={loadingLabel} rows={loadingRows} />
        ) : (
          emptyContent
        )
      }
    />
  );
}
