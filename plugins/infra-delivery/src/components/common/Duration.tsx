import Typography from '@material-ui/core/Typography';
import { formatDuration } from '@infra-delivery/plugin-infra-delivery-common';
import { absoluteTime } from './time';
import { useNow } from './useNow';

/**
 * How long a run, step or deployment took, or has taken so far while it runs (counting every
 * second); nothing before it started. The hover text gives the start and end.
 */
export const Duration = ({
  startedAt,
  completedAt,
}: {
  startedAt?: string;
  completedAt?: string;
}) => {
  const running = startedAt !== undefined && completedAt === undefined;
  const now = useNow(1_000, running);
  if (!startedAt) {
    return <>—</>;
  }
  const end = completedAt ? Date.parse(completedAt) : now;
  const hover = `Started ${absoluteTime(startedAt)}${
    completedAt ? `, ended ${absoluteTime(completedAt)}` : ', not ended yet'
  }`;
  return (
    <Typography variant="inherit" component="span" title={hover}>
      {formatDuration(end - Date.parse(startedAt))}
    </Typography>
  );
};
