import {
  DescribeServicesCommand,
  DescribeTaskDefinitionCommand,
  ECSClient,
  RegisterTaskDefinitionCommand,
  UpdateServiceCommand,
} from '@aws-sdk/client-ecs';
import { mockClient } from 'aws-sdk-client-mock';
import { InfraDeliveryError } from '../errors';
import { AwsEcsDeploymentProvider } from './AwsEcsDeploymentProvider';
import { EcsServiceTarget } from './DeploymentProvider';

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
});
