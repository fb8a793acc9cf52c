import { useApi } from '@backstage/frontend-plugin-api';
import {
  IacExecutionSummary,
  PipelineRun,
  PLAN_CHANGED_ERROR_CODE,
  StepExecution,
  StepType,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { infraDeliveryApiRef } from '../../api';
import { Outcome } from '../common/ActionMessage';
import { AttemptKey } from '../common/attemptKey';
import { ConfirmActionButton } from '../common/ConfirmActionButton';
import { useApprovalNotificationRead } from '../common/useApprovalNotificationRead';
import { useCanExecuteRuns } from '../common/useCanExecuteRuns';

/**
 * What an approval lets through, its changes only: "The plan changes 3 resources.", "The plan
 * adds 5, changes 1 and destroys 2 resources."
 */
export function planCounts(plan: IacExecutionSummary): string {
  const changes = (
    [
      ['adds', plan.addCount],
      ['changes', plan.changeCount],
      ['replaces', plan.replaceCount],
      ['destroys', plan.destroyCount],
    ] as const
  ).filter(([, count]) => count > 0);
  if (changes.length === 0) {
    return 'The plan changes no resources.';
  }
  const phrases = changes.map(([verb, count]) => `${verb} ${count}`);
  const last = phrases.pop()!;
  const noun = changes[changes.length - 1][1] === 1 ? 'resource' : 'resources';
  return `The plan ${
    phrases.length > 0 ? `${phrases.join(', ')} and ` : ''
  }${last} ${noun}.`;
}

/**
 * Approve, reject, cancel, retry or plan again: only those the run's state allows, and only if
 * permitted.
 */
/** The longest comment an approval or rejection keeps. */
const COMMENT_MAX_LENGTH = 2000;

/** What cancelling does to a run in this status, as its dialog says it. */
function cancelEffect(status: PipelineRun['status']): string {
  switch (status) {
    case 'QUEUED':
      return 'The run has not started: it leaves the queue and none of its steps runs.';
    case 'WAITING_FOR_APPROVAL':
      return 'Nothing is applied, and none of the steps after the approval runs.';
    default:
      return 'A running step is stopped by its runner; nothing after it runs.';
  }
}

/** What a step after an approval does, in the words of "the destroy runs next". */
const NEXT_STEP_WORDS: Record<StepType, string> = {
  'iac.plan': 'plan',
  'iac.apply': 'apply',
  'iac.destroy': 'destroy',
  approval: 'approval',
  'container.deploy': 'deployment',
};

/**
 * The step an approval lets run: the one after the approval that waits, else what the run's
 * pipeline does ("Destroy" destroys). A destroy run's approval said "the apply runs next".
 */
export function nextStepWord(
  steps: StepExecution[],
  pipelineKind?: string,
): string | undefined {
  const ordered = [...steps].sort((a, b) => a.position - b.position);
  const waiting = ordered.findIndex(
    step => step.type === 'approval' && step.status === 'WAITING_FOR_APPROVAL',
  );
  const next = waiting >= 0 ? ordered[waiting + 1] : undefined;
  if (next) return NEXT_STEP_WORDS[next.type];
  if (pipelineKind === 'Destroy') return 'destroy';
  if (pipelineKind === 'Plan & apply') return 'apply';
  return undefined;
}

export const RunActions = ({
  run,
  plans = [],
  steps = [],
  pipelineKind,
  runPath,
  onDone,
}: {
  run: PipelineRun;
  /** The run's plan summaries: the approve dialog repeats what will be applied. */
  plans?: IacExecutionSummary[];
  /** The run's steps: the approve dialog names the step it lets run. */
  steps?: StepExecution[];
  /** "Plan & apply" or "Destroy": names that step when the steps do not. */
  pipelineKind?: string;
  /** The page of a run: where a run started here is followed. */
  runPath: (runId: string) => string | undefined;
  /** Called after an action, with what it did, as a person reads it. */
  onDone: (outcome: Outcome) => void;
}) => {
  const client = useApi(infraDeliveryApiRef);
  const canExecute = useCanExecuteRuns();
  const markApprovalNotificationRead = useApprovalNotificationRead();
  if (!canExecute) {
    return null;
  }
  const act = (operation: 'cancelPipelineRun' | 'retryPipelineRun') =>
    client.call(operation, { params: { id: run.id }, body: { data: {} } });
  const decide = async (
    operation: 'approvePipelineRun' | 'rejectPipelineRun',
    comment: string,
  ) => {
    const decided = await client.call(operation, {
      params: { id: run.id },
      body: { data: comment ? { comment } : {} },
    });
    await markApprovalNotificationRead(run.id);
    return decided;
  };
  // What an action did, not the status it left the run in: the status beside the message
  // moves on live, and "The run is now Running" read wrong once the apply had succeeded.
  const saying = (what: string) => () => onDone({ text: `${what}.` });
  const next = nextStepWord(steps, pipelineKind);
  const continues = next
    ? `the ${next} runs next`
    : 'the run continues with its next step';
  const approved = ({ data }: { data: PipelineRun }) =>
    onDone({
      text:
        data.status === 'WAITING_FOR_APPROVAL'
          ? 'Approved: the run waits for its next approval.'
          : `Approved: ${continues}.`,
      whileUnderWay: data.id,
      // Once the run has ended, nothing runs next.
      onceEnded: 'Approved.',
    });
  // Its apply found other changes than the approved plan's: retrying would compare with the
  // same plan again, so a new run of the pipeline plans them, with the same input.
  const planChanged =
    run.status === 'FAILED' && run.error?.code === PLAN_CHANGED_ERROR_CODE;
  const planAgain = (note: string, { idempotencyKey }: AttemptKey) =>
    client.call('triggerPipelineRun', {
      params: { id: run.pipelineId },
      idempotencyKey,
      body: {
        data: {
          ...(run.input ? { input: run.input } : {}),
          ...(note ? { description: note } : {}),
        },
      },
    });
  const plannedAgain = ({ data }: { data: PipelineRun }) => {
    const to = runPath(data.id);
    onDone({
      text: 'Started a new run that plans the changes again.',
      link: to ? { to, label: 'Follow the run' } : undefined,
    });
  };

  return (
    <Box display="flex" flexWrap="wrap" style={{ gap: 8 }}>
      {run.status === 'WAITING_FOR_APPROVAL' && (
        <>
          <ConfirmActionButton
            label="Approve"
            title="Approve the plan?"
            onConfirm={comment => decide('approvePipelineRun', comment)}
            onDone={approved}
            noteLabel="Comment (optional)"
            noteHelperText="Shown with the approval on the run's page"
            noteMaxLength={COMMENT_MAX_LENGTH}
          >
            {plans
              .filter(plan => plan.runType === 'PLAN')
              .map(plan => (
                <Typography key={plan.id} paragraph>
                  <strong>{planCounts(plan)}</strong>
                </Typography>
              ))}
            <Typography>
              {next
                ? `The run continues with the next step (${next}).`
                : 'The run continues with its next step.'}
            </Typography>
          </ConfirmActionButton>
          <ConfirmActionButton
            label="Reject"
            color="secondary"
            title="Reject the plan?"
            onConfirm={comment => decide('rejectPipelineRun', comment)}
            onDone={saying('Rejected: nothing is applied')}
            noteLabel="Why (optional)"
            noteHelperText="Shown with the rejection on the run's page"
            noteMaxLength={COMMENT_MAX_LENGTH}
          >
            <Typography>The run fails and nothing is applied.</Typography>
          </ConfirmActionButton>
        </>
      )}
      {run.isCancellable && (
        <ConfirmActionButton
          label="Cancel run"
          color="secondary"
          title="Cancel this run?"
          onConfirm={() => act('cancelPipelineRun')}
          onDone={saying('Cancelled')}
          dismissLabel="Keep the run"
        >
          <Typography>{cancelEffect(run.status)}</Typography>
        </ConfirmActionButton>
      )}
      {planChanged && (
        <ConfirmActionButton
          label="Plan again"
          title="Plan the changes again?"
          onConfirm={planAgain}
          onDone={plannedAgain}
          noteLabel="What the run is for (optional)"
        >
          <Typography>
            The changes differ from the plan that was approved, so nothing was
            applied. A new run plans them as they are now, with the same input,
            and waits for your review.
          </Typography>
        </ConfirmActionButton>
      )}
      {(run.status === 'FAILED' || run.status === 'CANCELLED') &&
        !planChanged && (
          <ConfirmActionButton
            label="Retry"
            title="Retry this run?"
            onConfirm={() => act('retryPipelineRun')}
            onDone={saying(`Retried as attempt ${run.attemptEpoch + 1}`)}
          >
            <Typography>
              The run starts again from its first unfinished step, as attempt{' '}
              {run.attemptEpoch + 1}.
            </Typography>
          </ConfirmActionButton>
        )}
    </Box>
  );
};
