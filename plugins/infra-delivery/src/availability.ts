import { Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_ECS_SERVICE,
  ANNOTATION_STACKS,
  idsFromAnnotation,
} from '@infra-delivery/plugin-infra-delivery-common';

/** The stacks and runs tabs appear on entities that name at least one stack. */
export function isInfraDeliveryStacksAvailable(entity: Entity): boolean {
  return (
    idsFromAnnotation(entity.metadata.annotations?.[ANNOTATION_STACKS]).length >
    0
  );
}

/** The Deployments tab appears on entities that name their ECS service. */
export function isInfraDeliveryDeploymentsAvailable(entity: Entity): boolean {
  return (
    entity.metadata.annotations?.[ANNOTATION_ECS_SERVICE]?.includes('/') ??
    false
  );
}
