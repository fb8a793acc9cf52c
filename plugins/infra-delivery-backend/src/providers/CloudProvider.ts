import { CloudMetric } from '@infra-delivery/plugin-infra-delivery-common';

export interface MetricDimension {
  name: string;
  value: string;
}

/** A metric query (#15) that passed the rules of `cloud/metricQuery` already. */
export interface MetricQuery {
  cloudAccountId: string;
  region: string;
  namespace: string;
  metricName: string;
  /** CloudWatch's spelling: `Average`, `p99`, … */
  statistic: string;
  period: number;
  startTime: Date;
  endTime: Date;
  /** Sorted by name. */
  dimensions: MetricDimension[];
}

/** What a provider needs to act in a connected account. */
export interface CloudAccountAccess {
  cloudAccountId: string;
  /** Named in errors, so that a person knows which account refused. */
  givenId: string;
  cloudId: string;
  roleArn: string;
  externalId: string;
}

/**
 * The cloud behind the service: `aws` (STS and CloudWatch in the customer's account) or
 * `local` (no cloud at all, for development and tests). Providers receive queries that passed
 * the metric rules already; their errors are InfraDeliveryErrors a caller can act on.
 */
export interface CloudProvider {
  readonly driver: 'aws' | 'local';
  getMetricData(
    account: CloudAccountAccess,
    query: MetricQuery,
  ): Promise<CloudMetric>;
}
