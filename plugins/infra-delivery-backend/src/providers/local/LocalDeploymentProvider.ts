import { createHash } from 'node:crypto';
import { LocalTaskDefinitionStore } from '../../database/LocalTaskDefinitionStore';
import {
  errorCode,
  TaskDefinitionSnapshot,
} from '@infra-delivery/plugin-infra-delivery-common';
import {
  DeploymentObservation,
  DeploymentProvider,
  EcsServiceTarget,
  ProviderDeployment,
  Release,
  StartedDeployment,
} from '../DeploymentProvider';
import { elbListenerStateOf } from '../ecs/elbListenerState';
import { deployHooksOf, LIFECYCLE_STAGES } from '../ecs/lifecycleStages';

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
  // Why, as ECS gives a stopped task's reason, and which rule of this driver made it so.
  message:
    'Tasks of the new revision failed to start: essential container in task exited (the local driver fails every task definition family ending in -fail)',
};
/** The stages of a simulated blue/green deployment, in order; the last one is its outcome. */
const BLUE_GREEN_STAGES: LocalStage[] = [
  STAGES[0],
  {
    stepCode: 'IN_PROGRESS',
    lifecycleStage: 'SCALE_UP',
    trafficPhase: 'standby',
    message: 'Starting green tasks beside the blue ones',
  },
  {
    stepCode: 'IN_PROGRESS',
    lifecycleStage: 'TEST_TRAFFIC_SHIFT',
    trafficPhase: 'test',
    message: 'The test listener rule forwards to the green tasks',
  },
  {
    stepCode: 'IN_PROGRESS',
    lifecycleStage: 'PRODUCTION_TRAFFIC_SHIFT',
    trafficPhase: 'production',
    message: 'The production listener rule forwards to the green tasks',
  },
  {
    stepCode: 'IN_PROGRESS',
    lifecycleStage: 'BAKE_TIME',
    trafficPhase: 'production',
    message: 'Baking; the blue tasks stay ready to take the traffic back',
  },
  {
    stepCode: 'SUCCEEDED',
    lifecycleStage: 'CLEAN_UP',
    trafficPhase: 'production',
    message: 'Deployment completed; blue tasks stopped',
  },
];

/** How one strategy is simulated: its stages and where a `-pause` family waits. */
interface Simulation {
  strategy: 'ROLLING' | 'BLUE_GREEN';
  stages: LocalStage[];
  /** The stage a paused deployment does not enter until it is continued. */
  pauseBefore: number;
  /** The lifecycle stage a paused deployment shows. */
  pausedStage: string;
  totalSteps: number;
  stepOf(stageIndex: number, lifecycleStage: string): number;
}

const ROLLING: Simulation = {
  strategy: 'ROLLING',
  stages: STAGES,
  pauseBefore: 2,
  pausedStage: 'POST_SCALE_UP',
  totalSteps: STAGES.length,
  stepOf: stageIndex => stageIndex + 1,
};

const BLUE_GREEN: Simulation = {
  strategy: 'BLUE_GREEN',
  stages: BLUE_GREEN_STAGES,
  pauseBefore: 3,
  pausedStage: 'POST_TEST_TRAFFIC_SHIFT',
  totalSteps: LIFECYCLE_STAGES.length,
  stepOf: (_stageIndex, lifecycleStage) =>
    LIFECYCLE_STAGES.indexOf(
      lifecycleStage as (typeof LIFECYCLE_STAGES)[number],
    ) + 1,
};

function simulationOf(family: string): Simulation {
  return family.includes('-bluegreen') ? BLUE_GREEN : ROLLING;
}

function familyOf(definition: Record<string, unknown>): string {
  return typeof definition.family === 'string' ? definition.family : 'task';
}

/**
 * The development driver: no cloud is called. A deployment moves one stage every
 * `stageMillis` from its start (INIT → SCALE_UP → traffic shift → SUCCEEDED), computed from the
 * stored deployment and the clock alone, so any instance's tick sees the same stage. A task
 * definition whose family ends with `-fail` fails at SCALE_UP; one ending with `-pause` waits
 * before the traffic shift for `POST /deployments/{id}/continue`. A family containing
 * `-bluegreen` is rolled blue/green: test then production traffic moves through simulated
 * listener rules, which the deployment records as its `elbListenerState`. A cancelled deployment ends
 * CANCELLED at its next observation. Nothing runs, so there is no current task definition to
 * read: the platform's own record of the service is all there is.
 */
export class LocalDeploymentProvider implements DeploymentProvider {
  readonly driver = 'local' as const;

  constructor(
    private readonly options: {
      stageMillis: number;
      /** Numbers each registration of a family, as ECS does: 1, 2, 3… */
      taskDefinitions: Pick<LocalTaskDefinitionStore, 'register'>;
    },
  ) {}

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
        : await this.register(release.taskDefinition, account.cloudId, region);
    const family = familyOf(deployedTaskDefinition.definition);
    const blueGreen = simulationOf(family) === BLUE_GREEN;
    const elb = `arn:aws:elasticloadbalancing:${region}:${account.cloudId}`;
    const lbId = createHash('sha256')
      .update(`${cluster}/${service}`)
      .digest('hex')
      .slice(0, 16);
    const elbListenerState = blueGreen
      ? elbListenerStateOf(
          [
            {
              targetGroupArn: `${elb}:targetgroup/${service}-blue/${lbId}`,
              advancedConfiguration: {
                alternateTargetGroupArn: `${elb}:targetgroup/${service}-green/${lbId}`,
                productionListenerRule: `${elb}:listener-rule/app/${service}/${lbId}/${lbId}/1`,
                testListenerRule: `${elb}:listener-rule/app/${service}/${lbId}/${lbId}/2`,
              },
            },
          ],
          new Date(),
        )
      : undefined;
    return {
      deployedTaskDefinition,
      externalDeploymentId: `ecs-svc/${createHash('sha256')
        .update(`${deployedTaskDefinition.ref}|${Date.now()}|${Math.random()}`)
        .digest('hex')
        .slice(0, 19)}`,
      resourceRef: `arn:aws:ecs:${region}:${account.cloudId}:service/${cluster}/${service}`,
      strategy: blueGreen ? 'blue_green' : 'rolling',
      // A `-pause` family waits at a hook before production traffic (see `pausedStage`).
      ...deployHooksOf(
        family.endsWith('-pause')
          ? [{ lifecycleStages: [simulationOf(family).pausedStage] }]
          : [],
      ),
      ...(elbListenerState ? { elbListenerState } : {}),
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
    const family = familyOf(data.deployedTaskDefinition?.definition ?? {});
    const simulation = simulationOf(family);
    if (data.revertRequestedAt) {
      const message =
        'The deployment was cancelled; the previous revision runs again';
      return {
        status: 'CANCELLED',
        serviceDeploymentState: {
          observedAt: now.toISOString(),
          status: 'ROLLBACK_SUCCESSFUL',
          strategy: simulation.strategy,
          statusReason: message,
        },
        step: {
          stepCode: 'CANCELLED',
          currentStep: simulation.totalSteps,
          totalSteps: simulation.totalSteps,
          message,
        },
        error: { code: errorCode('Deployment', 'CANCELLED'), message },
      };
    }
    const { stages, pauseBefore } = simulation;
    const started = new Date(deployment.startedAt).getTime();
    let index = Math.floor(
      (now.getTime() - started) / this.options.stageMillis,
    );
    let hookId: string | undefined;
    if (family.endsWith('-pause') && index >= pauseBefore) {
      const accepted = data.acceptedPauseControl;
      if (!accepted) {
        index = pauseBefore - 1;
        hookId = `local-hook-${deployment.externalDeploymentId ?? 'x'}`;
      } else {
        const since = new Date(accepted.acceptedAt).getTime();
        index =
          pauseBefore +
          Math.floor((now.getTime() - since) / this.options.stageMillis);
      }
    }
    const failing = family.endsWith('-fail') && index >= 1;
    const stageIndex = failing ? 1 : Math.min(index, stages.length - 1);
    const stage = failing ? FAILED_STAGE : stages[stageIndex];
    const lifecycleStage = hookId
      ? simulation.pausedStage
      : stage.lifecycleStage;
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
        lifecycleStage,
        strategy: simulation.strategy,
        trafficPhase: stage.trafficPhase,
        ...(failing ? { statusReason: FAILED_STAGE.message } : {}),
      },
      step: {
        stepCode: stage.stepCode,
        currentStep: simulation.stepOf(stageIndex, lifecycleStage),
        totalSteps: simulation.totalSteps,
        lifecycleStage,
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

  /** Registers the definition as its family's next revision, with the ARN ECS would give it. */
  private async register(
    definition: Record<string, unknown>,
    accountCloudId: string,
    region: string,
  ): Promise<TaskDefinitionSnapshot> {
    const family = familyOf(definition);
    const revision = await this.options.taskDefinitions.register({
      accountCloudId,
      region,
      family,
    });
    return {
      ref: `arn:aws:ecs:${region}:${accountCloudId}:task-definition/${family}:${revision}`,
      definition,
      revision,
    };
  }
}
