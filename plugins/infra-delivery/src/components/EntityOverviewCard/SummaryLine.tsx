import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';
import { useSummaryLineClass } from './SummaryColumns';

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
  <div className={useSummaryLineClass()}>
    <div>{status}</div>
    <Box minWidth={0}>
      <Typography variant="body2">{children}</Typography>
      {detail && (
        <Typography variant="caption" color="textSecondary" component="p">
          {detail}
        </Typography>
      )}
    </Box>
  </div>
);
