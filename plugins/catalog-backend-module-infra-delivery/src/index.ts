/**
 * The infra-delivery service's projects, environments and stacks as catalog entities.
 *
 * @packageDocumentation
 */
export { catalogModuleInfraDelivery as default } from './module';
export { InfraDeliveryEntityProvider } from './InfraDeliveryEntityProvider';
export { StackRelationsProcessor } from './StackRelationsProcessor';
export { entitiesOf } from './stackEntities';
