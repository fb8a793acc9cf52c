import {
  CloudWatchClient,
  GetMetricDataCommand,
  GetMetricStatisticsCommand,
  MetricDataQuery,
  MetricDataResult,
} from '@aws-sdk/client-cloudwatch';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { CloudMetric } from '@infra-delivery/plugin-infra-delivery-common';
import { toCloudError } from './awsErrors';
import {
  CloudAccountAccess,
  CloudProvider,
  MetricQuery,
} from '../CloudProvider';

/** Session length asked of STS, and how long before its end a session is renewed. */
const SESSION_SECONDS = 3600;
const RENEW_BEFORE_MS = 5 * 60 * 1000;

interface SessionCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration: Date;
}

/** The three series of one answer: the asked statistic and the period's extremes. */
const SERIES = { value: 'value', max: 'max', min: 'min' } as const;
type SeriesId = keyof typeof SERIES;

/**
 * Calls AWS as the account's cross-account role: STS AssumeRole with the account's external id,
 * with the session kept per account until shortly before it expires (a cache of this instance
 * only; another instance simply assumes the role itself), then CloudWatch in the query's region.
 * The platform's own credentials come from the default provider chain.
 */
export class AwsCloudProvider implements CloudProvider {
  readonly driver = 'aws' as const;
  private readonly sessions = new Map<string, Promise<SessionCredentials>>();
  private readonly sts: STSClient;

  constructor(options: { region: string }) {
    this.sts = new STSClient({ region: options.region });
  }

  async getMetricData(
    account: CloudAccountAccess,
    query: MetricQuery,
  ): Promise<CloudMetric> {
    const credentials = await this.credentialsFor(account);
    const cloudWatch = new CloudWatchClient({
      region: query.region,
      credentials,
    });
    try {
      const results = await this.fetchAllPages(cloudWatch, query);
      const datapoints = mergeSeries(results);
      const unit = await this.unitOf(cloudWatch, query, datapoints);
      return { datapoints, unit, source: 'cloudwatch' };
    } catch (error) {
      throw toCloudError(error, account, 'cloudwatch:GetMetricData');
    } finally {
      cloudWatch.destroy();
    }
  }

  /** The account role's session, kept until shortly before it expires. */
  credentialsFor(account: CloudAccountAccess): Promise<SessionCredentials> {
    const key = JSON.stringify([
      account.cloudAccountId,
      account.roleArn,
      account.externalId,
    ]);
    const cached = this.sessions.get(key);
    if (cached) {
      return cached.then(credentials =>
        credentials.expiration.getTime() - RENEW_BEFORE_MS > Date.now()
          ? credentials
          : this.assumeRole(key, account),
      );
    }
    return this.assumeRole(key, account);
  }

  private assumeRole(
    key: string,
    account: CloudAccountAccess,
  ): Promise<SessionCredentials> {
    const session = this.sts
      .send(
        new AssumeRoleCommand({
          RoleArn: account.roleArn,
          RoleSessionName: `infra-delivery-${account.cloudAccountId}`.slice(
            0,
            64,
          ),
          ExternalId: account.externalId,
          DurationSeconds: SESSION_SECONDS,
        }),
      )
      .then(({ Credentials: c }) => {
        if (
          !c?.AccessKeyId ||
          !c.SecretAccessKey ||
          !c.SessionToken ||
          !c.Expiration
        ) {
          throw new Error('STS answered AssumeRole without credentials');
        }
        return {
          accessKeyId: c.AccessKeyId,
          secretAccessKey: c.SecretAccessKey,
          sessionToken: c.SessionToken,
          expiration: c.Expiration,
        };
      })
      .catch(error => {
        this.sessions.delete(key);
        throw toCloudError(error, account, 'sts:AssumeRole');
      });
    this.sessions.set(key, session);
    return session;
  }

  private async fetchAllPages(
    cloudWatch: CloudWatchClient,
    query: MetricQuery,
  ): Promise<MetricDataResult[]> {
    const metric = {
      Namespace: query.namespace,
      MetricName: query.metricName,
      Dimensions: query.dimensions.map(d => ({ Name: d.name, Value: d.value })),
    };
    const stat = (Id: string, Stat: string): MetricDataQuery => ({
      Id,
      MetricStat: { Metric: metric, Period: query.period, Stat },
      ReturnData: true,
    });
    const queries = [
      stat(SERIES.value, query.statistic),
      stat(SERIES.max, 'Maximum'),
      stat(SERIES.min, 'Minimum'),
    ];
    const results: MetricDataResult[] = [];
    let nextToken: string | undefined;
    do {
      const page = await cloudWatch.send(
        new GetMetricDataCommand({
          MetricDataQueries: queries,
          StartTime: query.startTime,
          EndTime: exclusiveEnd(query.endTime),
          ScanBy: 'TimestampAscending',
          NextToken: nextToken,
        }),
      );
      results.push(...(page.MetricDataResults ?? []));
      nextToken = page.NextToken;
    } while (nextToken);
    return results;
  }

  /**
   * GetMetricData does not report units; GetMetricStatistics does. One period at the newest
   * datapoint is enough to learn it.
   */
  private async unitOf(
    cloudWatch: CloudWatchClient,
    query: MetricQuery,
    datapoints: CloudMetric['datapoints'],
  ): Promise<string> {
    const newest = datapoints[datapoints.length - 1];
    if (!newest) {
      return 'None';
    }
    const start = new Date(newest.timestamp);
    const answer = await cloudWatch.send(
      new GetMetricStatisticsCommand({
        Namespace: query.namespace,
        MetricName: query.metricName,
        Dimensions: query.dimensions.map(d => ({
          Name: d.name,
          Value: d.value,
        })),
        StartTime: start,
        EndTime: new Date(start.getTime() + query.period * 1000),
        Period: query.period,
        Statistics: ['SampleCount'],
      }),
    );
    return answer.Datapoints?.find(d => d.Unit)?.Unit ?? 'None';
  }
}

/**
 * The query's `endTime` is inclusive (a datapoint stamped at it belongs to the answer, as the
 * local driver gives it); CloudWatch's `EndTime` is exclusive and resolves whole seconds, so one
 * second later asks for exactly the inclusive range.
 */
export function exclusiveEnd(endTime: Date): Date {
  return new Date(endTime.getTime() + 1000);
}

/** Pages of the three series, merged per timestamp, oldest first. */
export function mergeSeries(
  results: MetricDataResult[],
): CloudMetric['datapoints'] {
  const byTime = new Map<number, Partial<Record<SeriesId, number>>>();
  for (const result of results) {
    const id = result.Id as SeriesId;
    if (!(id in SERIES)) {
      continue;
    }
    const timestamps = result.Timestamps ?? [];
    const values = result.Values ?? [];
    timestamps.forEach((timestamp, index) => {
      const time = timestamp.getTime();
      byTime.set(time, { ...byTime.get(time), [id]: values[index] });
    });
  }
  return [...byTime.entries()]
    .filter(([, point]) => point.value !== undefined)
    .sort(([a], [b]) => a - b)
    .map(([time, point]) => ({
      timestamp: new Date(time).toISOString(),
      value: point.value!,
      max: point.max ?? point.value!,
      min: point.min ?? point.value!,
    }));
}
