/**
 * Infrastructure delivery in the portal.
 *
 * @packageDocumentation
 */
export { infraDeliveryPlugin as default } from './plugin';
export { infraDeliveryApiRef } from './api';
