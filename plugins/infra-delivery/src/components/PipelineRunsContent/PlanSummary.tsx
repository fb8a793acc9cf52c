import { IacExecutionSummary } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { RUN_TYPE_LABELS } from '../common/labels';

/** `+add ~change −destroy`, with imports and replacements, as a plan's first line. */
export const PlanSummary = ({ summary }: { summary: IacExecutionSummary }) => (
  <Box marginY={1}>
    <Typography variant="subtitle2">
      {RUN_TYPE_LABELS[summary.runType]}:{' '}
      <span style={{ color: '#2e7d32' }}>+{summary.addCount}</span>{' '}
      <span style={{ color: '#ed6c02' }}>~{summary.changeCount}</span>{' '}
      <span style={{ color: '#d32f2f' }}>−{summary.destroyCount}</span>
      {summary.importCount > 0 && ` · ${summary.importCount} to import`}
      {summary.replaceCount > 0 && ` · ${summary.replaceCount} replaced`}
      {summary.readCount > 0 && ` · ${summary.readCount} read`}
      {` · ${summary.unchangedCount} unchanged`}
    </Typography>
  </Box>
);
