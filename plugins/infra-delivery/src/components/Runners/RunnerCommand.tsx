import { CopyTextButton } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import TextField from '@material-ui/core/TextField';

/** A shell command to copy, read-only, with a copy button. */
export const RunnerCommand = ({
  command,
  label = 'Command that starts a runner',
}: {
  command: string;
  label?: string;
}) => (
  <Box display="flex" alignItems="flex-start" style={{ gap: 8 }}>
    <TextField
      fullWidth
      multiline
      variant="outlined"
      size="small"
      value={command}
      inputProps={{
        readOnly: true,
        'aria-label': label,
        style: { fontFamily: 'monospace', fontSize: 13 },
      }}
      onFocus={event => event.target.select()}
    />
    <CopyTextButton
      text={command}
      aria-label="Copy the command"
      tooltipText="Command copied to clipboard"
    />
  </Box>
);
