import {
  Deployment,
  DEPLOYMENT_STATUSES,
  IacExecutionSummary,
  PipelineRun,
  RUN_STATUSES,
  Stack,
  StepExecution,
  StepLease,
} from '@infra-delivery/plugin-infra-delivery-common';
import { KeysetPage } from '../database/keyset';

/*
 * What the tools answer: short summaries of the service's resources, and the output schemas
 * several tools share. The actions registry hands the schema builders zod 3.
 */

export function stackSummary(stack: Stack) {
  return {
    id: stack.id,
    givenId: stack.givenId,
    name: stack.name,
    projectId: stack.projectId,
    environmentId: stack.environmentId,
    changePipelineId: stack.changePipelineId,
    destroyPipelineId: stack.destroyPipelineId,
    autoApprove: stack.autoApprove,
    ...(stack.latestRunId ? { latestRunId: stack.latestRunId } : {}),
  };
}

export function runSummary(run: PipelineRun) {
  return {
    id: run.id,
    pipelineId: run.pipelineId,
    status: run.status,
    createdAt: run.createdAt,
    ...(run.attachedEntityId ? { stackId: run.attachedEntityId } : {}),
    ...(run.description ? { description: run.description } : {}),
    ...(run.queueReason ? { queueReason: run.queueReason } : {}),
    // A run whose step waits for a runner says whether one is there, and why it waits.
    ...(run.queueState?.waitingForRunner !== undefined
      ? {
          waitingForRunner: run.queueState.waitingForRunner,
          ...(run.queueState.runnersSilent ? { runnersSilent: true } : {}),
          queueReason: run.queueState.reason,
        }
      : {}),
    // A run whose step a runner executes names the step and its runner.
    ...(run.leasedStep
      ? {
          runningStep: run.leasedStep.name,
          ...leaseSummary(run.leasedStep.lease),
        }
      : {}),
    ...(run.completedAt ? { completedAt: run.completedAt } : {}),
    ...(run.error ? { error: run.error.message } : {}),
  };
}

export function stepSummary(step: StepExecution) {
  return {
    id: step.id,
    position: step.position,
    type: step.type,
    name: step.name,
    status: step.status,
    ...(step.startedAt ? { startedAt: step.startedAt } : {}),
    ...(step.completedAt ? { completedAt: step.completedAt } : {}),
    ...(step.error ? { error: step.error.message } : {}),
    ...(step.runnerId ? { runnerId: step.runnerId } : {}),
    ...(step.runnerName ? { runnerName: step.runnerName } : {}),
    ...(step.lease ? leaseSummary(step.lease) : {}),
  };
}

/** Who runs a step, when it last reported, and when it goes to another runner without a report. */
function leaseSummary(lease: StepLease) {
  return {
    runnerId: lease.runnerId,
    ...(lease.runnerName ? { runnerName: lease.runnerName } : {}),
    runnerLastReportedAt: lease.renewedAt,
    queuedAgainUnlessReportedBy: lease.expiresAt,
  };
}

export function planSummary(summary: IacExecutionSummary) {
  return {
    runType: summary.runType,
    stepExecutionId: summary.stepExecutionId,
    add: summary.addCount,
    change: summary.changeCount,
    destroy: summary.destroyCount,
    replace: summary.replaceCount,
    import: summary.importCount,
    unchanged: summary.unchangedCount,
    applyable: summary.applyable,
  };
}

/** What `leaseSummary` answers, while a runner executes a step. */
export const leaseOutputFields = (z: typeof import('zod/v3').z) => ({
  runnerId: z
    .string()
    .optional()
    .describe('While the step runs: the runner executing it'),
  runnerName: z
    .string()
    .optional()
    .describe(
      "The runner's name: its service account's, as the portal shows it",
    ),
  runnerLastReportedAt: z
    .string()
    .optional()
    .describe("While the step runs: the runner's latest heartbeat"),
  queuedAgainUnlessReportedBy: z
    .string()
    .optional()
    .describe(
      'While the step runs: without a heartbeat by then, the step goes to another runner',
    ),
});

export const runOutput = (z: typeof import('zod/v3').z) =>
  z.object({
    id: z.string(),
    pipelineId: z.string(),
    status: z.enum(RUN_STATUSES),
    createdAt: z.string(),
    stackId: z.string().optional(),
    description: z.string().optional(),
    queueReason: z.string().optional(),
    waitingForRunner: z
      .boolean()
      .optional()
      .describe(
        'True when the next step waits for a runner and none of the organization is online: start one (see the portal’s Organization page)',
      ),
    runnersSilent: z
      .boolean()
      .optional()
      .describe(
        'True when the next step waits while runners read online and free, but none has asked for work since it was queued: they stopped without signing off; start one',
      ),
    runningStep: z
      .string()
      .optional()
      .describe('The step a runner executes now'),
    ...leaseOutputFields(z),
    completedAt: z.string().optional(),
    error: z.string().optional(),
  });

export const deploymentOutput = (z: typeof import('zod/v3').z) =>
  z.object({
    id: z.string(),
    status: z.enum(DEPLOYMENT_STATUSES),
    description: z.string(),
    clusterRef: z.string(),
    serviceRef: z.string(),
    taskDefinitionRevision: z.number().optional(),
    rollbackToDeploymentId: z.string().optional(),
    createdAt: z.string(),
    completedAt: z.string().optional(),
    error: z.string().optional(),
  });

export const deploymentSummary = (deployment: Deployment) => ({
  id: deployment.id,
  status: deployment.status,
  description: deployment.description,
  clusterRef: deployment.data.clusterRef,
  serviceRef: deployment.data.serviceRef,
  ...(deployment.data.deployedTaskDefinition
    ? {
        taskDefinitionRevision: deployment.data.deployedTaskDefinition.revision,
      }
    : {}),
  ...(deployment.rollbackToDeploymentId
    ? { rollbackToDeploymentId: deployment.rollbackToDeploymentId }
    : {}),
  createdAt: deployment.createdAt,
  ...(deployment.completedAt ? { completedAt: deployment.completedAt } : {}),
  ...(deployment.error ? { error: deployment.error.message } : {}),
});

/** The paging fields every list tool takes. */
export const pageInput = (z: typeof import('zod/v3').z) => ({
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('nextCursor of the previous page'),
});

/** The paging fields every list tool answers with; no `nextCursor` on the last page. */
export const pageOutput = (z: typeof import('zod/v3').z) => ({
  totalCount: z.number(),
  nextCursor: z.string().optional(),
});

/** The paging fields of a page of the services. */
export function pageOf(page: KeysetPage<unknown>) {
  return {
    totalCount: page.totalCount,
    ...(page.nextAfterId ? { nextCursor: page.nextAfterId } : {}),
  };
}
