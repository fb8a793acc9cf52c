import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';

/** A status beside what it is about, with a secondary line under it. */
export const SummaryLine = ({
  status,
  children,
  detail,
}: {
  status: ReactNode;
  children: ReactNode;
  detail?: ReactNode;
}) => (
  <Box display="flex" alignItems="flex-start" style={{ gap: 8 }} paddingY={0.5}>
    <Box flexShrink={0}>{status}</Box>
    <Box minWidth={0}>
      <Typography variant="body2">{children}</Typography>
      {detail && (
        <Typography variant="caption" color="textSecondary" component="p">
          {detail}
        </Typography>
      )}
    </Box>
  </Box>
);
