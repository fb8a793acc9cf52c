/**
 * How drift checks share a stack with the runs that change it. A drift check is a plan-only
 * run of the stack's change pipeline; it holds the stack while its plan runs (two plans or a
 * plan and an apply must not work on one state at once), but it never makes a change run wait
 * for more than that:
 *
 * - a drift check that cannot be admitted at once is skipped (cancelled), never queued behind
 *   another run;
 * - a change run that finds a drift check in its way takes the stack from it unless a runner is
 *   already executing the check's plan; then the change run is held as for any other run, until
 *   that plan ends.
 */
import {
  ErrorBody,
  errorCode,
} from '@infra-delivery/plugin-infra-delivery-common';
import { RunRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';

/** The drift check that gives way for `run` to be admitted, if one does. */
export async function driftCheckGivingWay(
  tx: Stores,
  run: RunRecord,
  blocker: RunRecord,
): Promise<RunRecord | undefined> {
  if (run.kind === 'DRIFT_CHECK') {
    return run;
  }
  if (blocker.kind !== 'DRIFT_CHECK') {
    return undefined;
  }
  const steps = await tx.pipelineRuns.listSteps(blocker.id);
  const planning = steps.some(step => step.status === 'RUNNING');
  return planning ? undefined : blocker;
}

/** Why a drift check was skipped, as its run's error. */
export function driftCheckSkipped(
  driftCheck: RunRecord,
  admitted: RunRecord,
): ErrorBody {
  return driftCheck.id === admitted.id
    ? {
        code: errorCode('DriftCheck', 'SKIPPED'),
        message:
          'The drift check was skipped: another run of the stack is active or queued',
      }
    : {
        code: errorCode('DriftCheck', 'SKIPPED'),
        message: `The drift check gave way to run ${
          admitted.description ? `“${admitted.description}”` : admitted.id
        }, which changes the stack`,
        metadata: { pipelineRunId: admitted.id },
      };
}

/**
 * A drift check that failed leaves the stack's drift unknown: a platform team must not read
 * an old "in sync" as current when the check could not plan.
 */
export async function recordDriftCheckEnd(
  tx: Stores,
  runId: string,
): Promise<void> {
  const run = await tx.pipelineRuns.getRunForEngine(runId);
  if (run?.kind !== 'DRIFT_CHECK' || !run.attachedEntityId) {
    return;
  }
  await tx.stackDrift.recordOutcome(run.attachedEntityId, {
    runId,
    driftStatus: 'UNKNOWN',
  });
}
