import { formatDuration } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { WarningText } from './WarningText';

/**
 * Under a dialog's greyed button while its request has gone unanswered long (`useSilentFor`):
 * the Approve dialog stayed open and greyed for the 78 s its backend was frozen, and could not
 * be closed. The request may still be carried out, so closing does not read as cancelling.
 */
export const NoAnswerNote = ({
  silentFor,
}: {
  silentFor: number | undefined;
}) =>
  silentFor === undefined ? null : (
    <Box paddingX={3} paddingBottom={2} role="status">
      <Typography variant="body2">
        <WarningText>
          The service has not answered for {formatDuration(silentFor * 1_000)}.
          It may still carry out the request; closing this dialog will not
          cancel it.
        </WarningText>
      </Typography>
    </Box>
  );
