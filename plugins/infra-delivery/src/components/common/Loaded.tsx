import { Progress } from '@backstage/core-components';
import { ReactNode } from 'react';
import { ErrorPanel } from './ErrorPanel';
import { LoadState } from './loadState';

/**
 * A card's body once its load is done: the error as the service explained it, a progress bar
 * until the first answer, then the content (kept while it reloads).
 */
export function Loaded<T>({
  state,
  children,
}: {
  state: LoadState<T>;
  children: (value: T) => ReactNode;
}) {
  if (state.error) {
    return <ErrorPanel error={state.error} />;
  }
  if (state.value === undefined) {
    return <Progress />;
  }
  return <>{children(state.value)}</>;
}
