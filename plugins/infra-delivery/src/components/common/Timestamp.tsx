import Typography from '@material-ui/core/Typography';
import { absoluteTime, relativeTime } from './time';
import { useNow } from './useNow';

/**
 * A point in time as Backstage shows one: relative ("3 minutes ago"), kept current, with the
 * exact time on hover and in the `<time>` element for assistive technology. Never broken over
 * two lines: "6 minutes / ago" in a table column read as two facts.
 */
export const Timestamp = ({ value }: { value?: string }) => {
  const now = useNow(30_000, value !== undefined);
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
