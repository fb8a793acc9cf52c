import Typography from '@material-ui/core/Typography';
import { Duration } from './Duration';
import { Timestamp } from './Timestamp';

/**
 * When something started, and under it how long it took (or has taken so far): one column
 * instead of two, so that a table keeps room for its actions on a narrow screen. What has not
 * started says so, with when it was queued: a queued run read "Started 3 minutes ago".
 */
export const StartedAndTook = ({
  at,
  startedAt,
  completedAt,
}: {
  /** The time shown: when it started, or was created while it has not started yet. */
  at?: string;
  /** When it started: no duration before. */
  startedAt?: string;
  completedAt?: string;
}) => {
  if (at && !startedAt) {
    return (
      <>
        {completedAt ? 'Never started' : 'Not started'}
        {/* In a column kept on one line, the caption may break after "queued": at 900 px
            "queued 50 minutes ago" made the runs table 22 px wider than its card. */}
        <Typography
          variant="caption"
          color="textSecondary"
          component="div"
          style={{ whiteSpace: 'normal' }}
        >
          queued{' '}
          <span style={{ whiteSpace: 'nowrap' }}>
            <Timestamp value={at} />
          </span>
        </Typography>
      </>
    );
  }
  return (
    <>
      <Timestamp value={at} />
      {startedAt && (
        <Typography variant="caption" color="textSecondary" component="div">
          {completedAt && 'took '}
          <Duration startedAt={startedAt} completedAt={completedAt} />
          {!completedAt && ' so far'}
        </Typography>
      )}
    </>
  );
};
