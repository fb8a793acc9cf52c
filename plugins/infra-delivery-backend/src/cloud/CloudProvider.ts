import { CloudMetric } from '@infra-delivery/plugin-infra-delivery-common';
import { MetricQuery } from './metricQuery';

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
