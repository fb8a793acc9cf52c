import { createHash } from 'node:crypto';
import {
  errorCode,
  TaskDefinitionSnapshot,
} from '@internal/plugin-infra-delivery-common';
import {
  DeploymentObservation,
  DeploymentProvider,
  EcsServiceTarget,
  ProviderDeployment,
  Release,
  StartedDeployment,
} from './DeploymentProvider';

interface LocalStage {
  stepCode: string;
  lifecycleStage: string;
  trafficPhase: string;
  message: string;
}

/** The stages of a simulated rolling deployment, in order; the last one is its outcome. */
const STAGES: LocalStage[] = [
  {
    stepCode: 'INIT',
    lifecycleStage: 'RECONCILE_SERVICE',
    trafficPhase: 'standby',
    message: 'Task definition registered; service update accepted',
  },
  {
    stepCode: 'IN_PROGRESS',
    lifecycleStage: 'SCALE_UP',
    trafficPhase: 'standby',
    message: 'Starting tasks of the new revision',
  },
  {
    stepCode: 'IN_PROGRESS',
    lifecycleStage: 'PRODUCTION_TRAFFIC_SHIFT',
    trafficPhase: 'production',
    message: 'Shifting production traffic to the new revision',
  },
  {
    stepCode: 'SUCCEEDED',
    lifecycleStage: 'CLEAN_UP',
    trafficPhase: 'production',
    message: 'Deployment completed; old tasks stopped',
  },
];
const FAILED_STAGE: LocalStage = {
  stepCode: 'FAILED',
  lifecycleStage: 'SCALE_UP',
  trafficPhase: 'standby',
  message: 'Tasks of the new revision failed to start',
};
/** The stage a `-pause` family waits at until the deployment is continued. */
const PAUSE_STAGE_INDEX = 2;

function familyOf(definition: Record<string, unknown>): string {
  return typeof definition.family === 'string' ? definition.family : 'task';
}

/**
 * The development driver: no cloud is called. A deployment moves one stage every
 * `stageMillis` from its start (INIT → SCALE_UP → traffic shift → SUCCEEDED), computed from the
 * stored deployment and the clock alone, so any instance's tick sees the same stage. A task
 * definition whose family ends with `-fail` fails at SCALE_UP; one ending with `-pause` waits
 * before the traffic shift for `POST /deployments/{id}/continue`. A cancelled deployment ends
 * CANCELLED at its next observation. Nothing runs, so there is no current task definition to
 * read: the platform's own record of the service is all there is.
 */
export class LocalDeploymentProvider implements DeploymentProvider {
  readonly driver = 'local' as const;

  constructor(private readonly options: { stageMillis: number }) {}

  async start(
    target: EcsServiceTarget,
    release: Release,
  ): Promise<StartedDeployment> {
    const { account, region } = target;
    const cluster = target.clusterRef.split('/').pop()!;
    const service = target.serviceRef.split('/').pop()!;
    const deployedTaskDefinition =
      release.kind === 'replay'
        ? release.snapshot
        : {
            ref: '',
            definition: release.taskDefinition,
            revision: this.revisionOf(release.taskDefinition),
          };
    const family = familyOf(deployedTaskDefinition.definition);
    if (!deployedTaskDefinition.ref) {
      deployedTaskDefinition.ref = `arn:aws:ecs:${region}:${account.cloudId}:task-definition/${family}:${deployedTaskDefinition.revision}`;
    }
    return {
      deployedTaskDefinition,
      externalDeploymentId: `ecs-svc/${createHash('sha256')
        .update(`${deployedTaskDefinition.ref}|${Date.now()}|${Math.random()}`)
        .digest('hex')
        .slice(0, 19)}`,
      resourceRef: `arn:aws:ecs:${region}:${account.cloudId}:service/${cluster}/${service}`,
      strategy: 'rolling',
    };
  }

  async continuePause(): Promise<void> {
    // The recorded acceptedPauseControl is what lets the simulation go on.
  }

  async cancel(): Promise<void> {
    // The recorded revertRequestedAt is what ends the simulation.
  }

  async currentTaskDefinition(): Promise<TaskDefinitionSnapshot | undefined> {
    return undefined;
  }

  async observe(
    _target: EcsServiceTarget,
    deployment: ProviderDeployment,
    now: Date,
  ): Promise<DeploymentObservation> {
    const { data } = deployment;
    if (data.revertRequestedAt) {
      const message =
        'The deployment was cancelled; the previous revision runs again';
      return {
        status: 'CANCELLED',
        serviceDeploymentState: {
          observedAt: now.toISOString(),
          status: 'ROLLBACK_SUCCESSFUL',
          strategy: 'ROLLING',
          statusReason: message,
        },
        step: {
          stepCode: 'CANCELLED',
          currentStep: STAGES.length,
          totalSteps: STAGES.length,
          message,
        },
        error: { code: errorCode('Deployment', 'CANCELLED'), message },
      };
    }
    const family = familyOf(data.deployedTaskDefinition?.definition ?? {});
    const started = new Date(deployment.startedAt).getTime();
    let index = Math.floor(
      (now.getTime() - started) / this.options.stageMillis,
    );
    let hookId: string | undefined;
    if (family.endsWith('-pause') && index >= PAUSE_STAGE_INDEX) {
      const accepted = data.acceptedPauseControl;
      if (!accepted) {
        index = PAUSE_STAGE_INDEX - 1;
        hookId = `local-hook-${deployment.externalDeploymentId ?? 'x'}`;
      } else {
        const since = new Date(accepted.acceptedAt).getTime();
        index =
          PAUSE_STAGE_INDEX +
          Math.floor((now.getTime() - since) / this.options.stageMillis);
      }
    }
    const failing = family.endsWith('-fail') && index >= 1;
    const stageIndex = failing ? 1 : Math.min(index, STAGES.length - 1);
    const stage = failing ? FAILED_STAGE : STAGES[stageIndex];
    let status: DeploymentObservation['status'] = 'IN_PROGRESS';
    if (failing) {
      status = 'FAILED';
    } else if (stage.stepCode === 'SUCCEEDED') {
      status = 'SUCCEEDED';
    }
    return {
      status,
      serviceDeploymentState: {
        observedAt: now.toISOString(),
        status,
        lifecycleStage: hookId ? 'POST_SCALE_UP' : stage.lifecycleStage,
        strategy: 'ROLLING',
        trafficPhase: stage.trafficPhase,
        ...(failing ? { statusReason: FAILED_STAGE.message } : {}),
      },
      step: {
        stepCode: stage.stepCode,
        currentStep: stageIndex + 1,
        totalSteps: STAGES.length,
        lifecycleStage: hookId ? 'POST_SCALE_UP' : stage.lifecycleStage,
        trafficPhase: stage.trafficPhase,
        message: hookId
          ? 'Waiting for a person to continue the deployment'
          : stage.message,
        ...(hookId ? { hookId } : {}),
      },
      ...(failing
        ? {
            error: {
              code: errorCode('Deployment', 'TASKS_FAILED_TO_START'),
              message: FAILED_STAGE.message,
            },
          }
        : {}),
    };
  }

  /** A stable revision per definition, as ECS would number a family's registrations. */
  private revisionOf(definition: Record<string, unknown>): number {
    const digest = createHash('sha256')
      .update(JSON.stringify(definition))
      .digest();
    return (digest.readUInt16BE(0) % 1000) + 1;
  }
}
