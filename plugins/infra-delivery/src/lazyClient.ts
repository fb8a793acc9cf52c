/** The client's module on its own, for the API factory to import on first use. */
export { InfraDeliveryClient } from '@internal/plugin-infra-delivery-common';
