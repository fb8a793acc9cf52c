/**
 * Catalog annotations that tie an entity to the service's resources. The frontend tabs appear
 * only on entities that carry them.
 */
export const ANNOTATION_PROJECT = 'infra-delivery.io/project';
export const ANNOTATION_ENVIRONMENT = 'infra-delivery.io/environment';
/** Comma-separated stack ids. */
export const ANNOTATION_STACKS = 'infra-delivery.io/stacks';
/** Comma-separated module instance ids. */
export const ANNOTATION_MODULE_INSTANCES = 'infra-delivery.io/module-instances';

/** The Backstage signals channel on which the backend announces run status changes. */
export const RUN_SIGNAL_CHANNEL = 'infra-delivery:pipeline-runs';
/** The Backstage signals channel on which the backend announces new log lines of a step. */
export const STEP_LOG_SIGNAL_CHANNEL = 'infra-delivery:step-logs';
/** The message announced on {@link STEP_LOG_SIGNAL_CHANNEL}. */
export type StepLogSignal = { stepExecutionId: string; pipelineRunId: string };
/**
 * The Backstage signals channel on which the backend announces deployment changes (status and
 * progress), with a message naming the deployment's cluster and service.
 */
export const DEPLOYMENT_SIGNAL_CHANNEL = 'infra-delivery:deployments';
/** The message announced on {@link DEPLOYMENT_SIGNAL_CHANNEL}. */
export type DeploymentChangeSignal = {
  deploymentId: string;
  status: string;
  /** The cluster's and service's names (the last segment of their refs). */
  clusterName: string;
  serviceName: string;
};

/** The ids listed in a comma-separated annotation value. */
export function idsFromAnnotation(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map(id => id.trim())
    .filter(Boolean);
}

/** The cloud account (id in the service) whose metrics the entity's Metrics tab shows. */
export const ANNOTATION_CLOUD_ACCOUNT = 'infra-delivery.io/cloud-account';
/** The AWS region of the entity's resources, e.g. `eu-west-1`. */
export const ANNOTATION_REGION = 'infra-delivery.io/region';
/** The entity's ECS service as `<cluster>/<service>`: its CPU and memory are charted. */
export const ANNOTATION_ECS_SERVICE = 'infra-delivery.io/ecs-service';
/**
 * More metrics to chart, comma-separated `Namespace|MetricName|Statistic|Name=Value;Name=Value`,
 * e.g. `AWS/ApplicationELB|RequestCount|Sum|LoadBalancer=app/web/123`.
 */
export const ANNOTATION_METRICS = 'infra-delivery.io/metrics';

/**
 * Drift of a stack's catalog entity, as its latest drift check found it: the status
 * (`IN_SYNC`, `DRIFTED` or `UNKNOWN`), also a label so catalog filters can select drifted
 * stacks.
 */
export const ANNOTATION_DRIFT_STATUS = 'infra-delivery.io/drift-status';
/** How many resources the latest drift check found drifted. */
export const ANNOTATION_DRIFTED_RESOURCES =
  'infra-delivery.io/drifted-resources';
/** When the latest drift check ended (ISO 8601). */
export const ANNOTATION_DRIFT_CHECKED_AT = 'infra-delivery.io/drift-checked-at';
/**
 * The location the catalog module records on every entity it emits (as
 * `backstage.io/managed-by-location: url:<it>`): its annotations follow the service at each
 * refresh of the catalog, where one written by hand in a catalog-info.yaml stays as written.
 */
export const CATALOG_MODULE_LOCATION = 'infra-delivery:portal-organization';
/** The `spec.type` of the catalog module's Resource for a stack (which names only itself). */
export const STACK_ENTITY_TYPE = 'iac-stack';
/** The label with the drift status, for catalog filters. */
export const LABEL_DRIFT_STATUS = 'infra-delivery.io/drift';
