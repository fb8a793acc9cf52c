import {
  CloudWatchClient,
  CloudWatchServiceException,
  GetMetricDataCommand,
  GetMetricStatisticsCommand,
} from '@aws-sdk/client-cloudwatch';
import {
  AssumeRoleCommand,
  STSClient,
  STSServiceException,
} from '@aws-sdk/client-sts';
import { errorBodySchema } from '@infra-delivery/plugin-infra-delivery-common';
import { mockClient } from 'aws-sdk-client-mock';
import { InfraDeliveryError } from '../../errors';
import { AwsCloudProvider } from './AwsCloudProvider';
import { CloudAccountAccess } from '../CloudProvider';
import { LocalCloudProvider } from '../local/LocalCloudProvider';
import { MetricQuery } from '../CloudProvider';

const sts = mockClient(STSClient);
const cloudWatch = mockClient(CloudWatchClient);

const account: CloudAccountAccess = {
  cloudAccountId: '0190a3f0-0000-7000-8000-000000000001',
  givenId: 'payments-prod',
  cloudId: '123456789012',
  roleArn: 'arn:aws:iam::123456789012:role/infra-delivery',
  externalId: 'external-id-1',
};

const query: MetricQuery = {
  cloudAccountId: account.cloudAccountId,
  region: 'eu-west-1',
  namespace: 'AWS/ECS',
  metricName: 'CPUUtilization',
  statistic: 'Average',
  period: 300,
  startTime: new Date('2026-06-01T00:00:00Z'),
  endTime: new Date('2026-06-01T01:00:00Z'),
  dimensions: [
    { name: 'ClusterName', value: 'prod' },
    { name: 'ServiceName', value: 'web' },
  ],
};

const t = (minute: number) => new Date(Date.UTC(2026, 5, 1, 0, minute, 0, 0));

function session(expiresInMs: number, keyId = 'ASIAKEY1') {
  return {
    Credentials: {
      AccessKeyId: keyId,
      SecretAccessKey: 'secret',
      SessionToken: 'session-token',
      Expiration: new Date(Date.now() + expiresInMs),
    },
  };
}

function onePage() {
  cloudWatch.on(GetMetricDataCommand).resolves({
    MetricDataResults: [
      { Id: 'value', Timestamps: [t(0)], Values: [10] },
      { Id: 'max', Timestamps: [t(0)], Values: [12] },
      { Id: 'min', Timestamps: [t(0)], Values: [8] },
    ],
  });
  cloudWatch
    .on(GetMetricStatisticsCommand)
    .resolves({ Datapoints: [{ Timestamp: t(0), Unit: 'Percent' }] });
}

async function caught(promise: Promise<unknown>): Promise<InfraDeliveryError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(InfraDeliveryError);
    errorBodySchema.parse((error as InfraDeliveryError).toBody());
    return error as InfraDeliveryError;
  }
  throw new Error('expected the call to fail');
}

beforeEach(() => {
  sts.reset();
  cloudWatch.reset();
});

describe('AwsCloudProvider', () => {
  it('assumes the account role with its external id and calls CloudWatch with that session', async () => {
    sts.on(AssumeRoleCommand).resolves(session(3600_000));
    onePage();
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    await provider.getMetricData(account, query);

    const [assume] = sts.commandCalls(AssumeRoleCommand);
    expect(assume.args[0].input).toEqual({
      RoleArn: account.roleArn,
      RoleSessionName: `infra-delivery-${account.cloudAccountId}`,
      ExternalId: 'external-id-1',
      DurationSeconds: 3600,
    });
    const [metricCall] = cloudWatch.commandCalls(GetMetricDataCommand);
    const client = metricCall.thisValue as CloudWatchClient;
    expect(await client.config.region()).toBe('eu-west-1');
    const credentials = await (
      client.config.credentials as () => Promise<{
        accessKeyId: string;
        sessionToken?: string;
      }>
    )();
    expect(credentials).toMatchObject({
      accessKeyId: 'ASIAKEY1',
      sessionToken: 'session-token',
    });
  });

  it('keeps the session per account until shortly before it expires', async () => {
    sts
      .on(AssumeRoleCommand)
      .resolvesOnce(session(3600_000, 'ASIAKEY1'))
      .resolves(session(3600_000, 'ASIAKEY2'));
    onePage();
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    await provider.getMetricData(account, query);
    await provider.getMetricData(account, query);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(1);

    // Another account has its own session.
    const other = {
      ...account,
      cloudAccountId: 'other',
      roleArn: 'arn:aws:iam::210987654321:role/x',
    };
    await provider.getMetricData(other, query);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(2);
    expect(sts.commandCalls(AssumeRoleCommand)[1].args[0].input.RoleArn).toBe(
      other.roleArn,
    );
  });

  it('assumes the role again when the kept session is about to expire', async () => {
    sts
      .on(AssumeRoleCommand)
      .resolvesOnce(session(2 * 60_000, 'ASIASHORT'))
      .resolves(session(3600_000, 'ASIAFRESH'));
    onePage();
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    await provider.getMetricData(account, query);
    await provider.getMetricData(account, query);

    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(2);
    const second = cloudWatch.commandCalls(GetMetricDataCommand)[1];
    const credentials = await (
      (second.thisValue as CloudWatchClient).config
        .credentials as () => Promise<{
        accessKeyId: string;
      }>
    )();
    expect(credentials.accessKeyId).toBe('ASIAFRESH');
  });

  it('follows NextToken across pages and merges the series, oldest first', async () => {
    sts.on(AssumeRoleCommand).resolves(session(3600_000));
    cloudWatch
      .on(GetMetricDataCommand)
      .resolvesOnce({
        MetricDataResults: [
          { Id: 'value', Timestamps: [t(10), t(0)], Values: [20, 10] },
          { Id: 'max', Timestamps: [t(0)], Values: [11] },
        ],
        NextToken: 'page-2',
      })
      .resolvesOnce({
        MetricDataResults: [
          { Id: 'value', Timestamps: [t(5)], Values: [15] },
          { Id: 'max', Timestamps: [t(5), t(10)], Values: [16, 21] },
          { Id: 'min', Timestamps: [t(10), t(5), t(0)], Values: [19, 14, 9] },
        ],
        NextToken: 'page-3',
      })
      .resolvesOnce({
        MetricDataResults: [
          { Id: 'value', Timestamps: [t(15)], Values: [25] },
          // A max without a value of its own period is no datapoint.
          { Id: 'max', Timestamps: [t(20)], Values: [99] },
        ],
      });
    cloudWatch
      .on(GetMetricStatisticsCommand)
      .resolves({ Datapoints: [{ Timestamp: t(15), Unit: 'Percent' }] });
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    const metric = await provider.getMetricData(account, query);

    expect(metric).toEqual({
      unit: 'Percent',
      source: 'cloudwatch',
      datapoints: [
        { timestamp: t(0).toISOString(), value: 10, max: 11, min: 9 },
        { timestamp: t(5).toISOString(), value: 15, max: 16, min: 14 },
        { timestamp: t(10).toISOString(), value: 20, max: 21, min: 19 },
        // Without max and min of its own, a point's extremes are its value.
        { timestamp: t(15).toISOString(), value: 25, max: 25, min: 25 },
      ],
    });
    const calls = cloudWatch.commandCalls(GetMetricDataCommand);
    expect(calls.map(call => call.args[0].input.NextToken)).toEqual([
      undefined,
      'page-2',
      'page-3',
    ]);
    const request = calls[0].args[0].input;
    expect(request).toMatchObject({
      StartTime: query.startTime,
      EndTime: new Date('2026-06-01T01:00:01Z'),
      ScanBy: 'TimestampAscending',
    });
    expect(
      request.MetricDataQueries?.map(q => [q.Id, q.MetricStat?.Stat]),
    ).toEqual([
      ['value', 'Average'],
      ['max', 'Maximum'],
      ['min', 'Minimum'],
    ]);
    expect(request.MetricDataQueries?.[0].MetricStat).toEqual({
      Metric: {
        Namespace: 'AWS/ECS',
        MetricName: 'CPUUtilization',
        Dimensions: [
          { Name: 'ClusterName', Value: 'prod' },
          { Name: 'ServiceName', Value: 'web' },
        ],
      },
      Period: 300,
      Stat: 'Average',
    });
    // The unit comes from one period at the newest datapoint.
    const [unitCall] = cloudWatch.commandCalls(GetMetricStatisticsCommand);
    expect(unitCall.args[0].input).toMatchObject({
      StartTime: t(15),
      EndTime: t(20),
      Period: 300,
    });
  });

  it('answers the inclusive range with the same datapoints as the local driver', async () => {
    sts.on(AssumeRoleCommand).resolves(session(3600_000));
    // CloudWatch as it behaves: one datapoint per period boundary in [StartTime, EndTime).
    cloudWatch.on(GetMetricDataCommand).callsFake(input => {
      const periodMs = query.period * 1000;
      const timestamps: Date[] = [];
      const first = Math.ceil(input.StartTime.getTime() / periodMs) * periodMs;
      for (let at = first; at < input.EndTime.getTime(); at += periodMs) {
        timestamps.push(new Date(at));
      }
      return {
        MetricDataResults: [
          {
            Id: 'value',
            Timestamps: timestamps,
            Values: timestamps.map(() => 1),
          },
        ],
      };
    });
    cloudWatch
      .on(GetMetricStatisticsCommand)
      .resolves({ Datapoints: [{ Unit: 'Percent' }] });
    const aws = await new AwsCloudProvider({
      region: 'us-east-1',
    }).getMetricData(account, query);
    const local = await new LocalCloudProvider().getMetricData(account, query);

    const timestamps = aws.datapoints.map(p => p.timestamp);
    expect(timestamps).toEqual(local.datapoints.map(p => p.timestamp));
    // 00:00 to 01:00 in 5-minute periods, both ends included.
    expect(timestamps).toHaveLength(13);
    expect(timestamps[12]).toBe(query.endTime.toISOString());
  });

  it('answers an empty series with unit None and no unit lookup', async () => {
    sts.on(AssumeRoleCommand).resolves(session(3600_000));
    cloudWatch.on(GetMetricDataCommand).resolves({ MetricDataResults: [] });
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    expect(await provider.getMetricData(account, query)).toEqual({
      datapoints: [],
      unit: 'None',
      source: 'cloudwatch',
    });
    expect(cloudWatch.commandCalls(GetMetricStatisticsCommand)).toHaveLength(0);
  });

  it('turns CloudWatch throttling into a 503 with a retry hint', async () => {
    sts.on(AssumeRoleCommand).resolves(session(3600_000));
    cloudWatch.on(GetMetricDataCommand).rejects(
      new CloudWatchServiceException({
        name: 'ThrottlingException',
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
        message: 'Rate exceeded',
      }),
    );
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    const error = await caught(provider.getMetricData(account, query));

    expect(error.status).toBe(503);
    expect(error.code).toBe('InfraDelivery:CloudProvider:THROTTLED');
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(error.toBody()).toMatchObject({
      metadata: {
        retryAfterSeconds: 5,
        cloudAccountId: account.cloudAccountId,
        awsErrorCode: 'ThrottlingException',
      },
    });
    expect(error.message).toContain('payments-prod');
  });

  it('turns STS throttling into a 503 with a retry hint, and assumes the role afresh next time', async () => {
    sts
      .on(AssumeRoleCommand)
      .rejectsOnce(
        new STSServiceException({
          name: 'Throttling',
          $fault: 'client',
          $metadata: { httpStatusCode: 400 },
          message: 'Rate exceeded',
        }),
      )
      .resolves(session(3600_000));
    onePage();
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    const error = await caught(provider.getMetricData(account, query));

    expect(error.status).toBe(503);
    expect(error.code).toBe('InfraDelivery:CloudProvider:THROTTLED');
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(error.toBody().metadata).toMatchObject({
      action: 'sts:AssumeRole',
      retryAfterSeconds: 5,
    });
    expect(cloudWatch.commandCalls(GetMetricDataCommand)).toHaveLength(0);

    await provider.getMetricData(account, query);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(2);
  });

  it('names the account when STS refuses to assume its role, and does not keep the failure', async () => {
    sts
      .on(AssumeRoleCommand)
      .rejectsOnce(
        new STSServiceException({
          name: 'AccessDenied',
          $fault: 'client',
          $metadata: { httpStatusCode: 403 },
          message:
            'User: arn:aws:iam::999999999999:role/platform is not authorized to perform: sts:AssumeRole',
        }),
      )
      .resolves(session(3600_000));
    onePage();
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    const error = await caught(provider.getMetricData(account, query));

    expect(error.status).toBe(422);
    expect(error.code).toBe('InfraDelivery:CloudAccount:ACCESS_DENIED');
    expect(error.message).toBe(
      'AWS denied sts:AssumeRole for cloud account payments-prod (AWS account 123456789012)',
    );
    expect(error.toBody().metadata).toMatchObject({
      cloudAccountId: account.cloudAccountId,
      cloudId: '123456789012',
      roleArn: account.roleArn,
      action: 'sts:AssumeRole',
    });
    expect(cloudWatch.commandCalls(GetMetricDataCommand)).toHaveLength(0);

    // Once the role is fixed, the next request assumes it afresh.
    await provider.getMetricData(account, query);
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(2);
  });

  it('names the account when the role may not read CloudWatch', async () => {
    sts.on(AssumeRoleCommand).resolves(session(3600_000));
    cloudWatch.on(GetMetricDataCommand).rejects(
      new CloudWatchServiceException({
        name: 'AccessDenied',
        $fault: 'client',
        $metadata: { httpStatusCode: 403 },
        message: 'not authorized to perform: cloudwatch:GetMetricData',
      }),
    );
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    const error = await caught(provider.getMetricData(account, query));

    expect(error.status).toBe(422);
    expect(error.code).toBe('InfraDelivery:CloudAccount:ACCESS_DENIED');
    expect(error.message).toContain('cloudwatch:GetMetricData');
    expect(error.message).toContain('payments-prod');
  });

  it('passes on what CloudWatch says about a query it refuses', async () => {
    sts.on(AssumeRoleCommand).resolves(session(3600_000));
    cloudWatch.on(GetMetricDataCommand).rejects(
      new CloudWatchServiceException({
        name: 'InvalidParameterValueException',
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
        message: 'The value p101 for parameter Stat is not valid.',
      }),
    );
    const provider = new AwsCloudProvider({ region: 'us-east-1' });

    const error = await caught(provider.getMetricData(account, query));

    expect(error.status).toBe(400);
    expect(error.code).toBe('InfraDelivery:MetricQuery:REJECTED_BY_CLOUD');
    expect(error.message).toContain('p101');
  });
});
