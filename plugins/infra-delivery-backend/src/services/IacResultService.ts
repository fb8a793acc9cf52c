import {
  IacExecutionSummary,
  IacResource,
  IacRunType,
} from '@infra-delivery/plugin-infra-delivery-common';
import { READ } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { KeysetPage, KeysetRequest } from '../database/keyset';
import { Stores } from '../database/stores';
import { notFound } from '../errors';

/** What runs reported: summaries (#10), resources (#14, #18) and stack state counts (#24). */
export class IacResultService {
  constructor(
    private readonly deps: { stores: Stores; authorizer: Authorizer },
  ) {}

  async listSummaries(
    caller: Caller,
    filter: {
      pipelineId?: string;
      pipelineRunId?: string;
      stackId?: string;
      stepExecutionId?: string;
    },
    page: KeysetRequest,
  ): Promise<KeysetPage<IacExecutionSummary>> {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.iacResults.listSummaries(
      caller.organizationId,
      filter,
      page,
    );
  }

  async listResources(
    caller: Caller,
    filter: {
      pipelineRunId?: string;
      stackId?: string;
      stepExecutionId?: string;
      runType?: IacRunType;
    },
    page: KeysetRequest,
  ): Promise<KeysetPage<IacResource>> {
    await this.deps.authorizer.require(caller, READ);
    const { stores } = this.deps;
    const organizationId = caller.organizationId;
    if (filter.stackId) {
      const state = await stores.iacResults.listStackState(
        organizationId,
        filter.stackId,
        page,
      );
      if (!state) {
        throw notFound('Stack', filter.stackId);
      }
      return state;
    }
    if (
      !(await stores.pipelineRuns.getRun(organizationId, filter.pipelineRunId!))
    ) {
      throw notFound('PipelineRun', filter.pipelineRunId);
    }
    return stores.iacResults.listReportedResources(
      organizationId,
      filter,
      page,
    );
  }

  async listStepResources(
    caller: Caller,
    stepExecutionId: string,
    page: KeysetRequest,
  ): Promise<KeysetPage<IacResource>> {
    await this.deps.authorizer.require(caller, READ);
    const { stores } = this.deps;
    if (
      !(await stores.pipelineRuns.getStep(
        caller.organizationId,
        stepExecutionId,
      ))
    ) {
      throw notFound('StepExecution', stepExecutionId);
    }
    return stores.iacResults.listReportedResources(
      caller.organizationId,
      { stepExecutionId },
      page,
    );
  }

  async countStackResources(caller: Caller, stackIds: string[]) {
    await this.deps.authorizer.require(caller, READ);
    return this.deps.stores.iacResults.countStackState(
      caller.organizationId,
      stackIds,
    );
  }
}
