import {
  ErrorBody,
  formatDuration,
} from '@infra-delivery/plugin-infra-delivery-common';

/**
 * How long a step may run before the runner stops it (`--step-timeout`): two hours, longer than
 * the longest applies of managed databases and clusters (30–60 minutes), short enough that a
 * command waiting for ever (a prompt, a network call that never answers) does not hold the
 * stack's runs and the runner for a day.
 */
export const DEFAULT_STEP_TIMEOUT_MS = 120 * 60_000;

export const STEP_TIMED_OUT_ERROR_CODE = 'InfraDelivery:Runner:STEP_TIMED_OUT';

/** Why the tool is stopped when the step runs out of time, as the step's log and error say it. */
export function timedOutReason(timeoutMs: number): string {
  return `the step timed out after ${formatDuration(
    timeoutMs,
  )} (--step-timeout)`;
}

/**
 * The error of a step stopped for running past `--step-timeout`, in place of the error of the
 * command it stopped ("terraform apply was stopped: …"), whose command it keeps.
 */
export function stepTimedOutError(
  stopped: ErrorBody | undefined,
  timeoutMs: number,
  binaryName: string,
): ErrorBody {
  const command = stopped?.metadata?.command;
  const took = formatDuration(timeoutMs);
  return {
    code: STEP_TIMED_OUT_ERROR_CODE,
    message: `The step timed out after ${took}: ${
      typeof command === 'string' ? command : binaryName
    } had not ended and was stopped`,
    description:
      `The runner stops a step that runs longer than its --step-timeout (${took} on this runner): ` +
      `it interrupts ${binaryName} as Ctrl-C does, so that it writes the state and releases its ` +
      'lock, and kills it if it has not exited after --stop-grace. A command waiting for an ' +
      'answer that does not come (a prompt, a provider calling an API it cannot reach) hangs ' +
      "until then; the step's log shows the last thing it printed. Run the step again once the " +
      'cause is fixed, or start the runner with a longer --step-timeout (minutes; 0 for none) if ' +
      'the step needs more time.',
    metadata: {
      ...stopped?.metadata,
      timeoutMinutes: Math.round((timeoutMs / 60_000) * 100) / 100,
    },
  };
}
