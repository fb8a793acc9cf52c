import { Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_STACKS,
  idsFromAnnotation,
} from '@internal/plugin-infra-delivery-common';

/** The stacks and runs tabs appear on entities that name at least one stack. */
export function isInfraDeliveryStacksAvailable(entity: Entity): boolean {
  return (
    idsFromAnnotation(entity.metadata.annotations?.[ANNOTATION_STACKS]).length >
    0
  );
}
