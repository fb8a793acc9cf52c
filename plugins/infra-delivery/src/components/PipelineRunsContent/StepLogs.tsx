import {
  PipelineRun,
  StepExecution,
  StepLogLine,
} from '@infra-delivery/plugin-infra-delivery-common';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import { useMemo, useRef, useState } from 'react';
import { ErrorPanel } from '../common/ErrorPanel';
import { AccessibleLogViewer } from './AccessibleLogViewer';
import { linksAsWritten } from './linksAsWritten';
import { useStepLogs } from './useStepLogs';
import { logOpeningLine } from './logOpening';
import { useLogOpensAt } from './useLogOpensAt';

/** The most height the log viewer takes (some 20 lines): it scrolls and searches within it. */
const LOG_HEIGHT = 480;
/** Its search bar and margins, and one line of log. */
const LOG_CHROME = 72;
const LOG_LINE = 20;

/** As high as its lines need, up to `LOG_HEIGHT`: two lines left 250 px empty below them. */
export function logHeight(lineCount: number): number {
  return Math.min(LOG_HEIGHT, LOG_CHROME + Math.max(lineCount, 2) * LOG_LINE);
}

/** What a step's run is, for why a step that never started did not: its status, error and steps. */
export interface StepRun {
  status: PipelineRun['status'];
  /** The message of the run's error ("The run was cancelled by guest"). */
  error?: string;
  steps: Pick<StepExecution, 'position' | 'name' | 'type' | 'status'>[];
}

type NoLogsStep = Pick<StepExecution, 'type' | 'status'> &
  Partial<Pick<StepExecution, 'position' | 'startedAt' | 'completedAt'>>;

const lowerFirst = (text: string) =>
  text.charAt(0).toLowerCase() + text.slice(1);

/** "step 2 “Approve”", as the step list numbers and names it. */
const stepName = (step: { position: number; name: string }) =>
  `step ${step.position + 1} “${step.name}”`;

/**
 * Why a skipped step did not run: the step before it that failed or was cancelled, the run's end
 * before it started, or a plan without changes before it (only that skip sets `completedAt`).
 * "Skipped: it did not run." left a person to guess which.
 */
function skippedText(step: NoLogsStep, run: StepRun | undefined): string {
  const ender =
    step.position === undefined
      ? undefined
      : run?.steps.find(
          other =>
            other.position < step.position! &&
            (other.status === 'FAILED' || other.status === 'CANCELLED'),
        );
  if (ender?.status === 'FAILED') {
    return ender.type === 'approval'
      ? `Skipped: the approval in ${stepName(ender)} was rejected.`
      : `Skipped: ${stepName(ender)} failed.`;
  }
  if (ender || (!step.completedAt && run?.status === 'CANCELLED')) {
    const why = run?.error ?? 'The run was cancelled';
    return why.startsWith('The run was cancelled')
      ? `Skipped: ${lowerFirst(why)} before this step started.`
      : `Skipped: the run was cancelled before this step started (${why}).`;
  }
  if (step.completedAt) {
    return 'Skipped: the plan before it changes nothing.';
  }
  if (run?.status === 'FAILED') {
    return 'Skipped: the run failed before this step started.';
  }
  return 'Skipped: it did not run.';
}

/**
 * What a step without log lines says in their place: why it has none, and for a step that never
 * ran, why not (given its `run`). (A decided approval says who decided instead: `ApprovalDecision`.)
 */
export function noLogsText(step: NoLogsStep, run?: StepRun) {
  if (step.type === 'approval') {
    if (step.status === 'WAITING_FOR_APPROVAL' || step.status === 'RUNNING') {
      return 'Waits for a person to approve or reject the plan above.';
    }
    if (step.status === 'CANCELLED') {
      return 'Nobody decided: the run was cancelled first.';
    }
  }
  switch (step.status) {
    case 'PENDING':
      return 'Not started: it runs once the steps before it have ended.';
    case 'SKIPPED':
      return skippedText(step, run);
    case 'QUEUED':
    case 'RUNNING':
      return 'No log lines yet.';
    case 'CANCELLED':
      // The service writes why in the log of a step cancelled before it started; one cancelled
      // before it did so has none.
      return step.startedAt
        ? 'The step wrote no log lines.'
        : 'Cancelled before it started.';
    default:
      return 'The step wrote no log lines.';
  }
}

/**
 * The log's text for the viewer. A step retried keeps each attempt's lines: each attempt
 * begins under a "── Attempt 2 ──" line, where attempts ran together before.
 */
export function logText(lines: Pick<StepLogLine, 'attemptEpoch' | 'text'>[]) {
  if (new Set(lines.map(line => line.attemptEpoch)).size <= 1) {
    return lines.map(line => line.text).join('\n');
  }
  const text: string[] = [];
  let attempt: number | undefined;
  for (const line of lines) {
    if (line.attemptEpoch !== attempt) {
      attempt = line.attemptEpoch;
      // Plain text: Backstage's log viewer carried a bold heading's style over the lines
      // after it, its closing code notwithstanding.
      text.push(`── Attempt ${attempt} ──`);
    }
    text.push(line.text);
  }
  return text.join('\n');
}

/**
 * Each line as the viewer gets it, worked out once per line: a running step's lines are read
 * again every few seconds, and a long log's lines took half a second each time.
 */
const shownLines = new WeakMap<StepLogLine, StepLogLine>();
function shown(line: StepLogLine): StepLogLine {
  let result = shownLines.get(line);
  if (!result) {
    result = { ...line, text: linksAsWritten(line.text) };
    shownLines.set(line, result);
  }
  return result;
}

/**
 * A step's logs as they grow, with ANSI colours, search, links to lines, and links where the
 * log writes a URL (not where it names a file such as `main.tf`). An ended step's log opens
 * where a person starts reading it (`logOpeningLine`): a plan at its start, a failure at its
 * first error.
 */
export const StepLogs = ({
  step,
  run,
}: {
  step: StepExecution;
  /** The step's run, for why a step that never started did not. */
  run?: StepRun;
}) => {
  const { lines, loading, error } = useStepLogs(step.id, step.status);
  const text = useMemo(() => logText(lines.map(shown)), [lines]);
  // Where the log opens is decided by its first lines read: a log opened while its step ran
  // follows the new lines, and stays where it is when the step ends.
  const [opening, setOpening] = useState<{ line?: number }>();
  if (!opening && lines.length > 0) {
    setOpening({ line: logOpeningLine(step, text) });
  }
  const log = useRef<HTMLDivElement>(null);
  useLogOpensAt(log, opening?.line);

  if (loading) {
    return <Typography variant="caption">Loading logs…</Typography>;
  }
  return (
    <Box width="100%">
      {error && <ErrorPanel error={error} title="Could not read the logs" />}
      {lines.length > 0 && (
        <div ref={log} style={{ height: logHeight(text.split('\n').length) }}>
          <AccessibleLogViewer text={text} />
        </div>
      )}
      {lines.length === 0 && !error && (
        <Typography variant="caption">{noLogsText(step, run)}</Typography>
      )}
    </Box>
  );
};
