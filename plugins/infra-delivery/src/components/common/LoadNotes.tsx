import { ErrorPanel } from './ErrorPanel';
import { LoadState } from './loadState';
import { NoAnswerNotice } from './NoAnswerNotice';
import { ReloadFailedNotice } from './ReloadFailedNotice';

/**
 * Above what a view shows of a load: that the service has not answered it for long, or answered
 * its reload with an error (the view keeps what it read in both), or the error that ended it.
 */
export const LoadNotes = ({ state }: { state: LoadState<unknown> }) => (
  <>
    <NoAnswerNotice
      silentSince={state.silentSince}
      hasData={state.value !== undefined}
    />
    <ReloadFailedNotice failure={state.reloadFailed} />
    {state.error && <ErrorPanel error={state.error} />}
  </>
);
