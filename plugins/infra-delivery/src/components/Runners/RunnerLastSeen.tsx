import Typography from '@material-ui/core/Typography';
import { relativeTime } from './relativeTime';

/** When a runner was last seen, relative to now, with the exact time on hover. */
export const RunnerLastSeen = ({ timestamp }: { timestamp: string }) => (
  <Typography
    variant="body2"
    component="time"
    dateTime={timestamp}
    title={new Date(timestamp).toLocaleString()}
  >
    {relativeTime(timestamp)}
  </Typography>
);
