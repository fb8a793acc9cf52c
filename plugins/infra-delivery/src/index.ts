/**
 * Infrastructure delivery in the portal.
 *
 * @packageDocumentation
 */
export { infraDeliveryPlugin as default } from './plugin';
export { infraDeliveryApiRef } from './api';
export { isInfraDeliveryStacksAvailable } from './availability';
export {
  legacyInfraDeliveryPlugin,
  InfraDeliveryStatusPage,
  EntityInfraDeliveryStacksContent,
  EntityInfraDeliveryPipelineRunsContent,
} from './legacy';
