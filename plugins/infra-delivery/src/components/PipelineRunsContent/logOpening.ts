import { StepExecution } from '@infra-delivery/plugin-infra-delivery-common';

// eslint-disable-next-line no-control-regex
const ANSI_CODES = /\u001b\[[0-9;]*m/g;

/** Where Terraform and OpenTofu begin to say what a plan does, or that it does nothing. */
const PLAN_OUTPUT_START = [
  /used the selected providers to generate the following execution plan/,
  /will perform the following actions/,
  /^\s*No changes\./,
];
/** Where the tool says what went wrong, with or without its box drawing. */
const ERROR_LINE = /^[\s│╷]*Error:/;

/**
 * The line (1-based) a step's log opens at, when the step had ended: a failed step at its first
 * error, where the tool explains the failure, and a plan at the start of the plan, read from
 * the top down as Terraform writes it (it opened at its last line, "To perform exactly these
 * actions…", below the resources it explains). Undefined: at its end, as the log viewer opens,
 * which is where a running step's new lines come and an apply says what it did.
 */
export function logOpeningLine(
  step: Pick<StepExecution, 'type' | 'status'>,
  text: string,
): number | undefined {
  const lines = text.split('\n').map(line => line.replace(ANSI_CODES, ''));
  const first = (pattern: RegExp) => {
    const index = lines.findIndex(line => pattern.test(line));
    return index < 0 ? undefined : index + 1;
  };
  if (step.status === 'FAILED') {
    return first(ERROR_LINE);
  }
  if (step.status === 'SUCCEEDED' && step.type === 'iac.plan') {
    for (const pattern of PLAN_OUTPUT_START) {
      const line = first(pattern);
      if (line) return line;
    }
  }
  return undefined;
}
