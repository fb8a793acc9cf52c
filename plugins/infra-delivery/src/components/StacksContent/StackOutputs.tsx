import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';

/** An output's value as people read it: a string as is, anything else as JSON. */
export function outputValueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function outputsOf(output: Record<string, unknown> | undefined) {
  return Object.entries(output ?? {});
}

/** How many outputs a table cell shows; the drawer shows them all. */
const SUMMARY_OUTPUTS = 3;

/**
 * A stack's outputs in a table cell: at most two lines each, and at most three outputs, the
 * whole value in each line's tooltip and every value whole in the drawer. A list or an id
 * wrapped over the whole screen's height before.
 */
export const StackOutputsSummary = ({
  output,
}: {
  output: Record<string, unknown> | undefined;
}) => {
  const outputs = outputsOf(output);
  if (outputs.length === 0) return <>—</>;
  const more = outputs.length - SUMMARY_OUTPUTS;
  return (
    <>
      {outputs.slice(0, SUMMARY_OUTPUTS).map(([name, value]) => {
        const line = `${name} = ${outputValueText(value)}`;
        return (
          <Typography
            key={name}
            variant="body2"
            title={line}
            style={{
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              overflowWrap: 'anywhere',
            }}
          >
            {line}
          </Typography>
        );
      })}
      {more > 0 && (
        <Typography variant="caption" color="textSecondary">
          and {more} more
        </Typography>
      )}
    </>
  );
};

/** A stack's outputs in its drawer: each name with its whole value. */
export const StackOutputsSection = ({
  output,
}: {
  output: Record<string, unknown> | undefined;
}) => {
  const outputs = outputsOf(output);
  if (outputs.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="outputs-heading" marginBottom={2}>
      <Typography variant="h6" component="h3" id="outputs-heading">
        Outputs
      </Typography>
      <Box component="dl" margin={0}>
        {outputs.map(([name, value]) => (
          <Box key={name} display="flex" style={{ gap: 8 }}>
            <Typography
              variant="body2"
              component="dt"
              style={{ fontWeight: 500, whiteSpace: 'nowrap' }}
            >
              {name}
            </Typography>
            <Typography
              variant="body2"
              component="dd"
              style={{
                margin: 0,
                fontFamily: 'monospace',
                overflowWrap: 'anywhere',
              }}
            >
              {outputValueText(value)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
};
