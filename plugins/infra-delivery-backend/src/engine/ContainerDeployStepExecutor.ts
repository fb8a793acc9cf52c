import { LoggerService } from '@backstage/backend-plugin-api';
import {
  containerDeployStepConfigSchema,
  Deployment,
  ErrorBody,
  errorCode,
  IN_FLIGHT_DEPLOYMENT_STATUSES,
} from '@infra-delivery/plugin-infra-delivery-common';
import { StepRecord } from '../database/PipelineRunStore';
import { Stores } from '../database/stores';
import { InfraDeliveryError } from '../errors';
import { BoundedMap } from '../lib/BoundedMap';
import { PipelineEngine } from './PipelineEngine';
import { STEP_ATTEMPT_DEPLOYED, StepDeployments } from './StepDeployments';

/** Steps one pass looks at, per status. */
const BATCH = 50;
/**
 * How long a RUNNING step may go without its deployment before a tick starts it: the
 * instance that started the step normally inserts the deployment at once.
 */
export const STEP_START_GRACE_MILLIS = 30_000;

/**
 * Executes `container.deploy` steps in the backend, without a runner. The engine queues the
 * step like any other; a scheduler tick (on whichever instance runs it) starts it, starts the
 * deployment of its configured service through StepDeployments, and completes the step when
 * the deployment reaches a final status: SUCCEEDED succeeds the step, anything else fails it
 * and the run with the deployment's error.
 *
 * Exactly once: starting the step is a compare-and-set QUEUED → RUNNING, and a deployment is
 * keyed by its step execution and attempt (a unique index), so two instances or a repeated tick
 * never roll the service twice for one attempt. Completion is a compare-and-set on the step's
 * status and attempt. A step whose instance stopped between the two writes is picked up by a
 * later tick after a grace period. The deployment itself is followed by the deployment
 * follower, so the step holds no lease while ECS works. A run cancelled while its deployment is
 * in flight cancels the deployment too, so the service does not change under a cancelled run.
 */
export class ContainerDeployStepExecutor {
  /** The deployment status each step attempt's log last told, so each change is told once. */
  private readonly toldStatus = new BoundedMap<string, string>(1000);

  constructor(
    private readonly deps: {
      stores: Stores;
      engine: PipelineEngine;
      deployments: StepDeployments;
      logger: LoggerService;
    },
  ) {}

  async tick(now: Date = new Date()): Promise<void> {
    const { stores, logger } = this.deps;
    await this.deps.deployments.cancelOrphanedStepDeployments();
    for (const step of await stores.pipelineRuns.stepsOfTypeInStatus(
      'container.deploy',
      'QUEUED',
      BATCH,
    )) {
      try {
        if (await this.deps.engine.startInProcessStep(step)) {
          await this.startDeployment({ ...step, status: 'RUNNING' });
        }
      } catch (error) {
        logger.warn(`Could not start step ${step.id}: ${String(error)}`);
      }
    }
    for (const step of await stores.pipelineRuns.stepsOfTypeInStatus(
      'container.deploy',
      'RUNNING',
      BATCH,
    )) {
      try {
        await this.followStep(step, now);
      } catch (error) {
        logger.warn(`Could not follow step ${step.id}: ${String(error)}`);
      }
    }
  }

  private async followStep(step: StepRecord, now: Date): Promise<void> {
    const deployment = await this.deps.stores.deployments.ofStepAttempt(
      step.organizationId,
      step.id,
      step.attemptEpoch,
    );
    if (!deployment) {
      const since = new Date(step.startedAt ?? 0).getTime();
      if (now.getTime() - since >= STEP_START_GRACE_MILLIS) {
        await this.startDeployment(step);
      }
      return;
    }
    await this.completeWith(step, deployment);
  }

  /** Starts the step's deployment; a step that cannot deploy fails with the reason. */
  private async startDeployment(step: StepRecord): Promise<void> {
    const config = containerDeployStepConfigSchema.safeParse(step.config);
    if (!config.success) {
      const issues = config.error.issues.map(
        issue => `config.${issue.path.map(String).join('.')}: ${issue.message}`,
      );
      await this.fail(step, {
        code: errorCode('StepExecution', 'INVALID_CONFIG'),
        message: `Step ${step.name} has no valid container.deploy config`,
        details: [{ title: 'Config', render: 'list', items: issues }],
      });
      return;
    }
    const run = await this.deps.stores.pipelineRuns.getRunForEngine(
      step.pipelineRunId,
    );
    let deployment: Deployment;
    try {
      deployment = await this.deps.deployments.deployForStep(
        step,
        config.data,
        run?.createdById,
      );
    } catch (error) {
      if (
        error instanceof InfraDeliveryError &&
        error.code === STEP_ATTEMPT_DEPLOYED
      ) {
        // Another instance started this attempt's deployment first.
        return;
      }
      if (error instanceof InfraDeliveryError) {
        await this.fail(step, error.toBody());
        return;
      }
      throw error;
    }
    await this.completeWith(step, deployment);
  }

  /** Writes the deployment's status into the step's log when it changed since last told. */
  private async tellStatus(
    step: StepRecord,
    deployment: Deployment,
  ): Promise<void> {
    const key = `${step.id}/${step.attemptEpoch}`;
    if (this.toldStatus.get(key) === deployment.status) {
      return;
    }
    this.toldStatus.set(key, deployment.status);
    const lines = [
      {
        text: `Deployment ${deployment.id} of ${deployment.data.clusterRef} / ${deployment.data.serviceRef}: ${deployment.status}`,
      },
    ];
    if (deployment.error) {
      lines.push({ text: `Error: ${deployment.error.message}` });
    }
    await this.deps.engine.appendInProcessLogs(step, step.attemptEpoch, lines);
  }

  /** Completes the step when its deployment has ended; nothing while it is in flight. */
  private async completeWith(
    step: StepRecord,
    deployment: Deployment,
  ): Promise<void> {
    await this.tellStatus(step, deployment);
    if (IN_FLIGHT_DEPLOYMENT_STATUSES.includes(deployment.status)) {
      return;
    }
    const outputs = {
      deploymentId: deployment.id,
      deploymentStatus: deployment.status,
      ...(deployment.data.deployedTaskDefinition
        ? { taskDefinitionRef: deployment.data.deployedTaskDefinition.ref }
        : {}),
    };
    if (deployment.status === 'SUCCEEDED') {
      await this.deps.engine.completeInProcessStep(step, step.attemptEpoch, {
        status: 'SUCCEEDED',
        outputs,
      });
      return;
    }
    await this.fail(
      step,
      {
        code: errorCode('StepExecution', 'DEPLOYMENT_NOT_SUCCEEDED'),
        message: `Deployment ${deployment.id} ended ${deployment.status}${
          deployment.error ? `: ${deployment.error.message}` : ''
        }`,
        metadata: {
          deploymentId: deployment.id,
          deploymentStatus: deployment.status,
          ...(deployment.error
            ? { deploymentError: deployment.error.code }
            : {}),
        },
      },
      outputs,
    );
  }

  private async fail(
    step: StepRecord,
    error: ErrorBody,
    outputs?: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.engine.completeInProcessStep(step, step.attemptEpoch, {
      status: 'FAILED',
      error,
      outputs,
    });
  }
}
