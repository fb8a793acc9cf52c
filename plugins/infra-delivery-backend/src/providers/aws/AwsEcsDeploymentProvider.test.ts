import {
  ContinueServiceDeploymentCommand,
  DescribeServiceDeploymentsCommand,
  DescribeServicesCommand,
  DescribeTaskDefinitionCommand,
  ECSClient,
  RegisterTaskDefinitionCommand,
  ServiceDeployment,
  StopServiceDeploymentCommand,
  UpdateServiceCommand,
} from '@aws-sdk/client-ecs';
import { ContainerDeploymentData } from '@infra-delivery/plugin-infra-delivery-common';
import { mockClient } from 'aws-sdk-client-mock';
import { InfraDeliveryError } from '../../errors';
import { AwsEcsDeploymentProvider } from './AwsEcsDeploymentProvider';
import { EcsServiceTarget } from '../DeploymentProvider';

const ecs = mockClient(ECSClient);

const target: EcsServiceTarget = {
  account: {
    cloudAccountId: 'acct-1',
    givenId: 'prod',
    cloudId: '111122223333',
    roleArn: 'arn:aws:iam::111122223333:role/InfraDelivery',
    externalId: 'external',
  },
  region: 'eu-west-1',
  clusterRef: 'main',
  serviceRef: 'api',
};

const OLD_ARN = 'arn:aws:ecs:eu-west-1:111122223333:task-definition/api:6';
const NEW_ARN = 'arn:aws:ecs:eu-west-1:111122223333:task-definition/api:7';
const SERVICE_ARN = 'arn:aws:ecs:eu-west-1:111122223333:service/main/api';

const taskDefinition = {
  family: 'api',
  containerDefinitions: [{ name: 'app', image: 'nginx:1.27', essential: true }],
  cpu: '256',
  memory: '512',
};

const credentialsFor = jest.fn(async () => ({
  accessKeyId: 'AKIA',
  secretAccessKey: 'secret',
  sessionToken: 'session',
}));

function provider() {
  return new AwsEcsDeploymentProvider({ credentialsFor, baseDelayMillis: 1 });
}

function throttled() {
  return Object.assign(new Error('Rate exceeded'), {
    name: 'ThrottlingException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
  });
}

function serviceWith(deployments: object[]) {
  return {
    services: [
      {
        serviceArn: SERVICE_ARN,
        taskDefinition: OLD_ARN,
        deployments,
      },
    ],
  };
}

function mockStart() {
  ecs.on(DescribeServicesCommand).resolves(
    serviceWith([
      {
        id: 'ecs-svc/old',
        status: 'PRIMARY',
        taskDefinition: OLD_ARN,
        rolloutState: 'COMPLETED',
      },
    ]),
  );
  ecs.on(DescribeTaskDefinitionCommand).resolves({
    taskDefinition: {
      taskDefinitionArn: OLD_ARN,
      revision: 6,
      family: 'api',
      status: 'ACTIVE',
      containerDefinitions: [{ name: 'app', image: 'nginx:1.26' }],
    },
  });
  ecs.on(RegisterTaskDefinitionCommand).resolves({
    taskDefinition: { taskDefinitionArn: NEW_ARN, revision: 7 },
  });
  ecs.on(UpdateServiceCommand).resolves({
    service: {
      serviceArn: SERVICE_ARN,
      deployments: [
        { id: 'ecs-svc/new', status: 'PRIMARY', taskDefinition: NEW_ARN },
        { id: 'ecs-svc/old', status: 'ACTIVE', taskDefinition: OLD_ARN },
      ],
    },
  });
}

describe('AwsEcsDeploymentProvider', () => {
  beforeEach(() => {
    ecs.reset();
    credentialsFor.mockClear();
  });

  it('registers the task definition, updates the service and follows the rollout to completion', async () => {
    mockStart();
    const started = await provider().start(target, {
      kind: 'register',
      taskDefinition,
    });

    expect(started).toEqual({
      deployedTaskDefinition: {
        ref: NEW_ARN,
        definition: taskDefinition,
        revision: 7,
      },
      previousTaskDefinition: {
        ref: OLD_ARN,
        revision: 6,
        definition: {
          family: 'api',
          containerDefinitions: [{ name: 'app', image: 'nginx:1.26' }],
        },
      },
      externalDeploymentId: 'ecs-svc/new',
      resourceRef: SERVICE_ARN,
      strategy: 'rolling',
      preDeployEnabled: false,
      postDeployEnabled: false,
    });
    expect(
      ecs.commandCalls(RegisterTaskDefinitionCommand)[0].args[0].input,
    ).toEqual(taskDefinition);
    expect(ecs.commandCalls(UpdateServiceCommand)[0].args[0].input).toEqual({
      cluster: 'main',
      service: 'api',
      taskDefinition: NEW_ARN,
    });
    expect(credentialsFor).toHaveBeenCalledWith(target.account);

    const now = new Date('2026-11-22T10:00:00Z');
    const deployment = {
      startedAt: now.toISOString(),
      externalDeploymentId: 'ecs-svc/new',
      data: {
        type: 'cloud:container' as const,
        cloudAccountId: 'acct-1',
        region: 'eu-west-1',
        clusterRef: 'main',
        serviceRef: 'api',
        events: [],
        deployedTaskDefinition: started.deployedTaskDefinition,
      },
    };
    ecs.on(DescribeServicesCommand).resolves(
      serviceWith([
        {
          id: 'ecs-svc/new',
          status: 'PRIMARY',
          taskDefinition: NEW_ARN,
          desiredCount: 2,
          runningCount: 1,
          pendingCount: 1,
          rolloutState: 'IN_PROGRESS',
        },
        { id: 'ecs-svc/old', status: 'ACTIVE', taskDefinition: OLD_ARN },
      ]),
    );
    const rolling = await provider().observe(target, deployment, now);
    expect(rolling.status).toBe('IN_PROGRESS');
    expect(rolling.step).toMatchObject({
      stepCode: 'IN_PROGRESS',
      currentStep: 2,
      message: 'Rolling out; 1/2 tasks running',
    });
    expect(rolling.serviceDeploymentState.targetServiceRevision).toEqual({
      runningTaskCount: 1,
      pendingTaskCount: 1,
      requestedTaskCount: 2,
      serviceRevisionRef: NEW_ARN,
    });

    ecs.on(DescribeServicesCommand).resolves(
      serviceWith([
        {
          id: 'ecs-svc/new',
          status: 'PRIMARY',
          taskDefinition: NEW_ARN,
          desiredCount: 2,
          runningCount: 2,
          rolloutState: 'COMPLETED',
          rolloutStateReason: 'ECS deployment ecs-svc/new completed.',
        },
      ]),
    );
    const done = await provider().observe(target, deployment, now);
    expect(done.status).toBe('SUCCEEDED');
    expect(done.error).toBeUndefined();
    expect(done.step).toMatchObject({
      stepCode: 'SUCCEEDED',
      currentStep: 4,
      totalSteps: 4,
    });
  });

  it('tells whether the service checks a release with hooks before or after production traffic', async () => {
    const hooked = async (...stages: string[][]) => {
      mockStart();
      ecs.on(UpdateServiceCommand).resolves({
        service: {
          serviceArn: SERVICE_ARN,
          deploymentConfiguration: {
            strategy: 'BLUE_GREEN',
            lifecycleHooks: stages.map(lifecycleStages => ({
              hookTargetArn:
                'arn:aws:lambda:eu-west-1:111122223333:function:check',
              lifecycleStages: lifecycleStages as any,
            })),
          },
          deployments: [
            { id: 'ecs-svc/new', status: 'PRIMARY', taskDefinition: NEW_ARN },
          ],
        },
      });
      const started = await provider().start(target, {
        kind: 'register',
        taskDefinition,
      });
      return [started.preDeployEnabled, started.postDeployEnabled];
    };

    expect(await hooked()).toEqual([false, false]);
    expect(await hooked(['POST_TEST_TRAFFIC_SHIFT'])).toEqual([true, false]);
    expect(await hooked(['POST_PRODUCTION_TRAFFIC_SHIFT'])).toEqual([
      false,
      true,
    ]);
    expect(
      await hooked(['PRE_SCALE_UP'], ['PRODUCTION_TRAFFIC_SHIFT']),
    ).toEqual([true, true]);
  });

  it('reports a deployment the circuit breaker rolled back', async () => {
    ecs.on(DescribeServicesCommand).resolves(
      serviceWith([
        { id: 'ecs-svc/old', status: 'PRIMARY', taskDefinition: OLD_ARN },
        {
          id: 'ecs-svc/new',
          status: 'ACTIVE',
          taskDefinition: NEW_ARN,
          failedTasks: 3,
          rolloutState: 'FAILED',
          rolloutStateReason:
            'ECS deployment circuit breaker: rolling back to deploymentId ecs-svc/old.',
        },
      ]),
    );
    const observation = await provider().observe(
      target,
      {
        startedAt: '2026-11-22T10:00:00.000Z',
        externalDeploymentId: 'ecs-svc/new',
        data: {
          type: 'cloud:container',
          cloudAccountId: 'acct-1',
          region: 'eu-west-1',
          clusterRef: 'main',
          serviceRef: 'api',
          events: [],
        },
      },
      new Date(),
    );
    expect(observation.status).toBe('ROLLED_BACK');
    expect(observation.error).toEqual({
      code: 'InfraDelivery:Deployment:CIRCUIT_BREAKER_ROLLED_BACK',
      message:
        'ECS deployment circuit breaker: rolling back to deploymentId ecs-svc/old.',
      metadata: { failedTasks: 3 },
    });
    expect(observation.serviceDeploymentState.status).toBe(
      'ROLLBACK_SUCCESSFUL',
    );
  });

  it('retries throttled calls and gives up with a 503 after the last attempt', async () => {
    mockStart();
    ecs
      .on(UpdateServiceCommand)
      .rejectsOnce(throttled())
      .rejectsOnce(throttled())
      .resolves({
        service: {
          serviceArn: SERVICE_ARN,
          deployments: [
            { id: 'ecs-svc/new', status: 'PRIMARY', taskDefinition: NEW_ARN },
          ],
        },
      });
    const started = await provider().start(target, {
      kind: 'register',
      taskDefinition,
    });
    expect(started.externalDeploymentId).toBe('ecs-svc/new');
    expect(ecs.commandCalls(UpdateServiceCommand)).toHaveLength(3);

    ecs.reset();
    ecs.on(DescribeServicesCommand).rejects(throttled());
    const error = await new AwsEcsDeploymentProvider({
      credentialsFor,
      baseDelayMillis: 1,
      maxAttempts: 3,
    })
      .start(target, { kind: 'register', taskDefinition })
      .catch(e => e);
    expect(error).toBeInstanceOf(InfraDeliveryError);
    expect(error).toMatchObject({
      status: 503,
      code: 'InfraDelivery:CloudProvider:THROTTLED',
    });
    expect(ecs.commandCalls(DescribeServicesCommand)).toHaveLength(3);
  });

  it('replays a stored release by its ARN without registering anything', async () => {
    mockStart();
    const snapshot = { ref: OLD_ARN, definition: taskDefinition, revision: 6 };
    const started = await provider().start(target, {
      kind: 'replay',
      snapshot,
    });
    expect(started.deployedTaskDefinition).toBe(snapshot);
    expect(ecs.commandCalls(RegisterTaskDefinitionCommand)).toHaveLength(0);
    expect(
      ecs.commandCalls(UpdateServiceCommand)[0].args[0].input.taskDefinition,
    ).toBe(OLD_ARN);
  });

  describe('service deployments', () => {
    const SD_ARN =
      'arn:aws:ecs:eu-west-1:111122223333:service-deployment/main/api/r9i43YFjvgF_xlg7m2eJ1r';
    const REV_NEW =
      'arn:aws:ecs:eu-west-1:111122223333:service-revision/main/api/2222';
    const REV_OLD =
      'arn:aws:ecs:eu-west-1:111122223333:service-revision/main/api/1111';
    const LB = 'arn:aws:elasticloadbalancing:eu-west-1:111122223333';
    const PROD_RULE = `${LB}:listener-rule/app/web/50dc6c495c0c9188/f2f7dc8efc522ab2/9683b2d02a6cabee`;
    const TEST_RULE = `${LB}:listener-rule/app/web/50dc6c495c0c9188/0a1b2c3d4e5f6a7b/1111222233334444`;
    const BLUE_TG = `${LB}:targetgroup/api-blue/73e2d6bc24d8a067`;
    const GREEN_TG = `${LB}:targetgroup/api-green/83e2d6bc24d8a068`;

    function mockServiceUpdate(strategy: 'ROLLING' | 'BLUE_GREEN' | 'LINEAR') {
      mockStart();
      ecs.on(UpdateServiceCommand).resolves({
        service: {
          serviceArn: SERVICE_ARN,
          currentServiceDeployment: SD_ARN,
          deploymentConfiguration: { strategy },
          loadBalancers:
            strategy === 'ROLLING'
              ? [{ targetGroupArn: BLUE_TG, containerName: 'app' }]
              : [
                  {
                    targetGroupArn: BLUE_TG,
                    containerName: 'app',
                    containerPort: 8080,
                    advancedConfiguration: {
                      alternateTargetGroupArn: GREEN_TG,
                      productionListenerRule: PROD_RULE,
                      testListenerRule: TEST_RULE,
                      roleArn: 'arn:aws:iam::111122223333:role/ecs-elb',
                    },
                  },
                ],
          deployments: [
            { id: 'ecs-svc/new', status: 'PRIMARY', taskDefinition: NEW_ARN },
          ],
        },
      });
    }

    function serviceDeployment(
      strategy: 'ROLLING' | 'BLUE_GREEN' | 'LINEAR',
      fields: Partial<ServiceDeployment>,
    ): ServiceDeployment {
      return {
        serviceDeploymentArn: SD_ARN,
        serviceArn: SERVICE_ARN,
        deploymentConfiguration: { strategy },
        sourceServiceRevisions: [
          { arn: REV_OLD, requestedTaskCount: 2, runningTaskCount: 2 },
        ],
        targetServiceRevision: {
          arn: REV_NEW,
          requestedTaskCount: 2,
          runningTaskCount: 0,
          pendingTaskCount: 2,
        },
        status: 'IN_PROGRESS',
        ...fields,
      };
    }

    function describing(...deployments: ServiceDeployment[]) {
      const on = ecs.on(DescribeServiceDeploymentsCommand, {
        serviceDeploymentArns: [SD_ARN],
      });
      for (const d of deployments) {
        on.resolvesOnce({ serviceDeployments: [d] });
      }
    }

    function stored(
      data: Partial<ContainerDeploymentData> = {},
    ): Parameters<AwsEcsDeploymentProvider['observe']>[1] {
      return {
        startedAt: '2026-11-22T10:00:00.000Z',
        externalDeploymentId: 'ecs-svc/new',
        data: {
          type: 'cloud:container',
          cloudAccountId: 'acct-1',
          region: 'eu-west-1',
          clusterRef: 'main',
          serviceRef: 'api',
          events: [],
          serviceDeploymentRef: SD_ARN,
          ...data,
        },
      };
    }

    const now = new Date('2026-11-22T10:05:00Z');

    it('follows a blue/green deployment through its lifecycle stages to completion', async () => {
      mockServiceUpdate('BLUE_GREEN');
      const started = await provider().start(target, {
        kind: 'register',
        taskDefinition,
      });
      expect(started).toMatchObject({
        serviceDeploymentRef: SD_ARN,
        strategy: 'blue_green',
        elbListenerState: [
          {
            loadBalancerRef: `${LB}:loadbalancer/app/web/50dc6c495c0c9188`,
            rules: [
              {
                isDefaultRule: false,
                listenerRef: `${LB}:listener/app/web/50dc6c495c0c9188/f2f7dc8efc522ab2`,
                ruleRef: PROD_RULE,
                targetGroupRef: BLUE_TG,
                targetGroupName: 'api-blue',
                role: 'production',
              },
              {
                isDefaultRule: false,
                listenerRef: `${LB}:listener/app/web/50dc6c495c0c9188/0a1b2c3d4e5f6a7b`,
                ruleRef: TEST_RULE,
                targetGroupRef: GREEN_TG,
                targetGroupName: 'api-green',
                role: 'test',
              },
            ],
          },
        ],
      });
      expect(started.elbListenerState![0].capturedAt).toEqual(
        expect.any(String),
      );

      describing(
        serviceDeployment('BLUE_GREEN', { lifecycleStage: 'SCALE_UP' }),
        serviceDeployment('BLUE_GREEN', {
          lifecycleStage: 'TEST_TRAFFIC_SHIFT',
          targetServiceRevision: {
            arn: REV_NEW,
            requestedTaskCount: 2,
            runningTaskCount: 2,
            requestedTestTrafficWeight: 100,
            requestedProductionTrafficWeight: 0,
          },
        }),
        serviceDeployment('BLUE_GREEN', {
          lifecycleStage: 'BAKE_TIME',
        }),
        serviceDeployment('BLUE_GREEN', {
          status: 'SUCCESSFUL',
          lifecycleStage: 'CLEAN_UP',
          statusReason: 'Service deployment completed',
        }),
      );
      const observe = () => provider().observe(target, stored(), now);

      const scaling = await observe();
      expect(scaling.status).toBe('IN_PROGRESS');
      expect(scaling.step).toMatchObject({
        stepCode: 'IN_PROGRESS',
        lifecycleStage: 'SCALE_UP',
        trafficPhase: 'standby',
        currentStep: 3,
        totalSteps: 10,
        message: 'SCALE_UP: 0/2 tasks running',
      });
      expect(scaling.serviceDeploymentState).toMatchObject({
        serviceDeploymentRef: SD_ARN,
        status: 'IN_PROGRESS',
        strategy: 'BLUE_GREEN',
        lifecycleStage: 'SCALE_UP',
        trafficPhase: 'standby',
        acceptsNativeStandbyRevert: true,
        sourceServiceRevisions: [
          {
            serviceRevisionRef: REV_OLD,
            requestedTaskCount: 2,
            runningTaskCount: 2,
          },
        ],
      });

      const testing = await observe();
      expect(testing.step).toMatchObject({
        lifecycleStage: 'TEST_TRAFFIC_SHIFT',
        trafficPhase: 'test',
        currentStep: 5,
      });
      expect(
        testing.serviceDeploymentState.targetServiceRevision,
      ).toMatchObject({
        requestedTestTrafficWeight: 100,
        requestedProductionTrafficWeight: 0,
      });

      const baking = await observe();
      expect(baking.step).toMatchObject({
        lifecycleStage: 'BAKE_TIME',
        trafficPhase: 'production',
        currentStep: 9,
      });

      const done = await observe();
      expect(done.status).toBe('SUCCEEDED');
      expect(done.error).toBeUndefined();
      expect(done.step).toMatchObject({
        stepCode: 'SUCCEEDED',
        currentStep: 10,
        totalSteps: 10,
        message: 'Service deployment completed',
      });
      expect(done.serviceDeploymentState.acceptsNativeStandbyRevert).toBe(
        false,
      );
      expect(ecs.commandCalls(DescribeServicesCommand)).toHaveLength(1);
    });

    it('follows a rolling service deployment, which has no lifecycle stages, to completion', async () => {
      mockServiceUpdate('ROLLING');
      const started = await provider().start(target, {
        kind: 'register',
        taskDefinition,
      });
      expect(started.strategy).toBe('rolling');
      expect(started.elbListenerState).toBeUndefined();
      describing(
        serviceDeployment('ROLLING', {}),
        serviceDeployment('ROLLING', { status: 'SUCCESSFUL' }),
      );
      const rolling = await provider().observe(target, stored(), now);
      expect(rolling.step).toEqual({
        stepCode: 'IN_PROGRESS',
        currentStep: 2,
        totalSteps: 4,
        desiredCount: 2,
        trafficPhase: 'production',
        message: 'Rolling out; 0/2 tasks running',
      });
      const done = await provider().observe(target, stored(), now);
      expect(done.status).toBe('SUCCEEDED');
      expect(done.step).toMatchObject({ currentStep: 4, totalSteps: 4 });
    });

    it('shows the linear traffic shift by its weight', async () => {
      describing(
        serviceDeployment('LINEAR', {
          lifecycleStage: 'PRODUCTION_TRAFFIC_SHIFT',
          targetServiceRevision: {
            arn: REV_NEW,
            requestedTaskCount: 2,
            runningTaskCount: 2,
            requestedProductionTrafficWeight: 40,
          },
        }),
      );
      const shifting = await provider().observe(target, stored(), now);
      expect(shifting.step).toMatchObject({
        lifecycleStage: 'PRODUCTION_TRAFFIC_SHIFT',
        trafficPhase: 'production',
        currentStep: 7,
        message: 'Shifting production traffic: 40% to the new revision',
      });
      expect(
        shifting.serviceDeploymentState.targetServiceRevision
          ?.requestedProductionTrafficWeight,
      ).toBe(40);
    });

    it('ends ROLLED_BACK when the circuit breaker rolled the deployment back', async () => {
      describing(
        serviceDeployment('ROLLING', {
          status: 'ROLLBACK_IN_PROGRESS',
          rollback: {
            reason: 'ECS deployment circuit breaker: tasks failed to start.',
            serviceRevisionArn: REV_OLD,
          },
          deploymentCircuitBreaker: {
            status: 'TRIGGERED',
            failureCount: 3,
            threshold: 3,
          },
        }),
        serviceDeployment('ROLLING', {
          status: 'ROLLBACK_SUCCESSFUL',
          rollback: {
            reason: 'ECS deployment circuit breaker: tasks failed to start.',
            serviceRevisionArn: REV_OLD,
          },
          deploymentCircuitBreaker: {
            status: 'TRIGGERED',
            failureCount: 3,
            threshold: 3,
          },
        }),
      );
      const rollingBack = await provider().observe(target, stored(), now);
      expect(rollingBack.status).toBe('IN_PROGRESS');
      expect(rollingBack.step).toMatchObject({
        stepCode: 'ROLLING_BACK',
        message: 'ECS deployment circuit breaker: tasks failed to start.',
      });
      const rolledBack = await provider().observe(target, stored(), now);
      expect(rolledBack.status).toBe('ROLLED_BACK');
      expect(rolledBack.error).toEqual({
        code: 'InfraDelivery:Deployment:CIRCUIT_BREAKER_ROLLED_BACK',
        message: 'ECS deployment circuit breaker: tasks failed to start.',
        metadata: { failedTasks: 3, revertedTo: REV_OLD },
      });
      expect(rolledBack.serviceDeploymentState.status).toBe(
        'ROLLBACK_SUCCESSFUL',
      );
    });

    it('shows a pause hook awaiting action and continues it through ECS', async () => {
      const hookId = 'ecs-pause-Xk7rT2mP9sLwQn4vB8fYd3hJ6gA1cE5iO0uR_ZpWq';
      describing(
        serviceDeployment('BLUE_GREEN', {
          lifecycleStage: 'POST_TEST_TRAFFIC_SHIFT',
          lifecycleHookDetails: [
            {
              hookId,
              targetType: 'PAUSE',
              status: 'AWAITING_ACTION',
              expiresAt: new Date('2026-11-22T11:00:00.000Z'),
              timeoutAction: 'ROLLBACK',
            },
          ],
        }),
        serviceDeployment('BLUE_GREEN', {
          lifecycleStage: 'PRODUCTION_TRAFFIC_SHIFT',
          lifecycleHookDetails: [
            { hookId, targetType: 'PAUSE', status: 'SUCCEEDED' },
          ],
        }),
      );
      const paused = await provider().observe(target, stored(), now);
      expect(paused.status).toBe('IN_PROGRESS');
      expect(paused.step).toMatchObject({
        hookId,
        lifecycleStage: 'POST_TEST_TRAFFIC_SHIFT',
        trafficPhase: 'test',
        message:
          'Paused at POST_TEST_TRAFFIC_SHIFT until continued; at 2026-11-22T11:00:00.000Z ECS will rollback',
      });

      ecs.on(ContinueServiceDeploymentCommand).resolves({
        serviceDeploymentArn: SD_ARN,
      });
      await provider().continuePause(target, stored(), hookId);
      expect(
        ecs.commandCalls(ContinueServiceDeploymentCommand)[0].args[0].input,
      ).toEqual({ serviceDeploymentArn: SD_ARN, hookId, action: 'CONTINUE' });

      const going = await provider().observe(target, stored(), now);
      expect(going.step.hookId).toBeUndefined();
      expect(going.step.lifecycleStage).toBe('PRODUCTION_TRAFFIC_SHIFT');
    });

    it('refuses to continue or cancel a deployment for which ECS named no service deployment', async () => {
      const legacy = stored({ serviceDeploymentRef: 'ecs-svc/new' });
      await expect(
        provider().continuePause(target, legacy, 'hook'),
      ).rejects.toMatchObject({
        status: 409,
        code: 'InfraDelivery:Deployment:NO_SERVICE_DEPLOYMENT',
      });
      await expect(provider().cancel(target, legacy)).rejects.toMatchObject({
        status: 409,
      });
      expect(ecs.calls()).toHaveLength(0);
    });

    it('cancels with a rollback stop and ends CANCELLED once ECS restored the previous revision', async () => {
      ecs.on(StopServiceDeploymentCommand).resolves({
        serviceDeploymentArn: SD_ARN,
      });
      await provider().cancel(target, stored());
      expect(
        ecs.commandCalls(StopServiceDeploymentCommand)[0].args[0].input,
      ).toEqual({ serviceDeploymentArn: SD_ARN, stopType: 'ROLLBACK' });

      describing(
        serviceDeployment('ROLLING', { status: 'ROLLBACK_REQUESTED' }),
        serviceDeployment('ROLLING', { status: 'ROLLBACK_SUCCESSFUL' }),
      );
      const cancelling = stored({ revertRequestedAt: now.toISOString() });
      expect((await provider().observe(target, cancelling, now)).status).toBe(
        'IN_PROGRESS',
      );
      const cancelled = await provider().observe(target, cancelling, now);
      expect(cancelled.status).toBe('CANCELLED');
      expect(cancelled.error?.code).toBe('InfraDelivery:Deployment:CANCELLED');
    });

    it('retries a throttled DescribeServiceDeployments', async () => {
      ecs
        .on(DescribeServiceDeploymentsCommand)
        .rejectsOnce(throttled())
        .resolves({
          serviceDeployments: [
            serviceDeployment('ROLLING', { status: 'SUCCESSFUL' }),
          ],
        });
      const done = await provider().observe(target, stored(), now);
      expect(done.status).toBe('SUCCEEDED');
      expect(ecs.commandCalls(DescribeServiceDeploymentsCommand)).toHaveLength(
        2,
      );
    });

    it('forces new tasks when a release is redeployed', async () => {
      mockServiceUpdate('ROLLING');
      await provider().start(target, {
        kind: 'replay',
        snapshot: { ref: NEW_ARN, definition: taskDefinition, revision: 7 },
        forceNewDeployment: true,
      });
      expect(ecs.commandCalls(UpdateServiceCommand)[0].args[0].input).toEqual({
        cluster: 'main',
        service: 'api',
        taskDefinition: NEW_ARN,
        forceNewDeployment: true,
      });
    });
  });
});
