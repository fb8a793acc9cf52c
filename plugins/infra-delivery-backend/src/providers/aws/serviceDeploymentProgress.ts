import { ServiceDeployment, ServiceRevisionSummary } from '@aws-sdk/client-ecs';
import {
  ErrorBody,
  errorCode,
  ServiceDeploymentState,
} from '@infra-delivery/plugin-infra-delivery-common';
import { DeploymentObservation } from '../DeploymentProvider';
import {
  LIFECYCLE_STAGES,
  ROLLING_STEPS,
  trafficPhaseOf,
} from '../ecs/lifecycleStages';

function revisionOf(
  revision: ServiceRevisionSummary,
): NonNullable<ServiceDeploymentState['targetServiceRevision']> {
  return {
    serviceRevisionRef: revision.arn,
    requestedTaskCount: revision.requestedTaskCount,
    runningTaskCount: revision.runningTaskCount ?? 0,
    pendingTaskCount: revision.pendingTaskCount,
    ...(revision.requestedProductionTrafficWeight !== undefined
      ? {
          requestedProductionTrafficWeight: Math.round(
            revision.requestedProductionTrafficWeight,
          ),
        }
      : {}),
    ...(revision.requestedTestTrafficWeight !== undefined
      ? {
          requestedTestTrafficWeight: Math.round(
            revision.requestedTestTrafficWeight,
          ),
        }
      : {}),
  };
}

/** Why ECS rolled a deployment back, as the error the deployment ends with. */
function rollbackError(deployment: ServiceDeployment): ErrorBody {
  const reason =
    deployment.rollback?.reason ??
    deployment.statusReason ??
    'ECS rolled the deployment back';
  let cause = 'ROLLED_BACK';
  if (deployment.deploymentCircuitBreaker?.status === 'TRIGGERED') {
    cause = 'CIRCUIT_BREAKER_ROLLED_BACK';
  } else if (deployment.alarms?.status === 'TRIGGERED') {
    cause = 'ALARM_ROLLED_BACK';
  }
  return {
    code: errorCode('Deployment', cause),
    message: reason,
    metadata: {
      ...(deployment.deploymentCircuitBreaker?.failureCount !== undefined
        ? { failedTasks: deployment.deploymentCircuitBreaker.failureCount }
        : {}),
      ...(deployment.alarms?.triggeredAlarmNames?.length
        ? { triggeredAlarms: deployment.alarms.triggeredAlarmNames }
        : {}),
      ...(deployment.rollback?.serviceRevisionArn
        ? { revertedTo: deployment.rollback.serviceRevisionArn }
        : {}),
    },
  };
}

/**
 * A service deployment (DescribeServiceDeployments) as a progress step: its lifecycle stage
 * and traffic phase for blue/green, linear and canary; a PAUSE hook awaiting action shows as a
 * step carrying the hook's id, which `POST /deployments/{id}/continue` answers. A deployment
 * that the platform asked to stop ends CANCELLED rather than ROLLED_BACK.
 */
export function observationOfServiceDeployment(
  deployment: ServiceDeployment,
  now: Date,
  options: { cancelRequested?: boolean } = {},
): DeploymentObservation {
  const strategy = deployment.deploymentConfiguration?.strategy ?? 'ROLLING';
  const staged = strategy !== 'ROLLING';
  const stage = deployment.lifecycleStage;
  const trafficPhase = staged ? trafficPhaseOf(stage) : 'production';
  const target = deployment.targetServiceRevision;
  const state: ServiceDeploymentState = {
    observedAt: now.toISOString(),
    serviceDeploymentRef: deployment.serviceDeploymentArn,
    status: deployment.status ?? 'PENDING',
    statusReason: deployment.statusReason,
    strategy,
    ...(stage ? { lifecycleStage: stage } : {}),
    trafficPhase,
    acceptsNativeStandbyRevert:
      staged &&
      deployment.status === 'IN_PROGRESS' &&
      stage !== undefined &&
      stage !== 'CLEAN_UP',
    sourceServiceRevisions: (deployment.sourceServiceRevisions ?? []).map(
      revisionOf,
    ),
    ...(target ? { targetServiceRevision: revisionOf(target) } : {}),
  };
  const totalSteps = staged ? LIFECYCLE_STAGES.length : ROLLING_STEPS;
  const stageStep = staged
    ? Math.max(
        1,
        LIFECYCLE_STAGES.indexOf(stage as (typeof LIFECYCLE_STAGES)[number]) +
          1,
      )
    : 2;
  const counts = `${target?.runningTaskCount ?? 0}/${
    target?.requestedTaskCount ?? 0
  } tasks running`;
  const common = {
    totalSteps,
    desiredCount: target?.requestedTaskCount,
    ...(stage ? { lifecycleStage: stage } : {}),
    trafficPhase,
  };

  const ended = (
    status: 'FAILED' | 'CANCELLED' | 'ROLLED_BACK',
    error: ErrorBody,
  ): DeploymentObservation => ({
    status,
    serviceDeploymentState: state,
    step: {
      ...common,
      stepCode: status,
      currentStep: totalSteps,
      message: error.message,
    },
    error,
  });

  switch (deployment.status) {
    case 'SUCCESSFUL':
      return {
        status: 'SUCCEEDED',
        serviceDeploymentState: state,
        step: {
          ...common,
          stepCode: 'SUCCEEDED',
          currentStep: totalSteps,
          trafficPhase: 'production',
          message: deployment.statusReason ?? `Deployment completed; ${counts}`,
        },
      };
    case 'ROLLBACK_SUCCESSFUL':
    case 'STOPPED': {
      if (options.cancelRequested) {
        const error = {
          code: errorCode('Deployment', 'CANCELLED'),
          message:
            'The deployment was cancelled; ECS restored the previous revision',
        };
        return ended('CANCELLED', error);
      }
      if (deployment.status === 'STOPPED') {
        const error = {
          code: errorCode('Deployment', 'SUPERSEDED'),
          message:
            deployment.statusReason ??
            'ECS stopped the deployment before it completed',
        };
        return ended('FAILED', error);
      }
      const error = rollbackError(deployment);
      return ended('ROLLED_BACK', error);
    }
    case 'ROLLBACK_FAILED': {
      const error = {
        code: errorCode('Deployment', 'ROLLBACK_FAILED'),
        message:
          deployment.statusReason ??
          'ECS could not roll the deployment back to the previous revision',
      };
      return ended('FAILED', error);
    }
    case 'ROLLBACK_REQUESTED':
    case 'ROLLBACK_IN_PROGRESS':
      return {
        status: 'IN_PROGRESS',
        serviceDeploymentState: state,
        step: {
          ...common,
          stepCode: 'ROLLING_BACK',
          currentStep: Math.max(stageStep, totalSteps - 1),
          message:
            deployment.rollback?.reason ??
            deployment.statusReason ??
            'Rolling back to the previous revision',
        },
      };
    default: {
      const paused = deployment.lifecycleHookDetails?.find(
        hook =>
          hook.targetType === 'PAUSE' && hook.status === 'AWAITING_ACTION',
      );
      const waitingOnLambda = deployment.lifecycleHookDetails?.find(
        hook =>
          hook.targetType === 'AWS_LAMBDA' && hook.status === 'IN_PROGRESS',
      );
      let message = staged
        ? `${stage ?? 'Starting'}: ${counts}`
        : `Rolling out; ${counts}`;
      if (
        stage === 'PRODUCTION_TRAFFIC_SHIFT' &&
        target?.requestedProductionTrafficWeight !== undefined
      ) {
        message = `Shifting production traffic: ${Math.round(
          target.requestedProductionTrafficWeight,
        )}% to the new revision`;
      }
      if (paused) {
        const timeout = paused.expiresAt
          ? `; at ${paused.expiresAt.toISOString()} ECS will ${(
              paused.timeoutAction ?? 'ROLLBACK'
            ).toLowerCase()}`
          : '';
        message = `Paused at ${
          stage ?? 'a lifecycle hook'
        } until continued${timeout}`;
      } else if (waitingOnLambda) {
        message = `Waiting for lifecycle hook ${
          waitingOnLambda.targetArn ?? waitingOnLambda.hookId
        } at ${stage}`;
      }
      return {
        status: 'IN_PROGRESS',
        serviceDeploymentState: state,
        step: {
          ...common,
          stepCode: deployment.status === 'PENDING' ? 'INIT' : 'IN_PROGRESS',
          currentStep: deployment.status === 'PENDING' ? 1 : stageStep,
          message,
          ...(paused?.hookId ? { hookId: paused.hookId } : {}),
        },
      };
    }
  }
}
