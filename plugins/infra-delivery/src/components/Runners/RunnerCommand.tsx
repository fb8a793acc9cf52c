import { CopyTextButton } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import { makeStyles } from '@material-ui/core/styles';

const useStyles = makeStyles(theme => ({
  command: {
    flex: 1,
    minWidth: 0,
    padding: theme.spacing(1),
    fontFamily: 'monospace',
    fontSize: 13,
    color: theme.palette.text.primary,
    background: theme.palette.background.paper,
    border: `1px solid ${theme.palette.divider}`,
    borderRadius: theme.shape.borderRadius,
    resize: 'vertical',
  },
}));

/**
 * A shell command to copy, read-only, with a copy button. A plain textarea sized to the
 * command: MUI's auto-sizing one measures itself after a delay and threw when the notice it
 * sits in went away first (a run claimed meanwhile).
 */
export const RunnerCommand = ({
  command,
  label = 'Command that starts a runner',
}: {
  command: string;
  label?: string;
}) => {
  const classes = useStyles();
  return (
    <Box display="flex" alignItems="flex-start" style={{ gap: 8 }}>
      <textarea
        className={classes.command}
        readOnly
        aria-label={label}
        value={command}
        rows={Math.min(6, Math.ceil(command.length / 100) + 1)}
        onFocus={event => event.target.select()}
      />
      <CopyTextButton
        text={command}
        aria-label="Copy the command"
        tooltipText="Command copied to clipboard"
      />
    </Box>
  );
};
