import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';

/** An output's whole value: a string as is, anything else as JSON (indented when `indent`). */
export function outputValueText(value: unknown, indent?: number): string {
  return typeof value === 'string'
    ? value
    : JSON.stringify(value, null, indent);
}

const isStructured = (value: unknown) =>
  typeof value === 'object' && value !== null;

/**
 * An output's value in a line: a scalar as is, a list of scalars joined ("10.20.0.0/20,
 * 10.20.16.0/20"), a map by its keys ("{ cpu, errors, memory }"), where JSON ran out of the
 * cell after a few characters.
 */
export function outputSummaryText(value: unknown): string {
  if (Array.isArray(value)) {
    return value.some(isStructured)
      ? `${value.length} ${value.length === 1 ? 'item' : 'items'}`
      : value.map(item => outputValueText(item)).join(', ');
  }
  if (isStructured(value)) {
    return `{ ${Object.keys(value as object).join(', ')} }`;
  }
  return outputValueText(value);
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
  // Scalars first (a region, an id): what a cell of three lines can show whole.
  const outputs = outputsOf(output).sort(
    ([, a], [, b]) => Number(isStructured(a)) - Number(isStructured(b)),
  );
  if (outputs.length === 0) return <>—</>;
  const more = outputs.length - SUMMARY_OUTPUTS;
  return (
    <>
      {outputs.slice(0, SUMMARY_OUTPUTS).map(([name, value]) => {
        const line = `${name} = ${outputSummaryText(value)}`;
        return (
          <Typography
            key={name}
            variant="body2"
            title={`${name} = ${outputValueText(value)}`}
            style={{
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              overflowWrap: 'break-word',
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
            {/* A map or list indented over its lines, broken within a word only where one
                does not fit. */}
            <Typography
              variant="body2"
              component="dd"
              style={{
                margin: 0,
                fontFamily: 'monospace',
                whiteSpace: 'pre-wrap',
                overflowWrap: 'break-word',
                minWidth: 0,
              }}
            >
              {outputValueText(value, 2)}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
};
