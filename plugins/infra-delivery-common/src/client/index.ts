export * from './InfraDeliveryClient';
