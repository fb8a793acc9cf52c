import { useApi } from '@backstage/frontend-plugin-api';
import { Runner } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import CircularProgress from '@material-ui/core/CircularProgress';
import Typography from '@material-ui/core/Typography';
import Alert from '@material-ui/lab/Alert';
import { useCallback, useEffect, useState } from 'react';
import useInterval from 'react-use/esm/useInterval';
import { infraDeliveryApiRef } from '../../api';

/** How often the dialog looks for the new runner: a runner asks for work every 2 s. */
export const ARRIVAL_POLL_MS = 2_000;

/**
 * Under the command that starts a runner: waits for a runner that signs in with the new service
 * account's key to ask for work, and says when it has, so that whoever ran the command sees it
 * took (a key of another organization, or a runner that cannot reach the portal, never shows).
 */
export const RunnerArrival = ({
  serviceAccountId,
}: {
  serviceAccountId: string;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const [arrived, setArrived] = useState<Runner>();
  const [error, setError] = useState<Error>();

  const look = useCallback(async () => {
    try {
      // Runners of the new account are online and new: the first page of online ones.
      const page = await client.call('listRunners', {
        query: { status: 'ONLINE', limit: 100 },
      });
      setArrived(
        page.data.find(runner => runner.serviceAccountId === serviceAccountId),
      );
      setError(undefined);
    } catch (e) {
      setError(e as Error);
    }
  }, [client, serviceAccountId]);

  useEffect(() => {
    look();
  }, [look]);
  useInterval(look, arrived ? null : ARRIVAL_POLL_MS);

  if (arrived) {
    const where = arrived.hostname
      ? `${arrived.runnerId} on ${arrived.hostname}`
      : arrived.runnerId;
    // Named as the admin named it in the dialog: the service account's name.
    return (
      <Alert severity="success" role="status">
        {`${
          arrived.serviceAccountName ?? 'The runner'
        } is connected (${where}): it takes the next step queued for a runner.`}
      </Alert>
    );
  }
  return (
    <Box display="flex" alignItems="center" style={{ gap: 8 }} role="status">
      <CircularProgress size={16} aria-hidden />
      <Typography variant="body2" color="textSecondary">
        {error
          ? `Waiting for the runner to connect (could not check just now: ${error.message})…`
          : 'Waiting for the runner to connect: it shows here once it asks for work.'}
      </Typography>
    </Box>
  );
};
