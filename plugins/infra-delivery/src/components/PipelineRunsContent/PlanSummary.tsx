import {
  IacExecutionSummary,
  plansNothingToApply,
  StepExecution,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useTheme } from '@material-ui/core/styles';
import { Fragment } from 'react';
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

type ChangeKind = 'add' | 'change' | 'destroy';

const COUNTS: { sign: string; what: ChangeKind }[] = [
  { sign: '+', what: 'add' },
  { sign: '~', what: 'change' },
  { sign: '−', what: 'destroy' },
];

/**
 * One count of `+add ~change −destroy`: in its colour where it counts something, in the
 * text's where it is 0 — a red "−0" read as something destroyed — and named in full on hover.
 */
const Count = ({
  sign,
  count,
  colour,
  what,
}: {
  sign: string;
  count: number;
  colour: string;
  what: ChangeKind;
}) => (
  <span
    style={count > 0 ? { color: colour } : undefined}
    title={`${count} to ${what}`}
  >
    {sign}
    {count}
  </span>
);

export const PlanSummary = ({ summary }: { summary: IacExecutionSummary }) => {
  const colour = COLOURS[useTheme().palette.type];
  return (
    <Box marginY={1}>
      <Typography variant="subtitle2" component="p">
        {RUN_TYPE_LABELS[summary.runType]}:{' '}
        {COUNTS.map(({ sign, what }, index) => (
          <Fragment key={what}>
            {index > 0 && ' '}
            <Count
              sign={sign}
              count={summary[`${what}Count`]}
              colour={colour[what]}
              what={what}
            />
          </Fragment>
        ))}
        {summary.importCount > 0 && ` · ${summary.importCount} to import`}
        {summary.replaceCount > 0 && ` · ${summary.replaceCount} replaced`}
        {summary.readCount > 0 && ` · ${summary.readCount} read`}
        {` · ${summary.unchangedCount} unchanged`}
        {/* The run then skipped its approval and apply: say why they did not happen. */}
        {plansNothingToApply(summary) && ' · nothing to apply'}
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
