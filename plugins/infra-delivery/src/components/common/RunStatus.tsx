import {
  changeSummaryText,
  PipelineRun,
  RunChangeSummary,
  StepStatus,
} from '@infra-delivery/plugin-infra-delivery-common';
import Typography from '@material-ui/core/Typography';
import { StatusKind, StatusLabel } from './StatusLabel';

/** What people read for each status. */
export const STATUS_LABELS: Record<StepStatus, string> = {
  QUEUED: 'Queued',
  RUNNING: 'Running',
  WAITING_FOR_APPROVAL: 'Waiting for approval',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
  PENDING: 'Pending',
  SKIPPED: 'Skipped',
};

const KINDS: Record<StepStatus, StatusKind> = {
  QUEUED: 'pending',
  RUNNING: 'running',
  WAITING_FOR_APPROVAL: 'warning',
  SUCCEEDED: 'ok',
  FAILED: 'error',
  CANCELLED: 'aborted',
  PENDING: 'pending',
  SKIPPED: 'aborted',
};

/**
 * A run's or step's status with Backstage's status colours, readable by screen readers; `wrap`
 * lets a long one take two lines in a narrow column.
 */
export const RunStatus = ({
  status,
  wrap,
}: {
  status?: StepStatus;
  wrap?: boolean;
}) =>
  status ? (
    <StatusLabel
      kind={KINDS[status]}
      label={STATUS_LABELS[status]}
      wrap={wrap}
    />
  ) : (
    <StatusLabel kind="pending" label="Never run" />
  );

/**
 * Whether the run's next step waits for a runner to claim it: none is connected
 * (`waitingForRunner` true), or the connected ones are busy or about to poll (false, on a
 * running run, with the reason). The service sets the flag only then.
 */
export function isQueuedForRunner(run?: PipelineRun): boolean {
  const flag = run?.queueState?.waitingForRunner;
  return flag === true || (flag === false && run?.status === 'RUNNING');
}

/**
 * Whether no runner is about to claim the run's next step, so that someone must start one: none
 * is connected (`waitingForRunner`), or the free ones have not asked for work since the step was
 * queued (`runnersSilent`: they stopped without signing off).
 */
export function noRunnerWillClaim(run?: PipelineRun): boolean {
  const queue = run?.queueState;
  return Boolean(queue?.waitingForRunner || queue?.runnersSilent);
}

/** Said in full where the short form is hovered, and to screen readers. */
function changeSummaryInFull(summary: RunChangeSummary): string {
  if (summary.noChanges) return 'The plan has nothing to apply';
  const imports = summary.import > 0 ? `, ${summary.import} to import` : '';
  return `Plan: ${summary.add} to add, ${summary.change} to change, ${summary.destroy} to destroy${imports}`;
}

/**
 * What a run's plan would change, in a few characters beside its status: "No changes", or
 * `+3 ~1 −0`; nothing before the run has planned. Waiting for approval, it is what the
 * approval would let through.
 */
export const RunChanges = ({ summary }: { summary?: RunChangeSummary }) =>
  summary ? (
    <Typography
      variant="body2"
      component="span"
      color="textSecondary"
      title={changeSummaryInFull(summary)}
      aria-label={changeSummaryInFull(summary)}
      style={{ whiteSpace: 'nowrap', marginLeft: '0.5em' }}
    >
      {changeSummaryText(summary)}
    </Typography>
  ) : null;

/**
 * A run's status as people read it: "Waiting for a runner" while its next step waits for one
 * (the run itself is Queued or Running then), so that a plan pressed in the portal never reads
 * as running while nothing runs it; beside it what its plan would change, once it has planned.
 */
export const RunState = ({
  run,
  wrap,
}: {
  run?: PipelineRun;
  wrap?: boolean;
}) => (
  <>
    {isQueuedForRunner(run) ? (
      <StatusLabel kind="pending" label="Waiting for a runner" wrap={wrap} />
    ) : (
      <RunStatus status={run?.status} wrap={wrap} />
    )}
    {/* A drift check applies nothing: what its plan found is drift, which its stack's Drift
        says; "+0 ~1 −0" beside its Succeeded read as something it changed. */}
    <RunChanges
      summary={run?.kind === 'DRIFT_CHECK' ? undefined : run?.changeSummary}
    />
  </>
);
