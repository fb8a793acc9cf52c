import {
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

/**
 * What a step without log lines says in their place: why it has none. (A decided approval says
 * who decided instead: `ApprovalDecision`.)
 */
export function noLogsText(step: Pick<StepExecution, 'type' | 'status'>) {
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
      return 'Skipped: it did not run.';
    case 'QUEUED':
    case 'RUNNING':
      return 'No log lines yet.';
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
export const StepLogs = ({ step }: { step: StepExecution }) => {
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
        <Typography variant="caption">{noLogsText(step)}</Typography>
      )}
    </Box>
  );
};
