import { formatDuration } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Alert from '@material-ui/lab/Alert';
import { useSilentFor } from './useSilentFor';

/**
 * Above a live view: how long the service has not answered its reading, once that is long
 * (`NO_ANSWER_NOTICE_MS`), counting; gone with the next answer. A frozen backend left the run
 * page saying "Waiting for approval" for 78 s as if that were known. Where data is shown, it
 * stays, and the notice says it may be out of date.
 */
export const NoAnswerNotice = ({
  silentSince,
  hasData = true,
}: {
  /** When the load still unanswered was sent (`useLiveLoad`). */
  silentSince: number | undefined;
  /** Whether the view shows data read earlier (false: it waits for its first answer). */
  hasData?: boolean;
}) => {
  const silentFor = useSilentFor(silentSince);
  if (silentFor === undefined) return null;
  const waited = `No answer from the infrastructure service for ${formatDuration(
    silentFor * 1_000,
  )}`;
  return (
    <Box marginBottom={2}>
      <Alert severity="warning" role="status">
        {hasData
          ? `${waited}: what you see may be out of date. Retrying…`
          : `${waited}. Still waiting…`}
      </Alert>
    </Box>
  );
};
