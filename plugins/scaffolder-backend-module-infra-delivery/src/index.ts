/**
 * Scaffolder actions for the infra-delivery service.
 *
 * @packageDocumentation
 */
export { scaffolderModuleInfraDelivery as default } from './module';
export * from './actions';
