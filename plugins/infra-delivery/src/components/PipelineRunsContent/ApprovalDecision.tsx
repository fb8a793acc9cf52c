import { StepExecution } from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { PrincipalName } from '../common/PersonName';
import { PeopleNames } from '../common/useRunNames';
import { RunStatus } from '../common/RunStatus';
import { StatusLabel } from '../common/StatusLabel';
import { Timestamp } from '../common/Timestamp';
import { noLogsText, StepRun } from './StepLogs';

/** What a person decided on an approval step: its `outputs` since the service keeps them. */
function decisionOf(step: StepExecution) {
  const outputs = step.outputs ?? {};
  const text = (value: unknown) =>
    typeof value === 'string' && value ? value : undefined;
  return {
    decidedById: text(outputs.decidedById),
    comment: text(outputs.comment),
  };
}

/** Whether a person approved (`SUCCEEDED`) or rejected (`FAILED`, ended) the approval step. */
function isDecided(step: StepExecution): boolean {
  return (
    step.status === 'SUCCEEDED' ||
    (step.status === 'FAILED' && step.completedAt !== undefined)
  );
}

/**
 * An approval step's status as the decision taken: Approved or Rejected. "Succeeded" and
 * "Failed" read as if the approval itself had run, and "Failed" as if something broke when a
 * person said no.
 */
export const ApprovalStatus = ({ step }: { step: StepExecution }) => {
  if (!isDecided(step)) return <RunStatus status={step.status} />;
  return step.status === 'SUCCEEDED' ? (
    <StatusLabel kind="ok" label="Approved" />
  ) : (
    <StatusLabel kind="error" label="Rejected" />
  );
};

/**
 * An approval step's record in place of logs (it writes none): who approved or rejected it,
 * when, and what they wrote; while it waits, what it waits for. "An approval writes no logs"
 * left no trace of who let an apply through.
 */
export const ApprovalDecision = ({
  step,
  names,
  run,
}: {
  step: StepExecution;
  /** The step's run, for why an approval that never started did not. */
  run?: StepRun;
  /** A member's email or a service account's name for an id. */
  names: PeopleNames;
}) => {
  if (!isDecided(step)) {
    return <Typography variant="caption">{noLogsText(step, run)}</Typography>;
  }
  const { decidedById, comment } = decisionOf(step);
  const verb = step.status === 'SUCCEEDED' ? 'Approved' : 'Rejected';

  return (
    <Box>
      <Typography variant="body2">
        {verb}
        {/* Named as the run's header names who started it. */}
        {decidedById && (
          <>
            {' '}
            by{' '}
            <PrincipalName
              id={decidedById}
              name={names.personName(decidedById)}
              loaded={names.peopleLoaded}
              inText
            />
          </>
        )}{' '}
        <Timestamp value={step.completedAt} />
      </Typography>
      {comment && (
        <Typography
          variant="body2"
          component="blockquote"
          style={{ margin: '8px 0 0', whiteSpace: 'pre-wrap' }}
        >
          “{comment}”
        </Typography>
      )}
    </Box>
  );
};
