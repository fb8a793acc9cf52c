import {
  IacExecutionSummary,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useTheme } from '@material-ui/core/styles';
import { RUN_TYPE_LABELS } from '../common/labels';

/**
 * `+add ~change −destroy`, with imports and replacements, as a plan's first line; a plan that
 * changes nothing says it has nothing to apply. The colours
 * keep a contrast of at least 4.5:1 on the card, in light and dark themes.
 */
const COLOURS = {
  light: { add: '#1b5e20', change: '#b45309', destroy: '#c62828' },
  dark: { add: '#81c784', change: '#ffb74d', destroy: '#ef9a9a' },
};

export const PlanSummary = ({ summary }: { summary: IacExecutionSummary }) => {
  const colour = COLOURS[useTheme().palette.type];
  return (
    <Box marginY={1}>
      <Typography variant="subtitle2" component="p">
        {RUN_TYPE_LABELS[summary.runType]}:{' '}
        <span style={{ color: colour.add }}>+{summary.addCount}</span>{' '}
        <span style={{ color: colour.change }}>~{summary.changeCount}</span>{' '}
        <span style={{ color: colour.destroy }}>−{summary.destroyCount}</span>
        {summary.importCount > 0 && ` · ${summary.importCount} to import`}
        {summary.replaceCount > 0 && ` · ${summary.replaceCount} replaced`}
        {summary.readCount > 0 && ` · ${summary.readCount} read`}
        {` · ${summary.unchangedCount} unchanged`}
        {/* The run then skipped its approval and apply: say why they did not happen. */}
        {summary.runType === 'PLAN' &&
          !summary.applyable &&
          ' · nothing to apply'}
      </Typography>
    </Box>
  );
};

/**
 * A run's summaries in the order of their steps, as the run did them: the plan above the
 * apply or destroy that carried it out, where the service's newest-first order put the
 * destroy above the plan it followed.
 */
export function summariesInStepOrder(
  summaries: IacExecutionSummary[],
  steps: Pick<StepExecution, 'id' | 'position'>[],
): IacExecutionSummary[] {
  const position = new Map(steps.map(step => [step.id, step.position]));
  const at = (summary: IacExecutionSummary) =>
    position.get(summary.stepExecutionId) ?? Number.MAX_SAFE_INTEGER;
  return [...summaries].sort((a, b) => at(a) - at(b));
}
