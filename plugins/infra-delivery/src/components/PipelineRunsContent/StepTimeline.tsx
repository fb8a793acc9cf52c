import {
  PipelineRun,
  StepExecution,
  RunChangeSummary,
} from '@infra-delivery/plugin-infra-delivery-common';
import Accordion from '@material-ui/core/Accordion';
import AccordionDetails from '@material-ui/core/AccordionDetails';
import AccordionSummary from '@material-ui/core/AccordionSummary';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import ExpandMoreIcon from '@material-ui/icons/ExpandMore';
import { makeStyles } from '@material-ui/core/styles';
import { useState } from 'react';
import { Duration } from '../common/Duration';
import { STEP_TYPE_LABELS } from '../common/labels';
import { RunChanges, RunStatus } from '../common/RunStatus';
import { ApprovalDecision, ApprovalStatus } from './ApprovalDecision';
import { StepLogs, StepRun } from './StepLogs';
import { RunnerSilenceNotice, StepRunnerCaption } from './StepRunner';
import { ErrorText } from '../common/WarningText';
import { TITLE_INSET } from '../common/CardBody';
import { PeopleNames } from '../common/useRunNames';

/**
 * Steps as the rows of their card, a line between each: MUI's accordions are raised boxes
 * that part when one opens, which inside a card drew boxes in a box.
 */
const useStepStyles = makeStyles(theme => ({
  step: {
    '&:before': { display: 'none' },
    '& + &': { borderTop: `1px solid ${theme.palette.divider}` },
    '&$expanded': { margin: 0 },
  },
  expanded: {},
  // Lined up with the card's title, as the card's other text (see TITLE_INSET).
  inset: { paddingLeft: theme.spacing(TITLE_INSET) },
}));

/** The step the run is at: the running one, else the next queued one. */
function activeStepId(steps: StepExecution[]): string | undefined {
  return (
    steps.find(step => step.status === 'RUNNING') ??
    steps.find(step => step.status === 'QUEUED')
  )?.id;
}

/**
 * The plan an approval that waits asks a person to decide on: the last plan step before it.
 */
function planToReview(steps: StepExecution[]): string | undefined {
  const waiting = steps.find(step => step.status === 'WAITING_FOR_APPROVAL');
  return (
    waiting &&
    steps
      .filter(
        step => step.type === 'iac.plan' && step.position < waiting.position,
      )
      .sort((a, b) => b.position - a.position)[0]?.id
  );
}

/**
 * The run's steps in order; opening one shows its logs. Until the person opens or closes one
 * themselves, the step the run is at is open, so its logs show as they come; when the run
 * ends, the step it was at last stays open. A run that had ended before the page opened shows
 * its failed step's log: the tool's explanation of the failure is there; one that waits for
 * approval shows the plan to decide on (its page opened with every step closed). A step's error is said
 * beside its name unless the run says the same above (a failed run page said one message
 * three times: the run's, the step's and the log's).
 */
export const StepTimeline = ({
  steps,
  runStatus,
  runError,
  names,
  changeSummary,
}: {
  steps: StepExecution[];
  /** What the run's plan would change: the approval that waits says what it would let through. */
  changeSummary?: RunChangeSummary;
  /** The run's status, for why a step that never started did not. */
  runStatus?: PipelineRun['status'];
  /** The message of the run's own error, shown above the steps. */
  runError?: string;
  /** Who an id names, for who decided an approval. */
  names: PeopleNames;
}) => {
  // undefined: not chosen yet (the active step is open); null: all closed.
  const classes = useStepStyles();
  const [chosen, setChosen] = useState<string | null>();
  const active = activeStepId(steps);
  const run: StepRun | undefined = runStatus && {
    status: runStatus,
    error: runError,
    steps,
  };
  const [lastActive, setLastActive] = useState(active);
  if (active && active !== lastActive) {
    setLastActive(active);
  }
  const open =
    chosen === undefined
      ? active ??
        lastActive ??
        planToReview(steps) ??
        steps.find(step => step.status === 'FAILED')?.id
      : chosen;
  return (
    <>
      {steps.map(step => (
        <Accordion
          key={step.id}
          square
          elevation={0}
          classes={{ root: classes.step, expanded: classes.expanded }}
          expanded={open === step.id}
          onChange={(_, expanded) => setChosen(expanded ? step.id : null)}
          TransitionProps={{ unmountOnExit: true }}
        >
          <AccordionSummary
            expandIcon={<ExpandMoreIcon />}
            className={classes.inset}
          >
            <Box
              display="flex"
              flexWrap="wrap"
              alignItems="center"
              style={{ gap: 16 }}
            >
              <Typography>
                {step.position + 1}. {step.name}
              </Typography>
              <Typography variant="caption" color="textSecondary">
                {STEP_TYPE_LABELS[step.type]}
              </Typography>
              {step.type === 'approval' ? (
                <>
                  <ApprovalStatus step={step} />
                  {step.status === 'WAITING_FOR_APPROVAL' && changeSummary && (
                    <Typography variant="body2">
                      Would apply
                      <RunChanges summary={changeSummary} />
                    </Typography>
                  )}
                </>
              ) : (
                <RunStatus status={step.status} />
              )}
              <Typography variant="caption" color="textSecondary">
                <Duration
                  startedAt={step.startedAt}
                  completedAt={step.completedAt}
                />
              </Typography>
              <StepRunnerCaption step={step} />
              {step.error && step.error.message !== runError && (
                <Typography variant="caption">
                  <ErrorText>{step.error.message}</ErrorText>
                </Typography>
              )}
            </Box>
          </AccordionSummary>
          <AccordionDetails className={classes.inset}>
            <Box width="100%">
              <RunnerSilenceNotice step={step} />
              {step.type === 'approval' ? (
                <ApprovalDecision step={step} names={names} run={run} />
              ) : (
                <StepLogs step={step} run={run} />
              )}
            </Box>
          </AccordionDetails>
        </Accordion>
      ))}
    </>
  );
};
