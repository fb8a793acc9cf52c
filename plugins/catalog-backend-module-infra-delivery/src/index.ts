/**
 * The infra-delivery service's projects, environments, cloud accounts and stacks as catalog
 * entities.
 *
 * @packageDocumentation
 */

export { catalogModuleInfraDelivery as default } from './module';
export { InfraDeliveryEntityProvider } from './InfraDeliveryEntityProvider';
export { StackRelationsProcessor } from './StackRelationsProcessor';
export { entitiesOf } from './stackEntities';
export type { EntityOptions } from './stackEntities';
export {
  ANNOTATION_AWS_ACCOUNT_ID,
  ANNOTATION_LATEST_ROLE_VERSION,
  ANNOTATION_ROLE_VERSION,
  LABEL_CLOUD_ACCOUNT_STATUS,
} from './cloudAccountEntities';
