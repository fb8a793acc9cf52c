import { Progress, TableProps } from '@backstage/core-components';
import { PluginTable } from './PluginTable';

/**
 * The plugin's table (`PluginTable`), which while `loading` shows a progress bar named `loadingLabel` where its
 * rows will be. The `isLoading` of Backstage's table shows a spinner with no accessible name,
 * so a screen reader announced an unnamed progress bar (axe-core's `aria-progressbar-name`,
 * seen on the Organization tab while its cards loaded).
 */
export function LoadingTable<T extends object>({
  loading,
  loadingLabel,
  data,
  emptyContent,
  ...props
}: Omit<TableProps<T>, 'isLoading' | 'data'> & {
  data: T[];
  loading: boolean;
  loadingLabel: string;
}) {
  return (
    <PluginTable<T>
      {...props}
      data={loading ? [] : data}
      emptyContent={
        loading ? <Progress aria-label={loadingLabel} /> : emptyContent
      }
    />
  );
}
