import { StepType } from '@infra-delivery/plugin-infra-delivery-common';
import { StepRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { nowTimestamp } from '../database/timestamps';

/** What a plan is for: asking a person about it, then applying it. */
const STEPS_A_PLAN_IS_FOR: StepType[] = [
  'approval',
  'iac.apply',
  'iac.destroy',
];

/**
 * After a plan with nothing to apply: the approval and the apply (or destroy) that follow it,
 * up to the next plan, are skipped, so the run succeeds with the plan. Nobody is asked to
 * approve a plan that changes nothing — a push to the main branch that leaves the
 * infrastructure as it is would otherwise wait for a person, and notify them, every time.
 */
export async function skipStepsAfterEmptyPlan(
  tx: Stores,
  plan: StepRecord,
): Promise<void> {
  const steps = await tx.pipelineRuns.listSteps(plan.pipelineRunId);
  const now = nowTimestamp();
  for (const step of steps.filter(s => s.position > plan.position)) {
    if (step.type === 'iac.plan') {
      return;
    }
    if (step.status === 'PENDING' && STEPS_A_PLAN_IS_FOR.includes(step.type)) {
      await tx.pipelineRuns.updateStep(step.id, {
        status: 'SKIPPED',
        completedAt: now,
      });
    }
  }
}
