import Typography from '@material-ui/core/Typography';

/**
 * A secondary line of a table cell (why a run or deployment failed) cut to `lines` lines, the
 * whole text on hover; the row's own page says it in full. A failure's reason ran over eight
 * lines in the Overview's cards.
 */
export const ClampedCaption = ({
  text,
  lines = 3,
}: {
  text: string;
  lines?: number;
}) => (
  <Typography
    variant="caption"
    color="textSecondary"
    component="div"
    title={text}
    style={{
      display: '-webkit-box',
      WebkitLineClamp: lines,
      WebkitBoxOrient: 'vertical',
      overflow: 'hidden',
    }}
  >
    {text}
  </Typography>
);
