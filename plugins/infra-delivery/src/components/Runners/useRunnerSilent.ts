import {
  idleRunnerSilenceMs,
  Runner,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useNow } from '../common/useNow';
import { leaseSilence } from '../PipelineRunsContent/StepRunner';

/**
 * Whether an ONLINE runner has most likely stopped without signing off (killed, or its host
 * lost), which it would not be told from for the minute until it goes offline: free, it no
 * longer asks for work; working on a step, it let half its lease pass without a heartbeat.
 * Read again every few seconds, as the list is between its reloads.
 */
export function useRunnerSilent(
  runner: Pick<
    Runner,
    | 'status'
    | 'currentStepExecutionId'
    | 'currentStepLease'
    | 'lastSeenAt'
    | 'pollIntervalMs'
  >,
): boolean {
  const online = runner.status === 'ONLINE';
  const now = useNow(5_000, online);
  if (!online) {
    return false;
  }
  return runner.currentStepLease
    ? leaseSilence(runner.currentStepLease, now).silent
    : idleRunnerSilenceMs(runner, now) !== undefined;
}
