import {
  idleRunnerSilenceMs,
  Runner,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useNow } from '../common/useNow';
import { leaseSilence } from '../PipelineRunsContent/StepRunner';

/**
 * Whether an ONLINE runner has most likely stopped without signing off (killed, or its host
 * lost), which it would not be told from for the minute until it goes offline: free, it no
 * longer asks for work (the rule by which a run waiting for it says it may have stopped, also
 * a few seconds after its held claim dropped); working on a step, it went unheard.
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
    | 'claimDroppedAt'
    | 'serviceReachableSince'
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
