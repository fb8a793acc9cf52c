import { Progress } from '@backstage/core-components';
import { ReactNode } from 'react';
import { ErrorPanel } from './ErrorPanel';
import { LoadState } from './loadState';
import { NoAnswerNotice } from './NoAnswerNotice';
import { ReloadFailedNotice } from './ReloadFailedNotice';

/**
 * A card's body once its load is done: the error as the service explained it, a progress bar
 * (or the `placeholder` given, shaped like the content) until the first answer, then the
 * content (kept while it reloads, and while a reload goes unanswered or fails, under a notice
 * that says so).
 */
export function Loaded<T>({
  state,
  children,
  placeholder = <Progress />,
}: {
  state: LoadState<T>;
  children: (value: T) => ReactNode;
  placeholder?: ReactNode;
}) {
  if (state.error) {
    return <ErrorPanel error={state.error} />;
  }
  const notice = (
    <>
      <NoAnswerNotice
        silentSince={state.silentSince}
        hasData={state.value !== undefined}
      />
      <ReloadFailedNotice failure={state.reloadFailed} />
    </>
  );
  if (state.value === undefined) {
    return (
      <>
        {notice}
        {placeholder}
      </>
    );
  }
  return (
    <>
      {notice}
      {children(state.value)}
    </>
  );
}
