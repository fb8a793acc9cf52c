import { ANNOTATION_ECS_SERVICE } from '@infra-delivery/plugin-infra-delivery-common';
import { useAnnotatedEntities } from '../common/useAnnotatedEntities';
import { ecsName } from '../common/useLiveDeployments';

/** A service as its catalog annotation names it: `cluster/service`, names not ARNs. */
export function ecsServiceKey(clusterRef: string, serviceRef: string): string {
  return `${ecsName(clusterRef)}/${ecsName(serviceRef)}`;
}

/**
 * The catalog entities that name these ECS services in their `infra-delivery.io/ecs-service`
 * annotation, by service key, read in one request; none in an app without the catalog.
 */
export function useServiceEntities(keys: string[]) {
  return useAnnotatedEntities(ANNOTATION_ECS_SERVICE, keys);
}
