import { Entity } from '@backstage/catalog-model';
import { readableMetricName } from './metricUnits';
import {
  ANNOTATION_CLOUD_ACCOUNT,
  ANNOTATION_ECS_SERVICE,
  ANNOTATION_METRICS,
  ANNOTATION_REGION,
} from '@infra-delivery/plugin-infra-delivery-common';

/** One chart: a CloudWatch metric with its statistic and dimensions. */
export interface MetricSpec {
  title: string;
  namespace: string;
  metricName: string;
  statistic: string;
  dimensions: string[];
}

export interface EntityMetrics {
  cloudAccountId: string;
  region: string;
  metrics: MetricSpec[];
}

function parseExtraMetric(text: string): MetricSpec | undefined {
  const [namespace, metricName, statistic = 'Average', dimensions = ''] = text
    .split('|')
    .map(part => part.trim());
  if (!namespace || !metricName) {
    return undefined;
  }
  return {
    title: `${readableMetricName(metricName)} (${statistic.toLowerCase()})`,
    namespace,
    metricName,
    statistic,
    dimensions: dimensions ? dimensions.split(';').filter(Boolean) : [],
  };
}

/**
 * What the Metrics tab charts for an entity: CPU and memory of its ECS service, and any metric
 * its annotation names. Undefined when the entity names no cloud account or region.
 */
export function entityMetrics(entity: Entity): EntityMetrics | undefined {
  const annotations = entity.metadata.annotations ?? {};
  const cloudAccountId = annotations[ANNOTATION_CLOUD_ACCOUNT];
  const region = annotations[ANNOTATION_REGION];
  if (!cloudAccountId || !region) {
    return undefined;
  }
  const metrics: MetricSpec[] = [];
  const ecsService = annotations[ANNOTATION_ECS_SERVICE];
  if (ecsService?.includes('/')) {
    const [cluster, service] = ecsService.split('/');
    const dimensions = [`ClusterName=${cluster}`, `ServiceName=${service}`];
    metrics.push(
      {
        title: 'CPU utilization (%)',
        namespace: 'AWS/ECS',
        metricName: 'CPUUtilization',
        statistic: 'Average',
        dimensions,
      },
      {
        title: 'Memory utilization (%)',
        namespace: 'AWS/ECS',
        metricName: 'MemoryUtilization',
        statistic: 'Average',
        dimensions,
      },
    );
  }
  for (const text of (annotations[ANNOTATION_METRICS] ?? '').split(',')) {
    const spec = text.trim() && parseExtraMetric(text);
    if (spec) metrics.push(spec);
  }
  return { cloudAccountId, region, metrics };
}

export function isInfraDeliveryMetricsAvailable(entity: Entity): boolean {
  return (entityMetrics(entity)?.metrics.length ?? 0) > 0;
}
