import {
  RunnerClaim,
  StepExecution,
} from '@internal/plugin-infra-delivery-common';
import { EXECUTE } from '../auth/requirements';
import { Authorizer } from '../auth/Authorizer';
import { Caller } from '../auth/Caller';
import { publicRun, publicStep } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { PipelineEngine, StepResult } from '../engine/PipelineEngine';
import { InfraDeliveryError } from '../errors';
import { ingestStepReport, StepReport } from '../iac/ingestStepReport';

/**
 * The runner protocol: runners are service accounts (MEMBER or above) that claim the IaC steps
 * of their own organization, keep their lease alive, stream logs and report results.
 */
export class RunnerService {
  constructor(
    private readonly deps: {
      stores: Stores;
      authorizer: Authorizer;
      engine: PipelineEngine;
    },
  ) {}

  private async requireRunner(caller: Caller) {
    if (caller.principal.type !== 'service-account') {
      throw new InfraDeliveryError({
        status: 403,
        entity: 'Runner',
        reason: 'NOT_A_SERVICE_ACCOUNT',
        message: 'Runners authenticate with a service account’s API key',
      });
    }
    await this.deps.authorizer.require(caller, EXECUTE);
  }

  async claim(
    caller: Caller,
    runnerId: string,
  ): Promise<RunnerClaim | undefined> {
    await this.requireRunner(caller);
    const claimed = await this.deps.engine.claim(
      caller.organizationId,
      runnerId,
    );
    if (!claimed) {
      return undefined;
    }
    const { stores } = this.deps;
    const run = (await stores.pipelineRuns.getRun(
      caller.organizationId,
      claimed.step.pipelineRunId,
    ))!;
    const stack =
      run.attachedEntityType === 'STACK' && run.attachedEntityId
        ? await stores.stacks.get(caller.organizationId, run.attachedEntityId)
        : undefined;
    return {
      leaseToken: claimed.leaseToken,
      leaseExpiresAt: claimed.step.leaseExpiresAt!,
      stepExecution: publicStep(claimed.step),
      pipelineRun: publicRun(run),
      stack: stack ?? null,
    };
  }

  async heartbeat(caller: Caller, stepId: string, leaseToken: string) {
    await this.requireRunner(caller);
    return this.deps.engine.heartbeat(
      caller.organizationId,
      stepId,
      leaseToken,
    );
  }

  async appendLogs(
    caller: Caller,
    stepId: string,
    leaseToken: string,
    lines: { timestamp?: string; text: string }[],
  ): Promise<void> {
    await this.requireRunner(caller);
    await this.deps.engine.appendLogs(
      caller.organizationId,
      stepId,
      leaseToken,
      lines,
    );
  }

  async complete(
    caller: Caller,
    stepId: string,
    leaseToken: string,
    result: StepResult & StepReport,
  ): Promise<StepExecution> {
    await this.requireRunner(caller);
    const step = await this.deps.engine.complete(
      caller.organizationId,
      stepId,
      leaseToken,
      result,
      (tx, leased, run) => ingestStepReport(tx, leased, run, result),
    );
    return publicStep(step);
  }
}
