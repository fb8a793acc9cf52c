import {
  ListPipelineRunsQuery,
  Pipeline,
  PipelineRun,
  PipelineStep,
  PipelineVersion,
  StepExecution,
  StepLogLine,
} from '@infra-delivery/plugin-infra-delivery-common';
import { EXECUTE, READ, WRITE } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { actorIdOf, Caller } from '../auth/Caller';
import { isForeignKeyViolation, isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { RunRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { PipelineEngine } from '../engine/PipelineEngine';
import { InfraDeliveryError, notFound } from '../errors';
import { RunnerRegistry } from '../runners/RunnerRegistry';
import { actorNameOf } from './actorName';
import { insertUnderParents } from './insertUnderParents';
import { requireStepReferences } from './pipelineStepReferences';
import { refuseStackChangingSteps } from './stackChangingSteps';

/** Pipelines, their versions and runs, as callers see them. */
export class PipelineService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      engine: PipelineEngine;
      runnerRegistry: RunnerRegistry;
    },
  ) {}

  async create(
    caller: Caller,
    input: {
      projectId: string;
      givenId: string;
      name: string;
      description?: string;
      steps: PipelineStep[];
    },
  ): Promise<Pipeline> {
    await this.deps.authorizer.require(caller, WRITE);
    refuseStackChangingSteps(input.steps);
    const { stores } = this.deps;
    const requireProject = async () => {
      if (
        !(await stores.projects.getProject(
          caller.organizationId,
          input.projectId,
        ))
      ) {
        throw notFound('Project', input.projectId);
      }
    };
    await requireProject();
    await requireStepReferences(stores, caller.organizationId, input.steps);
    try {
      return await insertUnderParents(
        () =>
          stores.transaction(tx =>
            tx.pipelines.create({
              organizationId: caller.organizationId,
              ...input,
            }),
          ),
        requireProject,
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'Pipeline',
          reason: 'GIVEN_ID_TAKEN',
          message: `Pipeline ${input.givenId} exists already in the project`,
          metadata: { givenId: input.givenId },
        });
      }
      throw error;
    }
  }

  async list(
    caller: Caller,
    filter: { projectId?: string },
    page: KeysetRequest,
  ): Promise<KeysetPage<Pipeline>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.pipelines.list(caller.organizationId, filter, page);
  }

  async get(caller: Caller, id: string): Promise<Pipeline> {
    await this.deps.authorizer.require(caller, READ);
    return this.requirePipeline(caller, id);
  }

  async update(
    caller: Caller,
    id: string,
    patch: { name?: string; description?: string },
  ): Promise<Pipeline> {
    await this.deps.authorizer.require(caller, WRITE);
    const pipeline = await this.deps.stores.pipelines.update(
      caller.organizationId,
      id,
      patch,
    );
    if (!pipeline) {
      throw notFound('Pipeline', id);
    }
    return pipeline;
  }

  async createVersion(
    caller: Caller,
    id: string,
    steps: PipelineStep[],
  ): Promise<PipelineVersion> {
    await this.deps.authorizer.require(caller, WRITE);
    const pipeline = await this.requirePipeline(caller, id);
    if (pipeline.stackId) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Pipeline',
        reason: 'MANAGED_BY_STACK',
        message: 'The steps of a stack’s own pipelines are fixed by the stack',
      });
    }
    refuseStackChangingSteps(steps);
    await requireStepReferences(this.deps.stores, caller.organizationId, steps);
    return this.deps.stores.transaction(tx =>
      tx.pipelines.createVersion(caller.organizationId, id, steps),
    );
  }

  async listVersions(
    caller: Caller,
    id: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<PipelineVersion>> {
    await this.deps.authorizer.require(caller, READ);
    await this.requirePipeline(caller, id);
    return this.deps.stores.pipelines.listVersions(
      caller.organizationId,
      id,
      page,
    );
  }

  /**
   * Queues a run of the pipeline's latest version. `triggeredBy` names what started it (the
   * API operation or MCP action), kept as the run's `triggerMetadata.trigger_given_id`.
   */
  async trigger(
    caller: Caller,
    pipelineId: string,
    input: {
      attachedEntityId?: string;
      input?: Record<string, unknown>;
      description?: string;
      variantId?: string;
      variantName?: string;
    },
    triggeredBy: string,
  ): Promise<PipelineRun> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const { stores } = this.deps;
    const found = await stores.pipelines.getWithLatestSteps(
      caller.organizationId,
      pipelineId,
    );
    if (!found) {
      throw notFound('Pipeline', pipelineId);
    }
    const { pipeline, latestSteps } = found;
    // A pipeline of one's own created before the rule may still carry such a step.
    if (!pipeline.stackId) refuseStackChangingSteps(latestSteps);
    const attachedEntityId = pipeline.stackId ?? input.attachedEntityId;
    if (
      pipeline.stackId &&
      input.attachedEntityId &&
      input.attachedEntityId !== pipeline.stackId
    ) {
      throw new InfraDeliveryError({
        status: 400,
        entity: 'PipelineRun',
        reason: 'ATTACHMENT_MISMATCH',
        message: `Runs of this pipeline attach to its stack ${pipeline.stackId}`,
      });
    }
    const attachedTo = attachedEntityId
      ? await stores.stacks.getWithLatestRunInput(
          caller.organizationId,
          attachedEntityId,
        )
      : undefined;
    if (attachedEntityId && !attachedTo) {
      throw notFound('Stack', attachedEntityId);
    }
    const stack = attachedTo?.stack;
    if (stack && stack.projectId !== pipeline.projectId) {
      throw new InfraDeliveryError({
        status: 400,
        entity: 'PipelineRun',
        reason: 'ATTACHMENT_MISMATCH',
        message: `Stack ${stack.id} is in another project than the pipeline: a run attaches to a stack of its pipeline's project`,
      });
    }
    // Given no input, a run of the stack plans with what the stack was last applied with.
    const runInput = input.input ?? stack?.appliedInput;
    // One transaction creates, admits and starts the run (PipelineEngine.startRun).
    const { run, steps } = await this.deps.engine
      .startRun({
        organizationId: caller.organizationId,
        pipelineId: pipeline.id,
        pipelineVersionId: pipeline.latestVersionId!,
        projectId: pipeline.projectId,
        attachedEntityId: attachedEntityId || undefined,
        attachedEntityType: stack ? 'STACK' : undefined,
        description: input.description,
        input: runInput,
        variantId: input.variantId,
        variantName: input.variantName,
        createdById: actorIdOf(caller),
        triggerMetadata: { trigger_given_id: triggeredBy },
        // The stack's module runs with the run's input; the input of the stack's run before
        // lets a person see what changed.
        data: stack
          ? {
              kind: 'stack',
              module_input: runInput ?? {},
              ...(attachedTo?.latestRun && {
                previous_module_input: attachedTo.latestRun.input ?? {},
              }),
            }
          : undefined,
        steps: latestSteps,
      })
      .catch(error => {
        // The pipeline (with its stack) was deleted between the read and the run's insert.
        if (isForeignKeyViolation(error)) {
          throw notFound('Pipeline', pipelineId);
        }
        throw error;
      });
    return this.deps.runnerRegistry.describeRun(run, steps);
  }

  async listRuns(
    caller: Caller,
    query: ListPipelineRunsQuery,
    page: KeysetRequest,
  ): Promise<KeysetPage<PipelineRun>> {
    await this.deps.authorizer.require(caller, READ);
    const result = await this.deps.stores.pipelineRuns.listRuns(
      caller.organizationId,
      {
        pipelineIds: query.pipelineId,
        statuses: query.status,
        attachedEntityIds: query.attachedEntityId,
        ids: query.id,
        latestPerPipeline: query.latestPerPipeline,
        latestPerEntity: query.latestPerEntity,
        kinds: query.kind,
      },
      page,
    );
    return {
      ...result,
      items: await this.deps.runnerRegistry.describeRuns(result.items),
    };
  }

  async getRun(caller: Caller, id: string): Promise<PipelineRun> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.runnerRegistry.describeRun(
      await this.requireRun(caller, id),
    );
  }

  async act(
    caller: Caller,
    id: string,
    action: 'approve' | 'reject' | 'cancel' | 'retry',
    comment?: string,
  ): Promise<PipelineRun> {
    await this.deps.authorizer.require(caller, EXECUTE);
    const run = await this.requireRun(caller, id);
    const { engine } = this.deps;
    switch (action) {
      case 'approve':
        await engine.approve(run, true, comment, actorIdOf(caller));
        break;
      case 'reject':
        await engine.approve(run, false, comment, actorIdOf(caller));
        break;
      case 'cancel':
        await engine.cancel(run, {
          id: actorIdOf(caller),
          name: await actorNameOf(this.deps.stores, caller),
        });
        break;
      default:
        await engine.retry(run);
    }
    return this.deps.runnerRegistry.describeRun(
      await this.requireRun(caller, id),
    );
  }

  async listSteps(caller: Caller, runId: string): Promise<StepExecution[]> {
    await this.deps.authorizer.require(caller, READ);
    await this.requireRun(caller, runId);
    return this.deps.runnerRegistry.describeSteps(
      await this.deps.stores.pipelineRuns.listSteps(runId),
    );
  }

  async listLogs(
    caller: Caller,
    stepId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<StepLogLine>> {
    await this.deps.authorizer.require(caller, READ);
    const step = await this.deps.stores.pipelineRuns.getStep(
      caller.organizationId,
      stepId,
    );
    if (!step) {
      throw notFound('StepExecution', stepId);
    }
    return this.deps.stores.pipelineRuns.listLogs(stepId, page);
  }

  private async requirePipeline(caller: Caller, id: string) {
    const pipeline = await this.deps.stores.pipelines.get(
      caller.organizationId,
      id,
    );
    if (!pipeline) {
      throw notFound('Pipeline', id);
    }
    return pipeline;
  }

  private async requireRun(caller: Caller, id: string): Promise<RunRecord> {
    const run = await this.deps.stores.pipelineRuns.getRun(
      caller.organizationId,
      id,
    );
    if (!run) {
      throw notFound('PipelineRun', id);
    }
    return run;
  }
}
