import { LoggerService } from '@backstage/backend-plugin-api';
import {
  PipelineRun,
  RunTriggerSource,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';
import { EXECUTE } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { actorIdOf, Caller } from '../auth/Caller';
import { Stores } from '../database/stores';
import { PipelineEngine } from '../engine/PipelineEngine';
import { RunnerRegistry } from '../runners/RunnerRegistry';
import { InfraDeliveryError, notFound } from '../errors';
import { appliedInputRun } from './appliedInputRun';

const HOUR_MS = 60 * 60 * 1000;

/** Why a drift check was not started. */
type NotStarted = 'STACK_BUSY' | 'NOTHING_DEPLOYED';
type CheckStart = { runId: string } | { notStarted: NotStarted };

const NOT_STARTED_MESSAGES: Record<NotStarted, string> = {
  STACK_BUSY:
    'A run of the stack is active or queued; its plan shows the drift, and a drift check would only wait for it',
  NOTHING_DEPLOYED:
    'The stack holds no resources yet: there is nothing that could have drifted',
};

/**
 * Drift detection: drift checks (plan-only runs of a stack's change pipeline, on a schedule or
 * on request) and reconciling a drifted stack through its change pipeline.
 */
export class DriftService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      engine: PipelineEngine;
      /** Says of a run it starts whether a runner will claim it, as every run read does. */
      runnerRegistry: Pick<RunnerRegistry, 'describeRun'>;
      logger?: LoggerService;
    },
  ) {}

  /** A drift check of the stack now, for a person or automation. */
  async startCheck(
    caller: Caller,
    stackId: string,
    description?: string,
  ): Promise<PipelineRun> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const stack = await this.requireStack(caller.organizationId, stackId);
    const started = await this.startDriftCheck(stack, {
      triggerSource: 'API',
      createdById: actorIdOf(caller),
      description,
    });
    if ('notStarted' in started) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Stack',
        reason: started.notStarted,
        message: NOT_STARTED_MESSAGES[started.notStarted],
      });
    }
    return this.currentRun(caller.organizationId, started.runId);
  }

  /**
   * Starts the stack's change pipeline (plan, approval, apply) to bring a drifted stack back to
   * what its code says. The run names the drift check that found the drift and queues like any
   * change.
   */
  async reconcile(
    caller: Caller,
    stackId: string,
    description?: string,
  ): Promise<PipelineRun> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const { stores } = this.deps;
    const stack = await this.requireStack(caller.organizationId, stackId);
    if (stack.driftStatus !== 'DRIFTED' || !stack.lastDriftCheckRunId) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Stack',
        reason: 'NOT_DRIFTED',
        message: `Stack ${stack.name} is not known to have drifted (drift status ${stack.driftStatus})`,
      });
    }
    const pipeline = await stores.pipelines.get(
      caller.organizationId,
      stack.changePipelineId,
    );
    const version = await stores.pipelines.getVersion(
      caller.organizationId,
      pipeline!.latestVersionId!,
    );
    const run = await stores.transaction(tx =>
      tx.pipelineRuns.createRun({
        organizationId: caller.organizationId,
        pipelineId: pipeline!.id,
        pipelineVersionId: version!.id,
        projectId: stack.projectId,
        attachedEntityId: stack.id,
        attachedEntityType: 'STACK',
        description:
          description ??
          `Reconcile drift: ${stack.driftedResourceCount ?? 'some'} resources`,
        createdById: actorIdOf(caller),
        // Reconciling applies the code with the input the stack was applied with.
        ...appliedInputRun(stack),
        steps: version!.steps,
        kind: 'STANDARD',
        triggerSource: 'DRIFT_RECONCILE',
        reconciledDriftCheckRunId: stack.lastDriftCheckRunId,
      }),
    );
    await this.deps.engine.enqueue(run.id);
    return this.currentRun(caller.organizationId, run.id);
  }

  /**
   * The scheduler's round: starts the drift checks that are due. Each due check is taken with
   * a compare-and-set on its due time, so instances sharing a database start it once; a stack
   * that is busy or holds nothing is passed over until its next due time.
   */
  async startDueChecks(now = new Date()): Promise<number> {
    const { stores } = this.deps;
    let started = 0;
    for (const due of await stores.stackDrift.due(now.toISOString(), 100)) {
      const nextAt = new Date(
        now.getTime() + due.intervalHours * HOUR_MS,
      ).toISOString();
      if (!(await stores.stackDrift.takeDueCheck(due, nextAt))) {
        continue;
      }
      const stack = await stores.stacks.get(due.organizationId, due.stackId);
      if (!stack) {
        continue;
      }
      try {
        const outcome = await this.startDriftCheck(stack, {
          triggerSource: 'DRIFT_SCHEDULE',
        });
        if ('notStarted' in outcome) {
          this.deps.logger?.info(
            `Drift check of stack ${stack.id} skipped: ${
              NOT_STARTED_MESSAGES[outcome.notStarted]
            }`,
          );
        } else {
          started += 1;
        }
      } catch (error) {
        this.deps.logger?.warn(
          `Could not start the drift check of stack ${stack.id}: ${error}`,
        );
      }
    }
    return started;
  }

  /**
   * Creates the drift check run and hands it to the engine: only when no run of the stack is
   * active or queued and the stack holds resources. The run carries only the change
   * pipeline's plan step.
   */
  private async startDriftCheck(
    stack: Stack,
    options: {
      triggerSource: RunTriggerSource;
      createdById?: string;
      description?: string;
    },
  ): Promise<CheckStart> {
    const { stores } = this.deps;
    const outcome = await stores.transaction(
      async (tx): Promise<CheckStart> => {
        await tx.pipelineRuns.lockEntityForAdmission(stack.id);
        if (
          !(await tx.pipelineRuns.entityIsFree(stack.organizationId, stack.id))
        ) {
          return { notStarted: 'STACK_BUSY' };
        }
        const [state] = await tx.iacResults.countStackState(
          stack.organizationId,
          [stack.id],
        );
        if (!state?.count) {
          return { notStarted: 'NOTHING_DEPLOYED' };
        }
        const pipeline = await tx.pipelines.get(
          stack.organizationId,
          stack.changePipelineId,
        );
        const version = await tx.pipelines.getVersion(
          stack.organizationId,
          pipeline!.latestVersionId!,
        );
        const plan = version!.steps.find(step => step.type === 'iac.plan')!;
        const run = await tx.pipelineRuns.createRun({
          organizationId: stack.organizationId,
          pipelineId: pipeline!.id,
          pipelineVersionId: version!.id,
          projectId: stack.projectId,
          attachedEntityId: stack.id,
          attachedEntityType: 'STACK',
          description:
            options.description ??
            (options.triggerSource === 'DRIFT_SCHEDULE'
              ? 'Scheduled drift check'
              : 'Drift check'),
          createdById: options.createdById,
          // Drift is what differs from the code with the input the stack was applied with.
          ...appliedInputRun(stack),
          steps: [{ ...plan, name: 'Plan (drift check)' }],
          kind: 'DRIFT_CHECK',
          triggerSource: options.triggerSource,
        });
        return { runId: run.id };
      },
    );
    if ('runId' in outcome) {
      await this.deps.engine.enqueue(outcome.runId);
    }
    return outcome;
  }

  private async requireStack(
    organizationId: string,
    stackId: string,
  ): Promise<Stack> {
    const stack = await this.deps.stores.stacks.get(organizationId, stackId);
    if (!stack) {
      throw notFound('Stack', stackId);
    }
    return stack;
  }

  private async currentRun(
    organizationId: string,
    runId: string,
  ): Promise<PipelineRun> {
    const run = await this.deps.stores.pipelineRuns.getRun(
      organizationId,
      runId,
    );
    return this.deps.runnerRegistry.describeRun(run!);
  }
}
