import { PipelineRun } from '@infra-delivery/plugin-infra-delivery-common';

/**
 * When the run's latest attempt started: a retried run's duration is its attempt's, where it
 * counted from the first attempt across the wait before Retry was pressed (a run that failed in
 * a second read "12m 28s" after a retry).
 */
export function attemptStartedAt(
  run: Pick<PipelineRun, 'attemptEpoch' | 'startedAt' | 'lastAttemptStartedAt'>,
): string | undefined {
  return run.attemptEpoch > 1
    ? run.lastAttemptStartedAt ?? run.startedAt
    : run.startedAt;
}
