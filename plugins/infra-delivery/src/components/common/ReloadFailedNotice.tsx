import { InfraDeliveryApiError } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Alert from '@material-ui/lab/Alert';
import AlertTitle from '@material-ui/lab/AlertTitle';
import { errorTitleOf, messageOf } from './ErrorPanel';
import { ReloadFailure } from './loadState';
import { Timestamp } from './Timestamp';

/**
 * Above a view that keeps what it read through a reload the service answered with an error
 * (`useLiveLoad`): what went wrong, as the service said it, and how old what is shown is. Gone
 * with the next answer.
 */
export const ReloadFailedNotice = ({
  failure,
}: {
  failure: ReloadFailure | undefined;
}) => {
  if (!failure) return null;
  const { error, readAt } = failure;
  const requestId =
    error instanceof InfraDeliveryApiError ? error.body.requestId : undefined;
  return (
    <Box marginBottom={2}>
      <Alert severity="warning" role="status">
        <AlertTitle>
          Could not read this again: {errorTitleOf(error)}
        </AlertTitle>
        {/* The service's message on its own line: it need not end as a sentence does. */}
        <div>{messageOf(error)}</div>
        <div>
          What you see was read{' '}
          <Timestamp value={new Date(readAt).toISOString()} /> and may be out of
          date. Trying again…
          {requestId && ` Request id: ${requestId}`}
        </div>
      </Alert>
    </Box>
  );
};
