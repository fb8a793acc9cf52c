import { WarningPanel } from '@backstage/core-components';
import { InfraDeliveryApiError } from '@internal/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';

/** An error as a person can act on it: the service's message, and the request id to quote. */
export const ErrorPanel = ({
  error,
  title = 'The infrastructure service answered with an error',
}: {
  error: Error;
  title?: string;
}) => (
  <WarningPanel severity="error" title={title}>
    <Typography>{error.message}</Typography>
    {error instanceof InfraDeliveryApiError && (
      <Typography variant="caption" component="p">
        {error.body.code}
        {error.body.requestId ? ` · Request id: ${error.body.requestId}` : ''}
      </Typography>
    )}
  </WarningPanel>
);
