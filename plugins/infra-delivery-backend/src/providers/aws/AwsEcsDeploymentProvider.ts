import {
  ContinueServiceDeploymentCommand,
  DescribeServiceDeploymentsCommand,
  DescribeServicesCommand,
  DescribeTaskDefinitionCommand,
  ECSClient,
  RegisterTaskDefinitionCommand,
  RegisterTaskDefinitionCommandInput,
  Deployment as EcsDeployment,
  Service,
  StopServiceDeploymentCommand,
  UpdateServiceCommand,
} from '@aws-sdk/client-ecs';
import {
  errorCode,
  TaskDefinitionSnapshot,
} from '@infra-delivery/plugin-infra-delivery-common';
import { toCloudError } from './awsErrors';
import { InfraDeliveryError } from '../../errors';
import { CloudAccountAccess } from '../CloudProvider';
import {
  DeploymentObservation,
  DeploymentProvider,
  EcsServiceTarget,
  ProviderDeployment,
  Release,
  StartedDeployment,
} from '../DeploymentProvider';
import { deployHooksOf } from '../ecs/lifecycleStages';
import { elbListenerStateOf } from '../ecs/elbListenerState';
import { observationOfServiceDeployment } from './serviceDeploymentProgress';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

export interface AwsEcsDeploymentProviderOptions {
  /** The account's role session (the cloud provider's STS sessions). */
  credentialsFor(account: CloudAccountAccess): Promise<AwsCredentials>;
  /** Attempts of a throttled call, the first included. */
  maxAttempts?: number;
  /** First back-off; it doubles per attempt, with jitter. */
  baseDelayMillis?: number;
}

const THROTTLING = new Set([
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
]);

function isThrottling(error: unknown): boolean {
  const e = error as {
    name?: string;
    $retryable?: { throttling?: boolean };
    $metadata?: { httpStatusCode?: number };
  };
  return (
    THROTTLING.has(e?.name ?? '') ||
    e?.$retryable?.throttling === true ||
    e?.$metadata?.httpStatusCode === 429
  );
}

/** Fields DescribeTaskDefinition answers that RegisterTaskDefinition does not take. */
const DESCRIBE_ONLY_FIELDS = [
  'taskDefinitionArn',
  'revision',
  'status',
  'requiresAttributes',
  'compatibilities',
  'registeredAt',
  'registeredBy',
  'deregisteredAt',
];

/** The ARN of an ECS service deployment, which the service deployment APIs take. */
const SERVICE_DEPLOYMENT_ARN =
  /^arn:aws[\w-]*:ecs:[\w-]+:\d{12}:service-deployment\//;

/** `BLUE_GREEN` → `blue_green`; a CodeDeploy-controlled service is blue/green too. */
function strategyOf(service: Service | undefined): string {
  if (service?.deploymentController?.type === 'CODE_DEPLOY') {
    return 'blue_green';
  }
  return (
    service?.deploymentConfiguration?.strategy ?? 'ROLLING'
  ).toLowerCase();
}

/**
 * ECS through the account's cross-account role. A new release is registered
 * (RegisterTaskDefinition) and the service updated onto it (UpdateService); a replayed release
 * updates the service onto the stored revision's ARN, so a rollback runs exactly what ran
 * before. Progress is the service deployment that the update started
 * (DescribeServiceDeployments): its status, lifecycle stage (blue/green, linear and canary),
 * traffic weights, lifecycle hooks and rollback. A PAUSE hook awaiting action is continued
 * with ContinueServiceDeployment; a cancel is StopServiceDeployment with ROLLBACK. Where ECS
 * named no service deployment, the service's deployment of the revision (DescribeServices)
 * stands in. Throttled calls are retried with exponential back-off; the SDK's own retries are
 * off so that attempts are counted in one place.
 */
export class AwsEcsDeploymentProvider implements DeploymentProvider {
  readonly driver = 'aws' as const;
  private readonly maxAttempts: number;
  private readonly baseDelayMillis: number;

  constructor(private readonly options: AwsEcsDeploymentProviderOptions) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.baseDelayMillis = options.baseDelayMillis ?? 200;
  }

  async start(
    target: EcsServiceTarget,
    release: Release,
  ): Promise<StartedDeployment> {
    return this.withEcs(target, async call => {
      const current = await this.describeService(call, target);
      const previousTaskDefinition = current?.taskDefinition
        ? await this.describe(call, current.taskDefinition)
        : undefined;

      let deployedTaskDefinition: TaskDefinitionSnapshot;
      if (release.kind === 'replay') {
        deployedTaskDefinition = release.snapshot;
      } else {
        const registered = (
          await call('ecs:RegisterTaskDefinition', ecs =>
            ecs.send(
              new RegisterTaskDefinitionCommand(
                release.taskDefinition as unknown as RegisterTaskDefinitionCommandInput,
              ),
            ),
          )
        ).taskDefinition;
        if (!registered?.taskDefinitionArn || !registered.revision) {
          throw new Error('ECS answered RegisterTaskDefinition without an ARN');
        }
        deployedTaskDefinition = {
          ref: registered.taskDefinitionArn,
          definition: release.taskDefinition,
          revision: registered.revision,
        };
      }

      const updated = await call('ecs:UpdateService', ecs =>
        ecs.send(
          new UpdateServiceCommand({
            cluster: target.clusterRef,
            service: target.serviceRef,
            taskDefinition: deployedTaskDefinition.ref,
            ...(release.kind === 'replay' && release.forceNewDeployment
              ? { forceNewDeployment: true }
              : {}),
          }),
        ),
      );
      const primary = updated.service?.deployments?.find(
        d => d.status === 'PRIMARY',
      );
      const serviceDeploymentRef = updated.service?.currentServiceDeployment;
      const strategy = strategyOf(updated.service ?? current);
      const hooks = deployHooksOf(
        (updated.service ?? current)?.deploymentConfiguration?.lifecycleHooks,
      );
      const elbListenerState =
        strategy === 'rolling'
          ? undefined
          : elbListenerStateOf(
              (updated.service ?? current)?.loadBalancers,
              new Date(),
            );
      return {
        deployedTaskDefinition,
        previousTaskDefinition,
        externalDeploymentId: primary?.id,
        resourceRef: updated.service?.serviceArn,
        ...(serviceDeploymentRef ? { serviceDeploymentRef } : {}),
        strategy,
        ...hooks,
        ...(elbListenerState ? { elbListenerState } : {}),
      };
    });
  }

  async currentTaskDefinition(
    target: EcsServiceTarget,
  ): Promise<TaskDefinitionSnapshot | undefined> {
    return this.withEcs(target, async call => {
      const service = await this.describeService(call, target);
      return service?.taskDefinition
        ? this.describe(call, service.taskDefinition)
        : undefined;
    });
  }

  async continuePause(
    target: EcsServiceTarget,
    deployment: ProviderDeployment,
    hookId: string,
  ): Promise<void> {
    const serviceDeploymentArn = this.serviceDeploymentArnOf(deployment);
    await this.withEcs(target, call =>
      call('ecs:ContinueServiceDeployment', ecs =>
        ecs.send(
          new ContinueServiceDeploymentCommand({
            serviceDeploymentArn,
            hookId,
            action: 'CONTINUE',
          }),
        ),
      ),
    );
  }

  async cancel(
    target: EcsServiceTarget,
    deployment: ProviderDeployment,
  ): Promise<void> {
    const serviceDeploymentArn = this.serviceDeploymentArnOf(deployment);
    await this.withEcs(target, call =>
      call('ecs:StopServiceDeployment', ecs =>
        ecs.send(
          new StopServiceDeploymentCommand({
            serviceDeploymentArn,
            stopType: 'ROLLBACK',
          }),
        ),
      ),
    );
  }

  private serviceDeploymentArnOf(deployment: ProviderDeployment): string {
    const ref = deployment.data.serviceDeploymentRef;
    if (!ref || !SERVICE_DEPLOYMENT_ARN.test(ref)) {
      throw new InfraDeliveryError({
        status: 409,
        entity: 'Deployment',
        reason: 'NO_SERVICE_DEPLOYMENT',
        message:
          'ECS named no service deployment for this deployment, so it cannot be acted on from here',
      });
    }
    return ref;
  }

  async observe(
    target: EcsServiceTarget,
    deployment: ProviderDeployment,
    now: Date,
  ): Promise<DeploymentObservation> {
    return this.withEcs(target, async call => {
      const serviceDeploymentArn = deployment.data.serviceDeploymentRef;
      if (
        serviceDeploymentArn &&
        SERVICE_DEPLOYMENT_ARN.test(serviceDeploymentArn)
      ) {
        const [described] =
          (
            await call('ecs:DescribeServiceDeployments', ecs =>
              ecs.send(
                new DescribeServiceDeploymentsCommand({
                  serviceDeploymentArns: [serviceDeploymentArn],
                }),
              ),
            )
          ).serviceDeployments ?? [];
        if (described) {
          return observationOfServiceDeployment(described, now, {
            cancelRequested: Boolean(deployment.data.revertRequestedAt),
          });
        }
      }
      const service = await this.describeService(call, target);
      const deployments = service?.deployments ?? [];
      const ours = deployments.find(d =>
        deployment.externalDeploymentId
          ? d.id === deployment.externalDeploymentId
          : d.taskDefinition === deployment.data.deployedTaskDefinition?.ref,
      );
      return observationOf(ours, deployments, now);
    });
  }

  /** The ECS service the target names, as ECS describes it now (undefined when missing). */
  private async describeService(
    call: EcsCall,
    target: EcsServiceTarget,
  ): Promise<Service | undefined> {
    const { services } = await call('ecs:DescribeServices', ecs =>
      ecs.send(
        new DescribeServicesCommand({
          cluster: target.clusterRef,
          services: [target.serviceRef],
        }),
      ),
    );
    return services?.[0];
  }

  private async describe(
    call: EcsCall,
    ref: string,
  ): Promise<TaskDefinitionSnapshot | undefined> {
    const described = (
      await call('ecs:DescribeTaskDefinition', ecs =>
        ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition: ref })),
      )
    ).taskDefinition;
    if (!described?.taskDefinitionArn || !described.revision) {
      return undefined;
    }
    const definition: Record<string, unknown> = { ...described };
    for (const field of DESCRIBE_ONLY_FIELDS) {
      delete definition[field];
    }
    return {
      ref: described.taskDefinitionArn,
      definition,
      revision: described.revision,
    };
  }

  private async withEcs<T>(
    target: EcsServiceTarget,
    work: (call: EcsCall) => Promise<T>,
  ): Promise<T> {
    const credentials = await this.options.credentialsFor(target.account);
    const ecs = new ECSClient({
      region: target.region,
      credentials,
      maxAttempts: 1,
    });
    const call: EcsCall = async (action, send) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await send(ecs);
        } catch (error) {
          if (isThrottling(error) && attempt < this.maxAttempts) {
            const delay =
              this.baseDelayMillis * 2 ** (attempt - 1) * (0.5 + Math.random());
            await new Promise(resolve => setTimeout(resolve, delay));
            continue;
          }
          throw toCloudError(error, target.account, action);
        }
      }
    };
    try {
      return await work(call);
    } finally {
      ecs.destroy();
    }
  }
}

/** One ECS call, retried while throttled; other errors become cloud errors. */
type EcsCall = <T>(
  action: string,
  send: (ecs: ECSClient) => Promise<T>,
) => Promise<T>;

const CIRCUIT_BREAKER_ROLLBACK = /circuit breaker.*roll(ing|ed)? ?back/i;

/** The service's deployment of our revision, as a progress step. */
export function observationOf(
  ours: EcsDeployment | undefined,
  all: EcsDeployment[],
  now: Date,
): DeploymentObservation {
  const observedAt = now.toISOString();
  const revision = (d: EcsDeployment) => ({
    runningTaskCount: d.runningCount ?? 0,
    pendingTaskCount: d.pendingCount,
    requestedTaskCount: d.desiredCount,
    serviceRevisionRef: d.taskDefinition,
  });
  const base = {
    observedAt,
    serviceDeploymentRef: ours?.id,
    strategy: 'ROLLING',
    sourceServiceRevisions: all.filter(d => d !== ours).map(revision),
    ...(ours ? { targetServiceRevision: revision(ours) } : {}),
  };
  if (!ours) {
    // Replaced by a newer deployment of the service before it completed.
    const error = {
      code: errorCode('Deployment', 'SUPERSEDED'),
      message: 'The service was updated again before this deployment completed',
    };
    return {
      status: 'FAILED',
      serviceDeploymentState: {
        ...base,
        status: 'STOPPED',
        statusReason: error.message,
      },
      step: {
        stepCode: 'FAILED',
        currentStep: 4,
        totalSteps: 4,
        message: error.message,
      },
      error,
    };
  }
  const reason = ours.rolloutStateReason;
  const counts = `${ours.runningCount ?? 0}/${
    ours.desiredCount ?? 0
  } tasks running`;
  switch (ours.rolloutState) {
    case 'COMPLETED':
      return {
        status: 'SUCCEEDED',
        serviceDeploymentState: {
          ...base,
          status: 'SUCCESSFUL',
          statusReason: reason,
        },
        step: {
          stepCode: 'SUCCEEDED',
          currentStep: 4,
          totalSteps: 4,
          desiredCount: ours.desiredCount,
          message: reason ?? `Deployment completed; ${counts}`,
        },
      };
    case 'FAILED': {
      const rolledBack = CIRCUIT_BREAKER_ROLLBACK.test(reason ?? '');
      const error = {
        code: errorCode(
          'Deployment',
          rolledBack ? 'CIRCUIT_BREAKER_ROLLED_BACK' : 'FAILED',
        ),
        message: reason ?? 'ECS reported the deployment failed',
        metadata: { failedTasks: ours.failedTasks ?? 0 },
      };
      return {
        status: rolledBack ? 'ROLLED_BACK' : 'FAILED',
        serviceDeploymentState: {
          ...base,
          status: rolledBack ? 'ROLLBACK_SUCCESSFUL' : 'FAILED',
          statusReason: reason,
        },
        step: {
          stepCode: rolledBack ? 'ROLLED_BACK' : 'FAILED',
          currentStep: 4,
          totalSteps: 4,
          desiredCount: ours.desiredCount,
          message: error.message,
        },
        error,
      };
    }
    default:
      return {
        status: 'IN_PROGRESS',
        serviceDeploymentState: {
          ...base,
          status: 'IN_PROGRESS',
          statusReason: reason,
        },
        step: {
          stepCode: 'IN_PROGRESS',
          currentStep: 2,
          totalSteps: 4,
          desiredCount: ours.desiredCount,
          trafficPhase: 'production',
          message: `Rolling out; ${counts}`,
        },
      };
  }
}
