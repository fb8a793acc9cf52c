import { LogViewer } from '@backstage/core-components';
import { StepExecution } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useMemo } from 'react';
import { ErrorPanel } from '../common/ErrorPanel';
import { useStepLogs } from './useStepLogs';

/** The height of the log viewer: it scrolls and searches within it. */
const LOG_HEIGHT = 320;

/** A step's logs as they grow, with ANSI colours, search and links to lines. */
export const StepLogs = ({ step }: { step: StepExecution }) => {
  const { lines, loading, error } = useStepLogs(step.id, step.status);
  const text = useMemo(() => lines.map(line => line.text).join('\n'), [lines]);

  if (loading) {
    return <Typography variant="caption">Loading logs…</Typography>;
  }
  const active = step.status === 'RUNNING' || step.status === 'QUEUED';
  return (
    <Box width="100%">
      {error && <ErrorPanel error={error} title="Could not read the logs" />}
      {lines.length > 0 && (
        <Box height={LOG_HEIGHT}>
          <LogViewer text={text} />
        </Box>
      )}
      {lines.length === 0 && !error && (
        <Typography variant="caption">
          {active ? 'No log lines yet.' : 'No log lines.'}
        </Typography>
      )}
    </Box>
  );
};
