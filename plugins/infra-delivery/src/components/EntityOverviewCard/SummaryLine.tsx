import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import Skeleton from '@material-ui/lab/Skeleton';
import { ReactNode } from 'react';
import { useSummaryLineClass } from './SummaryColumns';

/** A status beside what it is about, with a secondary line under it. */
export const SummaryLine = ({
  status,
  children,
  detail,
  loading,
}: {
  status: ReactNode;
  children: ReactNode;
  detail?: ReactNode;
  /** A placeholder, announced as loading. */
  loading?: boolean;
}) => (
  <div
    className={useSummaryLineClass()}
    {...(loading && { role: 'progressbar', 'aria-label': 'Loading' })}
  >
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

/**
 * A line still loading, as tall as a loaded one with its secondary line: the card keeps its
 * sections in their final order and size instead of growing them in as each load answers.
 */
export const SummaryLinePlaceholder = () => (
  <SummaryLine
    loading
    status={
      <Typography variant="body2">
        <Skeleton width={72} />
      </Typography>
    }
    detail={<Skeleton width="35%" />}
  >
    <Skeleton width="60%" />
  </SummaryLine>
);
