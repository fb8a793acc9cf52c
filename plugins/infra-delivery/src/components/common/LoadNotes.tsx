import { ErrorPanel } from './ErrorPanel';
import { LoadState } from './loadState';
import { NoAnswerNotice } from './NoAnswerNotice';

/**
 * Above what a view shows of a load: that the service has not answered it for long (the view
 * keeps what it read), or the error that ended it.
 */
export const LoadNotes = ({ state }: { state: LoadState<unknown> }) => (
  <>
    <NoAnswerNotice
      silentSince={state.silentSince}
      hasData={state.value !== undefined}
    />
    {state.error && <ErrorPanel error={state.error} />}
  </>
);
