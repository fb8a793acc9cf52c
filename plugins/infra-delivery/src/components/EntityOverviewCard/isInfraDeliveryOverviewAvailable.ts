import { Entity } from '@backstage/catalog-model';
import {
  isInfraDeliveryDeploymentsAvailable,
  isInfraDeliveryStacksAvailable,
} from '../../availability';

/** The overview card appears on entities that name stacks or their ECS service. */
export function isInfraDeliveryOverviewAvailable(entity: Entity): boolean {
  return (
    isInfraDeliveryStacksAvailable(entity) ||
    isInfraDeliveryDeploymentsAvailable(entity)
  );
}
