import {
  DriftStatus,
  givenIdFromName,
  normalizeRepositoryPath,
  PipelineStep,
  Stack,
  StackGitTrigger,
  stackPipelineName,
} from '@infra-delivery/plugin-infra-delivery-common';
import { READ, WRITE } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { isUniqueViolation } from '../database/dbErrors';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { InfraDeliveryError, notFound } from '../errors';
import { insertUnderParents } from './insertUnderParents';
import { requireCloudAccount } from './CloudAccountService';
import { CatalogChanges, noCatalogChanges } from '../catalog/CatalogChanges';

/** The change pipeline of a stack: plan, a person approves, apply. */
export function changePipelineSteps(autoApprove: boolean): PipelineStep[] {
  return [
    { type: 'iac.plan', name: 'Plan' },
    ...(autoApprove
      ? []
      : [{ type: 'approval' as const, name: 'Approve the plan' }]),
    { type: 'iac.apply', name: 'Apply' },
  ];
}

/** The destroy pipeline of a stack: a destroy plan, a person approves, destroy. */
export function destroyPipelineSteps(autoApprove: boolean): PipelineStep[] {
  return [
    {
      type: 'iac.plan',
      name: 'Plan the destruction',
      config: { destroy: true },
    },
    ...(autoApprove
      ? []
      : [{ type: 'approval' as const, name: 'Approve the destruction' }]),
    { type: 'iac.destroy', name: 'Destroy' },
  ];
}

function gitTriggerNeedsCodeSource(): InfraDeliveryError {
  return new InfraDeliveryError({
    status: 422,
    entity: 'Stack',
    reason: 'NO_CODE_SOURCE',
    message:
      'A stack follows a repository through its code source: set codeSourceId first',
  });
}

/** IaC stacks, each with its change and destroy pipelines. */
export class StackService {
  private readonly catalogChanges: CatalogChanges;

  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      /** Told after each committed create, update and delete, for the catalog module. */
      catalogChanges?: CatalogChanges;
    },
  ) {
    this.catalogChanges = deps.catalogChanges ?? noCatalogChanges;
  }

  async create(
    caller: Caller,
    input: {
      projectId: string;
      environmentId: string;
      name: string;
      givenId?: string;
      description?: string;
      codeSourceId?: string;
      path?: string;
      autoApprove?: boolean;
      cloudAccountId?: string;
      driftCheckIntervalHours?: number;
      gitTrigger?: StackGitTrigger;
      runnerLabels?: string[];
    },
  ): Promise<Stack> {
    await this.deps.authorizer.require(caller, WRITE);
    const { stores } = this.deps;
    if (input.gitTrigger && !input.codeSourceId) {
      throw gitTriggerNeedsCodeSource();
    }
    const organizationId = caller.organizationId;
    const requireReferences = async () => {
      if (
        !(await stores.projects.getEnvironment(
          organizationId,
          input.projectId,
          input.environmentId,
        ))
      ) {
        throw notFound('Environment', input.environmentId);
      }
      if (input.codeSourceId) {
        await this.requireCodeSource(organizationId, input.codeSourceId);
      }
      if (input.cloudAccountId) {
        await requireCloudAccount(stores, organizationId, input.cloudAccountId);
      }
    };
    await requireReferences();
    const givenId = input.givenId ?? givenIdFromName(input.name, 'stack');
    const autoApprove = input.autoApprove ?? false;
    try {
      const id = await insertUnderParents(
        () =>
          stores.transaction(async tx => {
            const stackId = await tx.stacks.create({
              organizationId,
              projectId: input.projectId,
              environmentId: input.environmentId,
              givenId,
              name: input.name,
              description: input.description,
              codeSourceId: input.codeSourceId,
              path:
                input.path === undefined
                  ? undefined
                  : normalizeRepositoryPath(input.path),
              autoApprove,
              cloudAccountId: input.cloudAccountId,
              driftCheckIntervalHours: input.driftCheckIntervalHours,
              gitTrigger: input.gitTrigger,
              runnerLabels: input.runnerLabels,
            });
            const change = await tx.pipelines.create({
              organizationId,
              projectId: input.projectId,
              stackId,
              givenId: `stack-${stackId}-change`,
              name: stackPipelineName(input.name, 'change'),
              steps: changePipelineSteps(autoApprove),
            });
            const destroy = await tx.pipelines.create({
              organizationId,
              projectId: input.projectId,
              stackId,
              givenId: `stack-${stackId}-destroy`,
              name: stackPipelineName(input.name, 'destroy'),
              steps: destroyPipelineSteps(autoApprove),
            });
            await tx.stacks.attachPipelines(stackId, {
              changePipelineId: change.id,
              destroyPipelineId: destroy.id,
            });
            return stackId;
          }),
        // What it names was deleted between the checks and the insert.
        requireReferences,
      );
      this.catalogChanges.changed({
        organizationId,
        kind: 'stack',
        id,
        change: 'created',
      });
      return (await stores.stacks.get(organizationId, id))!;
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'Stack',
          reason: 'GIVEN_ID_TAKEN',
          message: `Stack ${givenId} exists already in the project`,
          metadata: { givenId },
        });
      }
      throw error;
    }
  }

  async update(
    caller: Caller,
    id: string,
    patch: {
      name?: string;
      description?: string;
      codeSourceId?: string;
      path?: string;
      autoApprove?: boolean;
      /** `null` detaches the stack from its cloud account. */
      cloudAccountId?: string | null;
      /** `null` turns scheduled drift checks off. */
      driftCheckIntervalHours?: number | null;
      /** `null`: runs start by hand only. */
      gitTrigger?: StackGitTrigger | null;
      /** `[]`: any runner may claim the stack's steps. */
      runnerLabels?: string[];
    },
  ): Promise<Stack> {
    await this.deps.authorizer.require(caller, WRITE);
    const organizationId = caller.organizationId;
    const stack = await this.get(caller, id);
    if (patch.codeSourceId) {
      await this.requireCodeSource(organizationId, patch.codeSourceId);
    }
    if (patch.gitTrigger && !(patch.codeSourceId ?? stack.codeSourceId)) {
      throw gitTriggerNeedsCodeSource();
    }
    if (patch.cloudAccountId) {
      await requireCloudAccount(
        this.deps.stores,
        organizationId,
        patch.cloudAccountId,
      );
    }
    await this.deps.stores.transaction(async tx => {
      await tx.stacks.update(organizationId, id, {
        ...patch,
        ...(patch.path !== undefined && {
          path: normalizeRepositoryPath(patch.path),
        }),
      });
      if (patch.runnerLabels !== undefined) {
        // Steps already waiting are routed by the new labels at the next claim.
        await tx.pipelineRuns.copyStackLabels(organizationId, id);
      }
      if (
        patch.autoApprove !== undefined &&
        patch.autoApprove !== stack.autoApprove
      ) {
        // Versions are immutable: runs already triggered keep the steps they started with.
        await tx.pipelines.createVersion(
          organizationId,
          stack.changePipelineId,
          changePipelineSteps(patch.autoApprove),
        );
        await tx.pipelines.createVersion(
          organizationId,
          stack.destroyPipelineId,
          destroyPipelineSteps(patch.autoApprove),
        );
      }
    });
    this.catalogChanges.changed({
      organizationId,
      kind: 'stack',
      id,
      change: 'updated',
    });
    return this.get(caller, id);
  }

  private async requireCodeSource(organizationId: string, id: string) {
    if (!(await this.deps.stores.codeSources.get(organizationId, id))) {
      throw notFound('CodeSource', id);
    }
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.deps.authorizer.require(caller, WRITE);
    const organizationId = caller.organizationId;
    await this.deps.stores.transaction(async tx => {
      // A trigger takes this lock before it writes a run of the stack: the two run one after
      // the other, so a run triggered meanwhile makes the stack busy, or finds it gone, instead
      // of being deleted with it just after its trigger was answered 201.
      await tx.pipelineRuns.lockEntityForAdmission(id);
      if (!(await tx.stacks.get(organizationId, id))) {
        throw notFound('Stack', id);
      }
      const [state] = await tx.iacResults.countStackState(organizationId, [id]);
      if (state) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'Stack',
          reason: 'NOT_EMPTY',
          message: `The stack still holds ${state.count} resources; run its destroy pipeline first`,
        });
      }
      const open = await tx.pipelineRuns.listRuns(
        organizationId,
        {
          attachedEntityIds: [id],
          statuses: ['QUEUED', 'RUNNING', 'WAITING_FOR_APPROVAL'],
        },
        { limit: 1 },
      );
      if (open.totalCount > 0) {
        throw new InfraDeliveryError({
          status: 409,
          entity: 'Stack',
          reason: 'BUSY',
          message: 'The stack has queued or active runs; cancel them first',
        });
      }
      await tx.stacks.delete(organizationId, id);
    });
    this.catalogChanges.changed({
      organizationId,
      kind: 'stack',
      id,
      change: 'deleted',
    });
  }

  async list(
    caller: Caller,
    filter: {
      projectId?: string;
      environmentId?: string;
      driftStatuses?: DriftStatus[];
      ids?: string[];
    },
    page: KeysetRequest,
  ): Promise<KeysetPage<Stack>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.stacks.list(caller.organizationId, filter, page);
  }

  async get(caller: Caller, id: string): Promise<Stack> {
    await this.deps.authorizer.require(caller, READ);
    const stack = await this.deps.stores.stacks.get(caller.organizationId, id);
    if (!stack) {
      throw notFound('Stack', id);
    }
    return stack;
  }
}
