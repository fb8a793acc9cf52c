import {
  ANNOTATION_DRIFT_CHECKED_AT,
  ANNOTATION_DRIFT_STATUS,
  ANNOTATION_DRIFTED_RESOURCES,
  LABEL_DRIFT_STATUS,
  Stack,
} from '@infra-delivery/plugin-infra-delivery-common';

/**
 * The drift of a stack as catalog metadata: annotations with the status, the drifted resource
 * count and the check's time, and a label for catalog filters. Only stacks that drift checks
 * watch (a schedule, or a check that ran) carry them: on any other stack "unknown" would say
 * nothing.
 */
export function stackDriftMetadata(stack: Stack): {
  annotations: Record<string, string>;
  labels: Record<string, string>;
} {
  if (!stack.driftCheckIntervalHours && !stack.lastDriftCheckAt) {
    return { annotations: {}, labels: {} };
  }
  return {
    annotations: {
      [ANNOTATION_DRIFT_STATUS]: stack.driftStatus,
      ...(stack.driftedResourceCount !== undefined
        ? { [ANNOTATION_DRIFTED_RESOURCES]: String(stack.driftedResourceCount) }
        : {}),
      ...(stack.lastDriftCheckAt
        ? { [ANNOTATION_DRIFT_CHECKED_AT]: stack.lastDriftCheckAt }
        : {}),
    },
    labels: { [LABEL_DRIFT_STATUS]: stack.driftStatus },
  };
}
