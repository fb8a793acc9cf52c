import {
  idleRunnerSilenceMs,
  Runner,
} from '@infra-delivery/plugin-infra-delivery-common';
import { useNowAsOfData } from '../common/DataAsOf';
import { leaseSilence } from '../PipelineRunsContent/StepRunner';

/**
 * Whether an ONLINE runner has most likely stopped without signing off (killed, or its host
 * lost), which it would not be told from for the minute until it goes offline: free, it no
 * longer asks for work (the rule by which a run waiting for it says it may have stopped, also
 * a few seconds after its held claim dropped); working on a step, it went unheard.
 * Read again every few seconds, as the list is between its reloads; judged as of the list's last
 * answer while a reload goes unanswered (`DataAsOf`): while the backend restarted, the card said
 * "Silent — Idle, but no longer asks for work" of a runner that was only waiting for it.
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
  // As of the card's last answer: while the service does not answer, it cannot hear the runner.
  const now = useNowAsOfData(5_000, online);
  if (!online) {
    return false;
  }
  return runner.currentStepLease
    ? leaseSilence(runner.currentStepLease, now).silent
    : idleRunnerSilenceMs(runner, now) !== undefined;
}
