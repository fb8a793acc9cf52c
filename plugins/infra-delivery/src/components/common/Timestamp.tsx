import Typography from '@material-ui/core/Typography';
import { absoluteTime, relativeTime } from './time';
import { useNow } from './useNow';

/**
 * A point in time as Backstage shows one: relative ("3 minutes ago"), kept current, with the
 * exact time on hover and in the `<time>` element for assistive technology. Never broken over
 * two lines: "6 minutes / ago" in a table column read as two facts.
 */
export const Timestamp = ({ value }: { value?: string }) => {
  // Under a minute it reads in seconds ("33 seconds ago"), which stay current beside a
  // running duration; later, every 30 seconds.
  const inSeconds =
    value !== undefined && Date.now() - Date.parse(value) < 60_000;
  const now = useNow(inSeconds ? 1_000 : 30_000, value !== undefined);
  if (!value) {
    return <>—</>;
  }
  return (
    <Typography
      variant="inherit"
      component="time"
      dateTime={value}
      title={absoluteTime(value)}
      style={{ whiteSpace: 'nowrap' }}
    >
      {relativeTime(value, now)}
    </Typography>
  );
};
