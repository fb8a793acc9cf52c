/**
 * Node.js library of the infra-delivery plugin, for other backend plugins that call it.
 *
 * @packageDocumentation
 */

export { createInfraDeliveryClient } from './createInfraDeliveryClient';
export { CATALOG_CHANGES_TOPIC } from './catalogChanges';
export type { CatalogChangeEvent } from './catalogChanges';
