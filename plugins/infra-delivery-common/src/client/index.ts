export * from './InfraDeliveryClient';
export * from './readPages';
