/**
 * The infrastructure delivery service as a Backstage backend plugin.
 *
 * @packageDocumentation
 */
export { infraDeliveryPlugin as default } from './plugin';
export { startOneInstanceAtATime } from './startup/startOneInstanceAtATime';
export type { StartableBackend } from './startup/startOneInstanceAtATime';
