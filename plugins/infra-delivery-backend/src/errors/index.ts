export * from './InfraDeliveryError';
export * from './validationError';
