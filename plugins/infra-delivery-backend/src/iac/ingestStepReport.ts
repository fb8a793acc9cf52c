import {
  IacRunType,
  runChangeSummaryOf,
  StepType,
} from '@infra-delivery/plugin-infra-delivery-common';
import { RunRecord, StepRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { parsePlanJsonInChunks } from './planJson';
import {
  plannedResourcesInChunks,
  reportedOutputsOf,
  rootOutputsOf,
} from './planResources';
import { planSummaryFromPlanJson } from './planSummary';
import { recordDriftCheckReport } from './driftCheckReport';
import { planHasChanges } from './planHasChanges';
import { skipStepsAfterEmptyPlan } from '../engine/skipStepsAfterEmptyPlan';

const RUN_TYPES: Partial<Record<StepType, IacRunType>> = {
  'iac.plan': 'PLAN',
  'iac.apply': 'APPLY',
  'iac.destroy': 'DESTROY',
};

export interface StepReport {
  planJson?: Record<string, unknown>;
  /** The plan file the runner showed `planJson` from. */
  planFilename?: string;
  outputs?: Record<string, unknown>;
}

/**
 * Records what a successful IaC step reported, inside the transaction that completes the
 * step: the execution summary and resources of its plan (and, for a plan, the run's change
 * summary that lists show), and for an apply or destroy the
 * stack's new current state and outputs. A plan with nothing to apply skips the approval and
 * apply after it. Steps of runs that hold no stack report nothing.
 */
export async function ingestStepReport(
  tx: Stores,
  step: StepRecord,
  run: RunRecord,
  report: StepReport,
): Promise<void> {
  const runType = RUN_TYPES[step.type];
  if (!runType || run.attachedEntityType !== 'STACK' || !run.attachedEntityId) {
    return;
  }
  const stackId = run.attachedEntityId;
  let output: Record<string, unknown> | undefined =
    report.outputs && reportedOutputsOf(report.outputs);
  if (report.planJson) {
    const plan = await parsePlanJsonInChunks(report.planJson);
    const counts = planSummaryFromPlanJson(plan);
    const resources = await plannedResourcesInChunks(plan);
    const context = {
      organizationId: run.organizationId,
      pipelineId: run.pipelineId,
      pipelineRunId: run.id,
      stepExecutionId: step.id,
      stackId,
      runType,
    };
    if (runType !== 'PLAN') {
      output = report.outputs
        ? reportedOutputsOf(report.outputs, plan)
        : rootOutputsOf(plan);
    }
    const applyable = runType === 'PLAN' && planHasChanges(plan);
    const summary = await tx.iacResults.insertSummary(context, counts, {
      applyable,
      output: runType === 'PLAN' ? undefined : output,
      planFilename: report.planFilename,
    });
    if (runType === 'PLAN') {
      await tx.pipelineRuns.recordChangeSummary(
        run.id,
        runChangeSummaryOf(summary),
      );
    }
    const ids = await tx.iacResults.insertResources(context, resources);
    if (runType !== 'PLAN') {
      await tx.iacResults.applyToStackState(context, resources, ids);
    }
    await recordDriftCheckReport(tx, run, plan, resources);
    if (runType === 'PLAN' && !applyable && !plan.errored) {
      await skipStepsAfterEmptyPlan(tx, step);
    }
  } else {
    await recordDriftCheckReport(tx, run, undefined, []);
  }
  if (runType === 'APPLY') {
    await tx.stacks.recordApply(stackId, {
      output: output ?? {},
      input: run.input,
    });
    await tx.stackDrift.recordReconciled(stackId);
  } else if (runType === 'DESTROY') {
    await tx.stacks.recordApply(stackId, 'DESTROYED');
  }
}
