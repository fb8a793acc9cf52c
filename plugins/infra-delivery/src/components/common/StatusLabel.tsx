import {
  StatusAborted,
  StatusError,
  StatusOK,
  StatusPending,
  StatusRunning,
  StatusWarning,
} from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';

const ICONS = {
  ok: StatusOK,
  error: StatusError,
  running: StatusRunning,
  warning: StatusWarning,
  aborted: StatusAborted,
  pending: StatusPending,
};

export type StatusKind = keyof typeof ICONS;

/**
 * A status as a word beside Backstage's status colour. Backstage hides its status icons from
 * screen readers together with their children, so the word stands outside the icon: it is
 * what assistive technology reads.
 */
export const StatusLabel = ({
  kind,
  label,
  wrap,
}: {
  kind: StatusKind;
  label: string;
  /** Lets a long label ("Waiting for approval") take two lines in a narrow column. */
  wrap?: boolean;
}) => {
  const Icon = ICONS[kind];
  return (
    <Box
      component="span"
      display="inline-flex"
      alignItems="center"
      style={{ whiteSpace: wrap ? 'normal' : 'nowrap' }}
    >
      <Icon />
      {/* Tables break words anywhere (`word-break: break-word`); a status word stays whole,
          "Qu/eue/d" in a phone-wide column. */}
      <Typography
        variant="body2"
        component="span"
        style={{ wordBreak: 'normal' }}
      >
        {label}
      </Typography>
    </Box>
  );
};
